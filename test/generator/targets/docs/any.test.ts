import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARGET_OPTIONS } from '../../../../generator/config.js';
import type { ApiModel, Names, Operation, Parameter, Property, Schema, SecuritySchemeModel } from '../../../../generator/model/types.js';
import { curlExample } from '../../../../generator/targets/docs/curl.js';
import { EXAMPLE_ORIGIN } from '../../../../generator/targets/docs/examples.js';
import { renderMarkdown } from '../../../../generator/targets/docs/index.js';
import type { TargetContext } from '../../../../generator/targets/types.js';

const run = promisify(execFile);

// Hand-built models of documents unlike ours: a plain JSON API (no envelope,
// no feature levels, errors typed by status), and unions of every kind.

function names(file: string): Names {
  const camel = file.replace(/[-_]([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return { camel, pascal: camel.charAt(0).toUpperCase() + camel.slice(1), file };
}
const integer: Schema = { kind: 'integer' };
const string: Schema = { kind: 'string' };
const ref = (name: string): Schema => ({ kind: 'ref', name });
const prop = (name: string, schema: Schema, required = true): Property => ({ name, names: names(name), required, schema });
const object = (properties: Property[], extra: Partial<Schema & { kind: 'object' }> = {}): Schema => ({ kind: 'object', properties, additionalProperties: true, ...extra }) as Schema;
const scheme = (name: string, extra: Partial<SecuritySchemeModel>): SecuritySchemeModel => ({
  name,
  names: names(name),
  description: '',
  kind: 'bearer',
  source: { file: 'openapi.yaml' },
  ...extra,
});

function param(name: string, location: Parameter['location'], schema: Schema, extra: Partial<Parameter> = {}): Parameter {
  return { name, names: names(name), location, encoding: 'plain', required: false, schema, description: '', source: { file: 'openapi.yaml' }, changes: [], deprecated: false, unspecified: [], ...extra };
}

function operation(id: string, method: Operation['method'], path: string, extra: Partial<Operation>): Operation {
  const success = { status: 200, description: 'OK.', schema: { kind: 'any' } as Schema, contents: [], headers: [], examples: [] };
  return {
    id,
    names: names(id),
    method,
    path,
    summary: '',
    description: '',
    tags: ['pets'],
    auth: true,
    security: [['bearerAuth']],
    basePath: '/v2',
    parameters: [],
    body: 'none',
    success,
    successes: [success],
    errors: [],
    requestExamples: [],
    source: { file: 'openapi.yaml' },
    changes: [],
    deprecated: false,
    unspecified: [],
    ...extra,
  };
}

const pet: Schema = {
  kind: 'union',
  exclusive: true,
  variants: [ref('Cat'), ref('Dog'), { kind: 'object', title: 'Fish', properties: [prop('kind', { kind: 'string', const: 'fish' }), prop('fins', integer)], additionalProperties: true }],
  discriminator: { propertyName: 'kind', mapping: { cat: 'Cat', dog: '#/components/schemas/Dog' } },
};
const cat = object([prop('kind', { kind: 'string', const: 'cat' }), prop('name', string), prop('lives', { kind: 'integer', minimum: 0, maximum: 9 }, false)]);
const dog = object([prop('kind', { kind: 'string', const: 'dog' }), prop('name', string), prop('friends', { kind: 'array', items: ref('Pet') }, false)]);
const shape: Schema = {
  kind: 'union',
  variants: [
    object([prop('type', { kind: 'string', const: 'circle' }), prop('radius', { kind: 'number', exclusiveMinimum: 0 })]),
    object([prop('type', { kind: 'string', const: 'square' }), prop('side', { kind: 'number', multipleOf: 0.5 })]),
  ],
  discriminator: { propertyName: 'type', mapping: { circle: 'Circle', square: 'Square' }, implicit: true },
};
const problem = object([prop('title', string), prop('status', integer), prop('detail', string, false)]);
const tree = object([prop('value', { kind: 'any', enum: [1, 'two', null, true] }), prop('children', { kind: 'array', items: ref('Tree') })]);
const misc = object([
  prop('point', { kind: 'array', prefixItems: [{ kind: 'number' }, { kind: 'number' }] }),
  prop('labels', { kind: 'object', properties: [], additionalProperties: false, patternProperties: [{ pattern: '^x-', schema: string }] }),
  prop('scores', { kind: 'object', properties: [], additionalProperties: integer }),
  prop('mode', { kind: 'any', const: { on: true } }),
  prop('not_admin', { kind: 'string', not: { kind: 'string', const: 'admin' } }),
  prop('tags', { kind: 'array', items: string, uniqueItems: true }, false),
]);

const createPet = operation('create-pet', 'post', '/pets', {
  summary: 'Create a pet',
  body: 'json',
  parameters: [
    param('X-Request-Id', 'header', string, { required: true, style: 'simple', explode: false, description: 'Traces the request.' }),
    param('session', 'cookie', string, { style: 'form', explode: true }),
    param('tags', 'query', { kind: 'array', items: string }, { style: 'pipeDelimited', explode: false }),
  ],
  requestBody: {
    required: true,
    description: 'The pet to add.',
    mode: 'whole',
    parameterName: 'body',
    contents: [
      { mediaType: 'application/json', kind: 'json', schema: ref('Pet'), examples: [] },
      { mediaType: 'text/plain', kind: 'text', schema: string, examples: [] },
    ],
    source: { file: 'openapi.yaml' },
  },
  successes: [
    {
      status: 201,
      description: 'Created.',
      schema: ref('Pet'),
      contents: [{ mediaType: 'application/json', kind: 'json', schema: ref('Pet'), examples: [{ name: 'cat', summary: '', value: { kind: 'cat', name: 'Tom' } }] }],
      headers: [{ name: 'Location', names: names('location'), required: true, schema: string, description: 'Where the pet lives now.', source: { file: 'openapi.yaml' }, changes: [], deprecated: false, unspecified: [] }],
      examples: [],
    },
    { status: 202, description: 'Queued.', schema: { kind: 'any' }, contents: [], headers: [], examples: [] },
  ],
  errors: [
    { status: 400, description: 'Bad pet.', codes: [], examples: [], contents: [{ mediaType: 'application/problem+json', kind: 'json', schema: ref('Problem'), examples: [] }], headers: [] },
    { status: 0, statusText: 'default', description: 'Anything else.', codes: [], examples: [], contents: [], headers: [] },
  ],
  requestExamples: [{ name: 'cat', summary: '', value: { 'X-Request-Id': 'r-1', session: 'abc', tags: ['a', 'b'], body: { kind: 'cat', name: "Tom's" } } }],
  servers: ['https://pets.example.com/v2'],
});
createPet.success = createPet.successes[0]!;

const getShape = operation('get-shape', 'get', '/shapes/{id}', {
  summary: 'Fetch a shape',
  security: [[], ['apiKeyQuery']],
  auth: false,
  parameters: [param('id', 'path', integer, { required: true, style: 'simple', explode: false })],
  successes: [
    { status: 200, description: 'The shape.', schema: shape, contents: [{ mediaType: 'application/json', kind: 'json', schema: shape, examples: [] }], headers: [], examples: [] },
  ],
  requestExamples: [{ name: 'one', summary: '', value: { id: 7 } }],
});
getShape.success = getShape.successes[0]!;

const getTree = operation('get-tree', 'get', '/tree', {
  summary: 'Fetch the tree',
  security: [['apiKeyHeader', 'apiKeyCookie']],
  successes: [
    { status: 200, description: 'The tree.', schema: ref('Tree'), contents: [{ mediaType: 'application/json', kind: 'json', schema: ref('Tree'), examples: [] }], headers: [], examples: [] },
    { status: 200, description: 'The tree as text.', schema: { kind: 'any' }, contents: [{ mediaType: 'text/csv', kind: 'text', schema: string, examples: [] }], headers: [], examples: [] },
  ],
});
getTree.success = getTree.successes[0]!;

const putPhoto = operation('put-photo', 'put', '/pets/{id}/photo', {
  summary: 'Replace a photo',
  body: 'binary',
  security: [['basicAuth'], ['bearerAuth']],
  parameters: [param('id', 'path', integer, { required: true })],
  requestBody: { required: true, description: '', mode: 'whole', parameterName: 'body', contents: [{ mediaType: 'image/png', kind: 'binary', schema: { kind: 'string', format: 'binary' }, examples: [] }], source: { file: 'openapi.yaml' } },
  successes: [{ status: 204, description: 'Replaced.', schema: { kind: 'any' }, contents: [], headers: [], examples: [] }],
  requestExamples: [{ name: 'png', summary: '', value: { id: 3, body: 'photo.png' } }],
});
putPhoto.success = putPhoto.successes[0]!;

const getMisc = operation('get-misc', 'get', '/misc', {
  summary: 'Everything else',
  security: [],
  auth: false,
  successes: [{ status: 200, description: 'Misc.', schema: misc, contents: [{ mediaType: 'application/json', kind: 'json', schema: misc, examples: [] }], headers: [], examples: [] }],
});
getMisc.success = getMisc.successes[0]!;

const model: ApiModel = {
  title: 'Pet Store',
  version: '2.0.0',
  description: 'A plain JSON API.',
  basePath: '/v2',
  maxFeatureLevel: 0,
  operations: [createPet, getMisc, getShape, getTree, putPhoto],
  schemas: [
    { name: 'Cat', names: names('Cat'), schema: { ...cat, refName: 'Cat' } },
    { name: 'Dog', names: names('Dog'), schema: { ...dog, refName: 'Dog' } },
    { name: 'Pet', names: names('Pet'), schema: { ...pet, description: 'Any pet.' } },
    { name: 'Problem', names: names('Problem'), schema: problem },
    { name: 'Tree', names: names('Tree'), schema: tree },
  ],
  errors: [],
  tags: [{ name: 'pets', description: 'Pets.' }],
  unspecified: [],
  securitySchemes: [
    scheme('apiKeyCookie', { kind: 'apiKey', in: 'cookie', parameterName: 'sid' }),
    scheme('apiKeyHeader', { kind: 'apiKey', in: 'header', parameterName: 'X-API-Key' }),
    scheme('apiKeyQuery', { kind: 'apiKey', in: 'query', parameterName: 'api_key' }),
    scheme('basicAuth', { kind: 'basic' }),
    scheme('bearerAuth', { kind: 'bearer', bearerFormat: 'JWT', description: 'A token from the login page.' }),
  ],
  conventions: { successEnvelope: false, bodyCodedErrors: false, featureLevels: false },
};

function context(): TargetContext {
  return {
    model,
    root: process.cwd(),
    outDir: 'generated',
    templatesDir: join(process.cwd(), 'templates'),
    command: 'npm run generate',
    readExisting: () => undefined,
    options: DEFAULT_TARGET_OPTIONS,
    filesOf: async () => [],
    produces: () => true,
    report: () => undefined,
  };
}

const pages = renderMarkdown(context());
function page(path: string): string {
  const file = pages.find((candidate) => candidate.path === `generated/docs/${path}`);
  if (file === undefined) throw new Error(`no ${path}`);
  return file.contents;
}

describe('docs of a plain JSON API', () => {
  it('match the golden pages', async () => {
    for (const file of pages) {
      await expect(file.contents).toMatchFileSnapshot(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'docs', 'golden', file.path.replace('generated/docs/', '')));
    }
  });

  it('say nothing of our conventions: no changelog, feature levels, envelope or error codes', () => {
    expect(pages.map((file) => file.path)).not.toContain('generated/docs/changelog.md');
    for (const file of pages) {
      expect(file.contents).not.toMatch(/feature level|changelog|result: success|"success"|\| Code \|/i);
    }
  });

  it('list every success status with its bodies and headers, and errors by status', () => {
    const text = page('reference/create-pet.md');
    expect(text).toContain('## Responses\n\n### 201\n\nStatus 201: Created.');
    expect(text).toContain('| `Location` | `string` | always | Where the pet lives now. |');
    expect(text).toContain('### 202\n\nStatus 202: Queued.\n\nNo body.');
    expect(text).toContain('| 400 | `application/problem+json`: `Problem` |  | Bad pet. |');
    expect(text).toContain('| default | no body |  | Anything else. |');
    expect(text).toContain('### Problem\n');
    expect(text).toContain('| Servers | `https://pets.example.com/v2` |');
  });

  it('render the request body per media type, and header and cookie parameters with their style', () => {
    const text = page('reference/create-pet.md');
    expect(text).toContain('## Request body\n\nRequired. The pet to add. The client sends one of these media types; the server accepts each.');
    expect(text).toContain('`application/json`: `Pet` (see Types below).');
    expect(text).toContain('`text/plain`: text, `string`.');
    expect(text).toContain('| `X-Request-Id` | `string` | yes |  | plain | header |  | Traces the request. |');
    expect(text).toContain('| `tags` | `string[]` | no |  | plain | query | pipeDelimited, not exploded |  |');
  });

  it('show discriminators as value-to-variant tables, explicit and implicit', () => {
    const create = page('reference/create-pet.md');
    expect(create).toContain('### Pet\n\nAny pet.\n\nExactly one of these:\n\n1. `Cat`\n2. `Dog`\n3. `Fish`: `object`');
    expect(create).toContain('| `kind` = | → Variant |\n|---|---|\n| `cat` | `Cat` |\n| `dog` | `Dog` |');
    expect(create).toContain('| `fins` | `integer` | always present | Only in `Fish`. |');
    const shapePage = page('reference/get-shape.md');
    expect(shapePage).toContain('The variant is told by the field `type` (each variant fixes its own value):');
    expect(shapePage).toContain('| `radius` | `number` | always present | Only in variant 1.<br>Greater than 0. |');
    expect(shapePage).toContain('| `side` | `number` | always present | Only in variant 2.<br>A multiple of 0.5. |');
  });

  it('terminate on recursion and show maps, tuples, const, enum of any type and not', () => {
    const tree = page('reference/get-tree.md');
    expect(tree).toContain('| `value` | `1 \\| "two" \\| null \\| true` |');
    expect(tree).toContain('| `children` | `Tree[]` | always present |');
    expect(tree).not.toContain('children[].value');
    expect(tree).toContain('`text/csv`: text, `string`.');
    const misc = page('reference/get-misc.md');
    expect(misc).toContain('| `point` | `[number, number]` |');
    expect(misc).toContain('| `point[0]` | `number` | always present |');
    expect(misc).toContain('| `labels` | `Record<string, string>` | always present | Keys matching `^x-` hold `string`. |');
    expect(misc).toContain('| `scores.<key>` | `integer` | may be absent |');
    expect(misc).toContain('| `mode` | `{"on":true}` |');
    expect(misc).toContain('| `not_admin` | `string` | always present | Must not be `"admin"`. |');
    expect(misc).toContain('Items are unique.');
  });

  it('describe security per operation: alternatives, optional, none', () => {
    expect(page('reference/put-photo.md')).toContain('| Authentication | HTTP Basic (`basicAuth`), or Bearer token (JWT) in `Authorization` (`bearerAuth`). |');
    expect(page('reference/get-shape.md')).toContain('| Authentication | API key in the query `api_key` (`apiKeyQuery`). Optional: the operation also answers without credentials. |');
    expect(page('reference/get-tree.md')).toContain('| Authentication | API key in the header `X-API-Key` (`apiKeyHeader`) and API key in the cookie `sid` (`apiKeyCookie`). |');
    expect(page('reference/get-misc.md')).toContain('| Authentication | None. |');
    expect(page('reference/create-pet.md')).toContain('Bearer token (JWT) in `Authorization` (`bearerAuth`): A token from the login page.');
  });

  it('index the operations by their own base path, without a changelog link', () => {
    const index = page('index.md');
    expect(index).toContain('| [Create a pet](reference/create-pet.md) | `POST /v2/pets` |');
    expect(index).not.toContain('Changelog');
  });

  it('write client examples with the body and credentials by scheme', () => {
    const text = page('reference/create-pet.md');
    expect(text).toContain("  auth: {\n    bearerAuth: process.env.TOKEN ?? '',\n  },");
    expect(text).toContain("  body: {\n    kind: 'cat',\n    name: 'Tom\\'s',\n  },");
    expect(page('reference/put-photo.md')).toContain("  body: await readFile('photo.png'),");
  });
});

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

describe('curl examples of a JSON API against a recording server', () => {
  const requests: Recorded[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.end('{}');
    });
  });
  let origin = '';
  let workDir = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    workDir = await mkdtemp(join(tmpdir(), 'docs-any-curl-'));
    await writeFile(join(workDir, 'photo.png'), 'PNG bytes');
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(workDir, { recursive: true, force: true });
  });

  async function send(operation: Operation): Promise<Recorded> {
    const command = curlExample(operation, operation.basePath, model).replace(EXAMPLE_ORIGIN, origin);
    requests.length = 0;
    await run('sh', ['-c', command], { cwd: workDir, env: { ...process.env, API_KEY: 'k3y', TOKEN: 't0k' } });
    const [recorded] = requests;
    if (recorded === undefined) throw new Error('no request arrived');
    return recorded;
  }

  it('sends a JSON body, headers, cookies, styled query and a bearer token', async () => {
    const request = await send(createPet);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v2/pets?tags=a%7Cb');
    expect(request.headers.authorization).toBe('Bearer t0k');
    expect(request.headers['x-request-id']).toBe('r-1');
    expect(request.headers.cookie).toBe('session=abc');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({ kind: 'cat', name: "Tom's" });
  });

  it('sends API keys in a header and a cookie together', async () => {
    const request = await send(getTree);
    expect(request.method).toBe('GET');
    expect(request.headers['x-api-key']).toBe('k3y');
    expect(request.headers.cookie).toBe('sid=k3y');
  });

  it('sends a binary body with its media type and Basic credentials', async () => {
    const request = await send(putPhoto);
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/v2/pets/3/photo');
    expect(request.headers['content-type']).toBe('image/png');
    expect(request.headers.authorization).toMatch(/^Basic /);
    expect(request.body.toString('utf8')).toBe('PNG bytes');
  });
});
