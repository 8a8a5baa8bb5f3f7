/**
 * Near-miss documents (test/fixtures/generator/near-miss/, one document per
 * shape; docs/decisions/0006-input-dialects.md): each generates with every
 * target and a note naming file and line, the output type-checks, and the
 * model reads the shape as it plainly means. A null whose meaning is not
 * plain still stops the run with file and line. A security requirement
 * named up to case reaches the wire: the generated client sends its
 * credentials to a real local server.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../generator/cli/pipeline.js';
import { SpecError } from '../../../generator/load/errors.js';
import type { ApiModel, ObjectSchema, Operation, Schema } from '../../../generator/model/types.js';
import { targets } from '../../../generator/targets/index.js';
import { repoRoot } from '../../support/process.js';
import { typeCheck } from '../../support/type-check.js';
import { config, fixtureModel, FIXTURES } from '../../support/generator.js';

/** Each shape's fixture and the notes it must give, in order (`spec/openapi.yaml:<line>: ...`). */
const SHAPES: [string, string[]][] = [
  [
    'schema-null',
    [
      'spec/openapi.yaml:10: `schema` is null: read as a schema that accepts any value',
      'spec/openapi.yaml:21: the schema of `meta` is null: read as a schema that accepts any value',
      'spec/openapi.yaml:22: `items` is null: read as a schema that accepts any value',
    ],
  ],
  [
    'required-flag',
    [
      "spec/openapi.yaml:18: `required: true` on a property (the OpenAPI 2.0 form): read as the property being listed in its object's `required`",
      'spec/openapi.yaml:21: `required: false` on a property (the OpenAPI 2.0 form): properties are optional unless listed in `required`; ignored',
    ],
  ],
  ['nullable-31', ['spec/openapi.yaml:18: `nullable` is an OpenAPI 3.0 keyword that 3.1 does not have: read as in 3.0 (`nullable: true` allows null) (and 2 more places)']],
  ['enum-not-list', ['spec/openapi.yaml:15: `enum` is not a list: it is ignored, so the values are not limited']],
  [
    'parameter-without-schema',
    [
      'spec/openapi.yaml:8: parameter `limit` has no `schema` but the OpenAPI 2.0 keywords `type`, `minimum`: read as its `schema`',
      'spec/openapi.yaml:12: parameter `q` has neither `schema` nor `content`: read as taking any value',
    ],
  ],
  [
    'examples-shapes',
    [
      'spec/openapi.yaml:14: `examples` is a list of values; OpenAPI wants a map of Example Objects: read as examples named `example-1`, `example-2`, ...',
      'spec/openapi.yaml:30: example `one` is a bare value, not an Example Object: read as its `value`',
    ],
  ],
  ['openapi30-type-list', ['spec/openapi.yaml:17: `type` is a list, which OpenAPI 3.0 does not allow: read as in 3.1 (a value of any of those types)']],
  ['openapi30-array-without-items', ['spec/openapi.yaml:16: `type: array` without `items`, which OpenAPI 3.0 requires: items of any type']],
  ['openapi30-ref-siblings', ['spec/openapi.yaml:15: keywords beside a `$ref` (`maxLength`) are ignored, as OpenAPI 3.0 says']],
  ['security-case', ['spec/openapi.yaml:6: security requirement names `basicAuth`, which `components.securitySchemes` declares as `BasicAuth`: read as `BasicAuth`']],
  [
    'security-case-ambiguous',
    [
      'spec/openapi.yaml:4: security requirement names `apikey`, which matches `APIKEY` and `ApiKey` only up to case: read as either of them (one alternative each), never one chosen for you; rename it to the one you mean',
    ],
  ],
];

const NEAR_MISS = join(FIXTURES, 'near-miss');
const roots: string[] = [];
const outputs = new Map<string, { reports: string[]; out: string }>();

