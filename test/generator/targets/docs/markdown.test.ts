import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiModel,
  Names,
  Operation,
  Parameter,
  Property,
  Schema,
} from '../../../../generator/model/types.js';
import { curlExample } from '../../../../generator/targets/docs/curl.js';
import { EXAMPLE_ORIGIN } from '../../../../generator/targets/docs/examples.js';
import { renderMarkdown } from '../../../../generator/targets/docs/index.js';
import { escapeCell, inlineCode } from '../../../../generator/targets/docs/markdown.js';
import { typeExpression } from '../../../../generator/targets/docs/type-expression.js';
import type { TargetContext } from '../../../../generator/targets/types.js';
import { DEFAULT_TARGET_OPTIONS } from '../../../../generator/config.js';

const run = promisify(execFile);

// A hand-built model: no YAML is read, so these tests pin the target alone.

function names(file: string): Names {
  const camel = file.replace(/[-_]([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return { camel, pascal: camel.charAt(0).toUpperCase() + camel.slice(1), file };
}

const integer: Schema = { kind: 'integer' };
const string: Schema = { kind: 'string' };
const boolean: Schema = { kind: 'boolean' };

function prop(name: string, schema: Schema, required = true): Property {
  return { name, names: names(name), required, schema };
}

function object(properties: Property[]): Schema {
  return { kind: 'object', properties, additionalProperties: true };
}

function param(
  name: string,
  location: Parameter['location'],
  schema: Schema,
  extra: Partial<Parameter> = {},
): Parameter {
  return {
    name,
    names: names(name),
    location,
    encoding: 'plain',
    required: false,
    schema,
    description: '',
    source: { file: 'spec/paths/x.yaml' },
    changes: [],
    deprecated: false,
    unspecified: [],
    ...extra,
  };
}

const envelope: Property[] = [
  prop('result', { kind: 'string', const: 'success' }),
  prop('msg', string),
  prop(
    'ignored_parameters_unsupported',
    { kind: 'array', items: string, featureLevel: 167, description: 'Parameters the operation does not take.' },
    false,
  ),
];

function operation(
  id: string,
  method: Operation['method'],
  path: string,
  extra: Partial<Operation> = {},
): Operation {
  return {
    id,
    names: names(id),
    method,
    path,
    summary: id,
    description: `The ${id} operation.`,
    tags: ['messages'],
    auth: true,
    security: [['basicAuth']],
    basePath: '/api/v1',
    parameters: [],
    body: method === 'get' ? 'none' : 'form',
    success: { status: 200, description: 'Success.', schema: object(envelope), examples: [], contents: [], headers: [] },
    successes: [],
    errors: [{ status: 401, description: 'Missing or wrong credentials.', codes: ['UNAUTHORIZED'], examples: [], contents: [], headers: [] }],
    requestExamples: [],
    source: { file: 'spec/paths/x.yaml' },
    changes: [],
    deprecated: false,
    unspecified: [],
    ...extra,
  };
}

const retentionDays: Schema = {
  kind: 'union',
  variants: [{ kind: 'string', enum: ['realm_default', 'unlimited'] }, integer],
};

const updateStream = operation('update-stream', 'patch', '/streams/{stream_id}', {
  summary: 'Update a channel',
  tags: ['channels'],
  featureLevel: 1,
  changes: [{ level: 333, change: '`stream_post_policy` and\n`is_announcement_only` removed.\n' }],
  unspecified: ['The response beyond\nthe envelope.\n'],
  parameters: [
    param('stream_id', 'path', integer, { required: true, description: 'The channel.' }),
    param('description', 'body', { kind: 'string', maxLength: 1024 }, { description: 'Markdown | may\nspan lines.' }),
    param('folder_id', 'body', { kind: 'union', variants: [integer, { kind: 'null' }] }, {
      encoding: 'json',
      featureLevel: 389,
      description: 'New folder; null removes the channel from its folder.',
    }),
    param('can_add_subscribers_group', 'body', { kind: 'ref', name: 'GroupSettingValue' }, {
      encoding: 'json',
      featureLevel: 342,
    }),
    param('message_retention_days', 'body', retentionDays, {
      encoding: 'json',
      featureLevel: 17,
      changes: [{ level: 91, change: '`forever` renamed `unlimited`.' }],
    }),
    param('is_private', 'body', boolean, { deprecated: true, unspecified: ['What an archived channel does.'] }),
  ],
  errors: [
    {
      status: 400,
      description: 'A parameter is invalid.',
      codes: ['BAD_REQUEST'],
      examples: [
        {
          name: 'invalid-folder',
          summary: 'Invalid channel folder ID',
          value: { result: 'error', msg: 'Invalid channel folder ID', code: 'BAD_REQUEST' },
        },
      ],
      contents: [],
      headers: [],
    },
    { status: 401, description: 'Missing or wrong credentials.', codes: ['UNAUTHORIZED'], examples: [], contents: [], headers: [] },
  ],
  requestExamples: [
    {
      name: 'move',
      summary: 'Move to a folder',
      value: {
        stream_id: 2,
        description: `It's the "engineering" channel & more\nsecond line | $HOME`,
        folder_id: null,
        can_add_subscribers_group: { new: { direct_members: [5], direct_subgroups: [9] } },
        message_retention_days: 'unlimited',
        is_private: false,
      },
    },
  ],
});

const reaction: Schema = object([prop('emoji_name', string), prop('user_id', integer)]);
const message: Schema = object([
  prop('id', integer),
  prop('avatar_url', { kind: 'union', variants: [string, { kind: 'null' }] }),
  prop('reactions', { kind: 'array', items: { kind: 'ref', name: 'Reaction' } }),
  prop('last_moved_timestamp', { ...integer, featureLevel: 365 }, false),
  prop('replies', { kind: 'array', items: { kind: 'ref', name: 'Message' } }, false),
]);

const getMessage = operation('get-message', 'get', '/messages/{message_id}', {
  summary: 'Fetch a single message',
  featureLevel: 120,
  parameters: [
    param('message_id', 'path', integer, { required: true }),
    param('apply_markdown', 'query', boolean, { default: true, featureLevel: 120 }),
    param('narrow', 'query', { kind: 'array', items: string }, { encoding: 'json' }),
  ],
  success: {
    status: 200,
    description: 'The message.',
    contents: [],
    headers: [],
    schema: object([
      ...envelope,
      prop('message', { kind: 'ref', name: 'Message' }),
      prop('raw_content', { kind: 'string', deprecated: true, changes: [{ level: 120, change: 'Deprecated.' }] }),
    ]),
    examples: [{ name: 'ok', summary: 'A message', value: { result: 'success', msg: '', raw_content: 'hi' } }],
  },
  requestExamples: [{ name: 'raw', summary: 'Raw', value: { message_id: 101, apply_markdown: false, narrow: ['a b', 'c&d'] } }],
});

const upload = operation('upload-file', 'post', '/user_uploads', {
  summary: 'Upload a file',
  tags: ['uploads'],
  body: 'multipart',
  featureLevel: 272,
  parameters: [param('file', 'body', { kind: 'string', format: 'binary' }, { encoding: 'file', required: true })],
  requestExamples: [{ name: 'pdf', summary: 'A PDF', value: { file: '(contents of release-notes.pdf)' } }],
});

const fetchApiKey = operation('fetch-api-key', 'post', '/fetch_api_key', {
  summary: 'Fetch an API key [legacy]',
  tags: ['authentication'],
  auth: false,
  security: [],
  parameters: [param('username', 'body', string, { required: true }), param('password', 'body', string, { required: true })],
  errors: [],
  requestExamples: [{ name: 'login', summary: 'Login', value: { username: 'owner@example.com', password: 'demo1234' } }],
});

const model: ApiModel = {
  securitySchemes: [{ name: 'basicAuth', names: { camel: 'basicAuth', pascal: 'BasicAuth', file: 'basic-auth' }, description: '', kind: 'basic', source: { file: 'spec/test.yaml' } }],
  conventions: { successEnvelope: true, bodyCodedErrors: true, featureLevels: true },
  title: 'Team Chat API',
  version: '1.0.0',
  description: 'A test model.',
  basePath: '/api/v1',
  maxFeatureLevel: 389,
  operations: [fetchApiKey, getMessage, updateStream, upload],
  schemas: [
    {
      name: 'GroupSettingValue',
      names: names('GroupSettingValue'),
      schema: object([prop('new', { kind: 'union', variants: [integer, object([])] }), prop('old', integer, false)]),
    },
    { name: 'Message', names: names('Message'), schema: message },
    { name: 'Reaction', names: names('Reaction'), schema: reaction },
  ],
  errors: [
    { code: 'BAD_REQUEST', status: 400, schemaName: 'BadRequestError', description: 'General request failure.', extraFields: [] },
    {
      code: 'UNAUTHORIZED',
      status: 401,
      schemaName: 'UnauthorizedError',
      description: 'Missing or wrong credentials.',
      extraFields: [prop('stream_id', integer)],
    },
  ],
  tags: [
    { name: 'authentication', description: 'API keys.' },
    { name: 'channels', description: 'Channels.' },
    { name: 'messages', description: 'Messages.' },
  ],
  unspecified: [],
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

function page(path: string): string {
  const file = renderMarkdown(context()).find((candidate) => candidate.path === `generated/docs/${path}`);
  if (file === undefined) throw new Error(`no ${path}`);
  return file.contents;
}

describe('typeExpression', () => {
  const cases: [string, { given: Schema; want: string }][] = [
    ['integer', { given: integer, want: 'integer' }],
    ['string array', { given: { kind: 'array', items: string }, want: 'string[]' }],
    ['nullable', { given: { kind: 'union', variants: [integer, { kind: 'null' }] }, want: 'integer | null' }],
    ['named', { given: { kind: 'ref', name: 'GroupSettingValue' }, want: 'GroupSettingValue' }],
    ['resolved named', { given: { ...string, refName: 'ReactionType' }, want: 'ReactionType' }],
    ['enum', { given: { kind: 'string', enum: ['add', 'remove'] }, want: '"add" | "remove"' }],
    ['array of union', { given: { kind: 'array', items: retentionDays }, want: '("realm_default" | "unlimited" | integer)[]' }],
    ['tuple', { given: { kind: 'array', prefixItems: [string, string, boolean] }, want: '[string, string, boolean]' }],
    ['map', { given: { kind: 'object', properties: [], additionalProperties: integer }, want: 'Record<string, integer>' }],
    ['file', { given: { kind: 'string', format: 'binary' }, want: 'file' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(typeExpression(given)).toBe(want));
});

describe('escapeCell', () => {
  const cases: [string, { given: string; want: string }][] = [
    ['pipe', { given: 'a | b', want: 'a \\| b' }],
    ['pipe in code', { given: '`integer | null`', want: '`integer \\| null`' }],
    ['line break', { given: 'one\ntwo', want: 'one two' }],
    ['paragraphs', { given: 'one\r\n\r\ntwo\n', want: 'one<br>two' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(escapeCell(given)).toBe(want));

  it('code spans survive backticks', () => {
    expect(inlineCode('a`b')).toBe('``a`b``');
  });
});

describe('operation page', () => {
  const text = page('reference/update-stream.md');

  it('starts with the banner and states method, full path and auth', () => {
    expect(text.startsWith('<!-- Generated by teamchat from the OpenAPI document "Team Chat API 1.0.0".')).toBe(true);
    expect(text).toContain('`npm run generate`. -->\n\n# Update a channel\n');
    expect(text).toContain('`PATCH /api/v1/streams/{stream_id}`');
    expect(text).toContain('| Authentication | HTTP Basic');
  });

  it('has one row per parameter with type, encoding, location and level', () => {
    expect(text).toContain('| `stream_id` | `integer` | yes |  | plain | path |  | The channel. |');
    expect(text).toContain('| `description` | `string` | no |  | plain | body |  | Markdown \\| may span lines.<br>At most 1024 code points. |');
    expect(text).toContain('| `folder_id` | `integer \\| null` | no |  | JSON | body | 389 |');
    expect(text).toContain('| `can_add_subscribers_group` | `GroupSettingValue` | no |  | JSON | body | 342 |');
    expect(text).toContain('| `is_private` | `boolean` | no |  | plain | body |  | **Deprecated.**<br>Not specified: What an archived channel does. |');
  });

  it('defines the named types its parameters use', () => {
    expect(text).toContain(
      '### GroupSettingValue\n\nAn object with these fields:\n\n| Field | Type | Presence | Feature level | Notes |\n|---|---|---|---|---|\n' +
        '| `new` | `integer \\| object` | always present |  |  |\n| `old` | `integer` | may be absent |  |  |\n',
    );
  });

  it('lists errors with status, code, extra fields and example bodies', () => {
    expect(text).toContain('| 400 | `BAD_REQUEST` |  | General request failure. |');
    expect(text).toContain('| 401 | `UNAUTHORIZED` | `stream_id`: `integer` |');
    expect(text).toContain('### 400: Invalid channel folder ID');
    expect(text).toContain('"msg": "Invalid channel folder ID"');
  });

  it('has curl and client examples built from the request example', () => {
    expect(text).toContain(`curl -sS -X PATCH '${EXAMPLE_ORIGIN}/api/v1/streams/2' \\\n  -u owner@example.com:$API_KEY`);
    expect(text).toContain(`--data-urlencode 'folder_id=null'`);
    expect(text).toContain(`--data-urlencode 'message_retention_days="unlimited"'`);
    expect(text).toContain('const client = createClient({');
    expect(text).toContain('await client.updateStream({\n  stream_id: 2,');
    expect(text).toContain('  folder_id: null,\n');
    expect(text).toContain("    direct_members: [5],\n");
  });

  it('folds multi-line notes into one list item', () => {
    expect(text).toContain('## Not specified\n\n- The response beyond the envelope.\n\n## Parameters');
  });

  it('lists changes newest first', () => {
    const levels = [...text.matchAll(/^### Feature level (\d+)$/gm)].map((match) => Number(match[1]));
    expect(levels).toEqual([389, 342, 333, 167, 91, 17, 1]);
    expect(text).toContain('### Feature level 91\n\n- Parameter `message_retention_days`: `forever` renamed `unlimited`.');
    expect(text).toContain('- Operation: `stream_post_policy` and `is_announcement_only` removed.');
  });

  it('flattens response fields with dotted paths, presence and nullability', () => {
    const get = page('reference/get-message.md');
    expect(get).toContain('| `message.id` | `integer` | always present |');
    expect(get).toContain('| `message.avatar_url` | `string \\| null` | always present, nullable |');
    expect(get).toContain('| `message.reactions[].emoji_name` | `string` | always present |');
    expect(get).toContain('| `message.last_moved_timestamp` | `integer` | may be absent | 365 |');
    expect(get).toContain('| `raw_content` | `string` | always present |  | **Deprecated.** |');
    // A recursive schema is entered once.
    expect(get).toContain('| `message.replies` | `Message[]` | may be absent |');
    expect(get).not.toContain('message.replies[].id');
  });

  it('uses -G for GET, no credentials without auth and -F for uploads', () => {
    expect(page('reference/get-message.md')).toContain(`curl -sS -G '${EXAMPLE_ORIGIN}/api/v1/messages/101'`);
    const login = page('reference/fetch-api-key.md');
    expect(login).toContain('| Authentication | None. |');
    expect(login).not.toContain('-u owner@example.com');
    expect(login).toContain('With curl:\n');
    expect(login).toContain('## Errors\n\nNo error responses are documented.\n');
    const uploadPage = page('reference/upload-file.md');
    expect(uploadPage).toContain(`-F 'file=@release-notes.pdf'`);
    expect(uploadPage).toContain("import { readFile } from 'node:fs/promises';");
    expect(uploadPage).toContain("file: { filename: 'release-notes.pdf', data: await readFile('release-notes.pdf') },");
  });
});

describe('changelog and index', () => {
  it('groups every change by level, newest first, linking operation pages', () => {
    const text = page('changelog.md');
    const levels = [...text.matchAll(/^## Feature level (\d+)$/gm)].map((match) => Number(match[1]));
    expect(levels).toEqual([389, 365, 342, 333, 272, 167, 120, 91, 17, 1]);
    expect(text).toContain('- [Update a channel](reference/update-stream.md), parameter `folder_id`: Added.');
    expect(text).toContain('- [Fetch a single message](reference/get-message.md), response field `message.last_moved_timestamp`: Added.');
    // The envelope field every operation shares is one entry.
    expect(text).toContain('## Feature level 167\n\n- Every operation, response field `ignored_parameters_unsupported`: Added.\n\n');
    // Level 120: the operation, then its parameter, then its field, in page order.
    const level120 = text.slice(text.indexOf('## Feature level 120'), text.indexOf('## Feature level 91'));
    expect(level120.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- [Fetch a single message](reference/get-message.md), operation: Added.',
      '- [Fetch a single message](reference/get-message.md), parameter `apply_markdown`: Added.',
      '- [Fetch a single message](reference/get-message.md), response field `raw_content`: Deprecated.',
    ]);
  });

  it('indexes operations by tag and links the changelog and the Redocly page', () => {
    const text = page('index.md');
    expect(text).toContain('[Interactive reference](index.html)');
    expect(text).toContain('[Changelog](changelog.md)');
    expect(text).toContain('| [Fetch an API key \\[legacy\\]](reference/fetch-api-key.md) | `POST /api/v1/fetch_api_key` |');
    expect(text.indexOf('### channels')).toBeLessThan(text.indexOf('### messages'));
    // A tag the document does not declare lands under "other".
    expect(text).toContain('### other\n\n| Operation | Request |\n|---|---|\n| [Upload a file](reference/upload-file.md)');
  });

  it('writes one page per operation plus changelog and index, identically on every run', () => {
    const first = renderMarkdown(context());
    expect(first.map((file) => file.path)).toEqual([
      'generated/docs/reference/fetch-api-key.md',
      'generated/docs/reference/get-message.md',
      'generated/docs/reference/update-stream.md',
      'generated/docs/reference/upload-file.md',
      'generated/docs/changelog.md',
      'generated/docs/index.md',
    ]);
    expect(renderMarkdown(context())).toEqual(first);
    for (const file of first) {
      expect(file.contents.endsWith('\n')).toBe(true);
      expect(file.contents).not.toMatch(/\n\n\n|[ \t]+\n/);
    }
  });
});

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

describe('curl examples against a recording server', () => {
  const requests: Recorded[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.setHeader('content-type', 'application/json');
      response.end('{"result":"success","msg":""}');
    });
  });
  let origin = '';
  let workDir = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    workDir = await mkdtemp(join(tmpdir(), 'docs-curl-'));
    await writeFile(join(workDir, 'release-notes.pdf'), '%PDF-1.4 test');
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(workDir, { recursive: true, force: true });
  });

  async function send(operation: Operation): Promise<Recorded> {
    const command = curlExample(operation, model.basePath).replace(EXAMPLE_ORIGIN, origin);
    requests.length = 0;
    await run('sh', ['-c', command], { cwd: workDir, env: { ...process.env, API_KEY: 'k3y' } });
    const [recorded] = requests;
    if (recorded === undefined) throw new Error('no request arrived');
    return recorded;
  }

  const basic = `Basic ${Buffer.from('owner@example.com:k3y').toString('base64')}`;

  it('sends form fields, JSON text for json-encoded ones, and credentials', async () => {
    const request = await send(updateStream);
    expect(request.method).toBe('PATCH');
    expect(request.url).toBe('/api/v1/streams/2');
    expect(request.headers.authorization).toBe(basic);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = Object.fromEntries(new URLSearchParams(request.body.toString('utf8')));
    expect(form).toEqual({
      description: `It's the "engineering" channel & more\nsecond line | $HOME`,
      folder_id: 'null',
      can_add_subscribers_group: '{"new":{"direct_members":[5],"direct_subgroups":[9]}}',
      message_retention_days: '"unlimited"',
      is_private: 'false',
    });
  });

  it('sends GET parameters in the query string', async () => {
    const request = await send(getMessage);
    expect(request.method).toBe('GET');
    const url = new URL(request.url, origin);
    expect(url.pathname).toBe('/api/v1/messages/101');
    expect(Object.fromEntries(url.searchParams)).toEqual({ apply_markdown: 'false', narrow: '["a b","c&d"]' });
    expect(request.body.length).toBe(0);
  });

  it('sends a file as multipart and no credentials where none are needed', async () => {
    const request = await send(upload);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = request.body.toString('utf8');
    expect(body).toContain('name="file"; filename="release-notes.pdf"');
    expect(body).toContain('%PDF-1.4 test');

    const login = await send(fetchApiKey);
    expect(login.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(login.body.toString('utf8')))).toEqual({
      username: 'owner@example.com',
      password: 'demo1234',
    });
  });
});