/** Generates every target of one fixture in a project under test/artifacts (so generated imports resolve). */
async function generateFixture(fixture: string): Promise<{ reports: string[]; out: string }> {
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, `near-miss-${fixture}-`));
  roots.push(root);
  cpSync(join(NEAR_MISS, fixture), join(root, 'spec'), { recursive: true });
  const result = await generate(config(root, {}, targets.map((t) => t.name)), targets);
  return { reports: result.reports, out: join(root, 'generated') };
}

beforeAll(async () => {
  for (const [fixture] of SHAPES) outputs.set(fixture, await generateFixture(fixture));
}, 600_000);

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('near-miss documents generate with a note giving file and line', () => {
  it('has a fixture for every shape, and a case for every fixture', () => {
    const fixtures = readdirSync(NEAR_MISS).filter((name) => name !== 'schema-null-in-union').sort();
    expect(SHAPES.map(([name]) => name).sort()).toEqual(fixtures);
  });

  it.each(SHAPES)('%s', (fixture, notes) => {
    const { reports } = outputs.get(fixture)!;
    expect(reports.filter((line) => line.startsWith('spec/openapi.yaml:'))).toEqual(notes);
  });

  it('the output of every fixture type-checks (strict, noUncheckedIndexedAccess)', () => {
    const files = [...outputs.values()].flatMap(({ out }) => ['types.ts', 'validators.ts', 'client.ts', 'server.ts', 'mock-handlers.ts', 'handlers.ts'].map((file) => join(out, file)));
    expect(typeCheck(files).join('\n')).toBe('');
  }, 240_000);
});

const op = (model: ApiModel, id: string): Operation => model.operations.find((o) => o.id === id)!;
const field = (schema: Schema, name: string) => (schema as ObjectSchema).properties.find((p) => p.name === name)!;

describe('the model reads each shape as it plainly means', () => {
  it('schema: null accepts any value; a required property list is kept', async () => {
    const model = await fixtureModel('near-miss/schema-null');
    const operation = op(model, 'create-entry');
    expect(operation.requestBody?.contents[0]?.schema).toMatchObject({ kind: 'any' });
    const response = operation.success.contents[0]!.schema;
    expect(field(response, 'meta').schema.kind).toBe('any');
    expect(field(response, 'tags').schema).toMatchObject({ kind: 'array', items: { kind: 'any' } });
  });

  it('required: true makes the property required; required: false leaves it optional', async () => {
    const model = await fixtureModel('near-miss/required-flag');
    const body = op(model, 'add-pet').requestBody!.contents[0]!.schema;
    expect((body as ObjectSchema).properties.map((p) => [p.name, p.required])).toEqual([
      ['kind', true],
      ['name', true],
      ['nickname', false],
    ]);
  });

  it('nullable: true in 3.1 allows null, also beside a $ref', async () => {
    const model = await fixtureModel('near-miss/nullable-31');
    const response = op(model, 'list-pages').success.contents[0]!.schema;
    for (const name of ['next', 'previous', 'owner']) {
      const schema = field(response, name).schema;
      expect(schema.kind, name).toBe('union');
      expect((schema as { variants: Schema[] }).variants.map((v) => v.kind), name).toContain('null');
    }
  });

  it('an enum that is not a list limits nothing', async () => {
    const model = await fixtureModel('near-miss/enum-not-list');
    const status = field(op(model, 'set-status').requestBody!.contents[0]!.schema, 'status').schema;
    expect(status).toMatchObject({ kind: 'string' });
    expect(status).not.toHaveProperty('enum');
    expect(status).not.toHaveProperty('const');
  });

  it('2.0 parameter keywords become its schema; a parameter with none takes any value', async () => {
    const model = await fixtureModel('near-miss/parameter-without-schema');
    const parameters = op(model, 'search').parameters;
    expect(parameters.find((p) => p.name === 'limit')!.schema).toMatchObject({ kind: 'integer', minimum: 1 });
    expect(parameters.find((p) => p.name === 'q')).toMatchObject({ required: true, schema: { kind: 'any' } });
  });

  it('examples as a list or as bare values become named examples', async () => {
    const model = await fixtureModel('near-miss/examples-shapes');
    const operation = op(model, 'add-note');
    expect(operation.requestBody!.contents[0]!.examples.map((e) => [e.name, e.value])).toEqual([
      ['example-1', { text: 'first' }],
      ['example-2', { text: 'second' }],
    ]);
    expect(operation.success.contents[0]!.examples.map((e) => [e.name, e.value])).toEqual([
      ['one', { id: 1 }],
      ['two', { id: 2 }],
    ]);
    // A schema whose properties are named like a parameter's keys is a schema, left alone.
    expect(field(operation.success.contents[0]!.schema, 'examples').schema).toMatchObject({ kind: 'array', items: { kind: 'string' } });
  });

  it('3.0: a type list is a union; an array without items takes any items; constraints beside a $ref are not applied', async () => {
    const label = field((await fixtureModel('near-miss/openapi30-type-list')).operations[0]!.success.contents[0]!.schema, 'label').schema;
    expect((label as { variants: Schema[] }).variants.map((v) => v.kind).sort()).toEqual(['null', 'string']);
    const things = field((await fixtureModel('near-miss/openapi30-array-without-items')).operations[0]!.success.contents[0]!.schema, 'things').schema;
    expect(things).toMatchObject({ kind: 'array', items: { kind: 'any' } });
    const nick = field((await fixtureModel('near-miss/openapi30-ref-siblings')).operations[0]!.requestBody!.contents[0]!.schema, 'nick').schema;
    expect(nick).toMatchObject({ kind: 'ref', name: 'Name' });
  });

  it('a requirement named up to case resolves to the declared scheme; two such schemes become two alternatives', async () => {
    expect(op(await fixtureModel('near-miss/security-case'), 'get-own-user')).toMatchObject({ security: [['BasicAuth']], auth: true });
    expect(op(await fixtureModel('near-miss/security-case-ambiguous'), 'list-things')).toMatchObject({ security: [['APIKEY'], ['ApiKey']], auth: true });
  });

  it('a null whose meaning is not plain (an anyOf member) still stops the run with file and line', async () => {
    const error = await fixtureModel('near-miss/schema-null-in-union').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).message).toMatch(/^test\/fixtures\/generator\/near-miss\/schema-null-in-union\/openapi\.yaml:13: a schema must be an object or a boolean, not null/);
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
describe('credentials of a requirement named up to case reach the server', () => {
  const seen: IncomingMessage[] = [];
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ email: 'member@example.com' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const load = async (fixture: string): Promise<Record<string, any>> => import(pathToFileURL(join(outputs.get(fixture)!.out, 'client.ts')).href);

  it('`basicAuth` for the declared `BasicAuth`: the generated client sends the Authorization header', async () => {
    const client = await load('security-case');
    seen.length = 0;
    const body = await client.createClient({ baseUrl, auth: { BasicAuth: { username: 'member@example.com', password: 'k3y' } } }).getOwnUser();
    expect(body).toEqual({ email: 'member@example.com' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/api/v1/users/me');
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('member@example.com:k3y').toString('base64')}`);
  });

  it('two schemes equal up to case: whichever credential is given is sent, as that scheme says', async () => {
    const client = await load('security-case-ambiguous');
    seen.length = 0;
    await client.createClient({ baseUrl, auth: { ApiKey: 'header-key' } }).listThings();
    await client.createClient({ baseUrl, auth: { APIKEY: 'query-key' } }).listThings();
    expect(seen.map((r) => [r.headers['x-api-key'], new URL(r.url!, baseUrl).searchParams.get('api_key')])).toEqual([
      ['header-key', null],
      [undefined, 'query-key'],
    ]);
  });
});
