/**
 * The request-body and response fixtures (test/fixtures/operations/bodies-*
 * and responses-*, one small document per family): what the model makes of
 * them, golden types and validators (type-checked by `npm run lint` under
 * strict and noUncheckedIndexedAccess), every target generating, and the
 * generated checks agreeing with ajv on every example the documents give for
 * a response body or a whole request body.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../generator/cli/pipeline.js';
import { loadSpec, type LoadedSpec } from '../../../../generator/load/index.js';
import { isRecord } from '../../../../generator/load/walk.js';
import { buildModel } from '../../../../generator/model/build.js';
import type { ApiModel, Operation } from '../../../../generator/model/types.js';
import { targets } from '../../../../generator/targets/index.js';
import { renderValidators } from '../../../../generator/targets/validators/index.js';
import { curlExample } from '../../../../generator/targets/docs/curl.js';
import { loadGenerated, removeWritten, TEMPLATES_DIR, type GeneratedValidators } from '../../../fixtures/validators/load.js';
import { repoRoot } from '../../../support/process.js';
import { expectGoldenValidatorsAndTypes } from '../../../support/goldens.js';
import { config } from '../../../support/generator.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/operations');
const FAMILIES = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((e) => e.isDirectory() && /^(bodies|responses)-/.test(e.name))
  .map((e) => e.name)
  .sort();
const DOC = 'https://teamchat.test/operations.json';

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
type Validate = (operation: string, status: number, mediaType: string | undefined, body: unknown) => { path: string; message: string }[] | undefined;
type Decode = (raw: Record<string, unknown>) => { ok: boolean; value?: Record<string, unknown>; error?: { rule: string; parameter: string } };

interface Family {
  loaded: LoadedSpec;
  model: ApiModel;
  generated: GeneratedValidators;
  ajv: Ajv2020;
}

const families = new Map<string, Family>();
const artifacts = join(repoRoot, 'test/artifacts');
let scratch: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  scratch = mkdtempSync(join(artifacts, 'operations-bodies-'));
  for (const name of FAMILIES) {
    const loaded = await loadSpec(join(FIXTURES, name, 'openapi.yaml'), ROOT);
    const model = buildModel(loaded);
    const generated = await loadGenerated(model);
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ ...structuredClone(loaded.document), $id: DOC });
    families.set(name, { loaded, model, generated, ajv });
  }
}, 120_000);

afterAll(() => {
  removeWritten();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

const family = (name: string): Family => families.get(name)!;
const operation = (name: string, id: string): Operation => family(name).model.operations.find((o) => o.id === id)!;

/** ajv's verdict on a schema written somewhere in the document (its internal refs resolved against the document). */
function ajvAccepts(ajv: Ajv2020, schema: unknown, value: unknown): boolean {
  const text = JSON.stringify(schema ?? {}).replace(/"\$ref":"#\//g, `"$ref":"${DOC}#/`);
  return ajv.validate(JSON.parse(text) as object, value);
}

/** The raw media type object of a response or request body, `$ref`s followed. */
function rawMedia(document: Record<string, unknown>, op: Operation, where: 'requestBody' | string, mediaType: string): Record<string, unknown> {
  const deref = (node: unknown): unknown => {
    let current = node;
    while (isRecord(current) && typeof current.$ref === 'string') {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((n, key) => (isRecord(n) ? n[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document);
    }
    return current;
  };
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  const node = paths[op.path]![op.method]!;
  const owner = where === 'requestBody' ? deref(node.requestBody) : deref((node.responses as Record<string, unknown>)[where]);
  const content = (owner as { content: Record<string, unknown> }).content;
  const key = Object.keys(content).find((k) => k.toLowerCase() === mediaType)!;
  return deref(content[key]) as Record<string, unknown>;
}

describe.each(FAMILIES)('operations family %s', (name) => {
  it('generates golden validators and types', () => expectGoldenValidatorsAndTypes(family(name).model, join(FIXTURES, name, 'golden')));

  it('generates every target without warnings', async () => {
    const root = join(scratch, name);
    mkdirSync(join(root, 'spec'), { recursive: true });
    cpSync(join(FIXTURES, name, 'openapi.yaml'), join(root, 'spec/openapi.yaml'));
    const names = targets.map((t) => t.name);
    // Named, so the targets that run only when named (query) run too.
    const result = await generate(config(root, { only: names.join(',') }, names), targets);
    expect(result.targets.map((t) => t.name)).toEqual(names);
    expect(family(name).model.warnings).toEqual([]);
  }, 120_000);

  it('accepts every response example ajv accepts, and only those', () => {
    const { model, generated, ajv, loaded } = family(name);
    const validate = generated.validateResponse as Validate;
    let seen = 0;
    for (const op of model.operations) {
      for (const response of [...op.successes, ...op.errors]) {
        if ('synthetic' in response && response.synthetic) continue;
        const key = response.statusText ?? String(response.status);
        const status = response.status === 0 ? 599 : response.status;
        for (const content of response.contents) {
          const media = rawMedia(loaded.document, op, key, content.mediaType);
          for (const example of content.examples) {
            seen++;
            const issues = validate(op.names.camel, status, content.mediaType, example.value);
            expect(issues, `${op.id} ${key} ${content.mediaType} ${example.name}`).toBeDefined();
            // Text and bytes are not checked (nothing to check but their type); JSON is.
            const want = content.kind === 'json' ? ajvAccepts(ajv, media.schema, example.value) : true;
            expect(issues!.length === 0, `${op.id} ${key} ${content.mediaType} ${example.name}: ${JSON.stringify(issues)}`).toBe(want);
          }
        }
      }
    }
    if (name.startsWith('responses-')) expect(seen).toBeGreaterThanOrEqual(5);
  });

  it('decodes every whole request body example ajv accepts, and refuses the others', () => {
    const { model, generated, ajv, loaded } = family(name);
    let seen = 0;
    for (const op of model.operations) {
      const body = op.requestBody;
      if (body?.mode !== 'whole') continue;
      const decode = (generated.decoders as unknown as Record<string, Decode>)[op.names.camel]!;
      const path = Object.fromEntries(op.parameters.filter((p) => p.location === 'path').map((p) => [p.name, '1']));
      for (const content of body.contents) {
        if (content.kind !== 'json' && content.kind !== 'text') continue;
        const media = rawMedia(loaded.document, op, 'requestBody', content.mediaType);
        for (const example of content.examples) {
          seen++;
          const decoded = decode({ path, query: {}, body: {}, headers: {}, cookies: {}, content: { mediaType: content.mediaType, value: example.value } });
          const want = ajvAccepts(ajv, media.schema, example.value);
          expect(decoded.ok, `${op.id} ${content.mediaType} ${example.name}: ${JSON.stringify(decoded)}`).toBe(want);
          if (decoded.ok) expect(decoded.value![body.parameterName!]).toEqual(example.value);
        }
      }
    }
    if (name === 'bodies-json') expect(seen).toBeGreaterThanOrEqual(4);
  });
});

describe('request bodies in the model', () => {
  it('JSON objects, arrays and scalars, `+json` types and optional bodies are whole bodies', () => {
    const create = operation('bodies-json', 'createPet');
    expect(create.body).toBe('json');
    expect(create.requestBody).toMatchObject({ mode: 'whole', parameterName: 'body', required: true });
    expect(create.parameters).toEqual([]);
    expect(create.requestExamples.map((e) => e.name)).toEqual(['rex', 'without-name']);
    expect(create.requestExamples[0]!.value).toEqual({ body: { name: 'Rex', tags: ['good'], age: 3 } });
    expect(operation('bodies-json', 'replacePets').requestBody?.contents[0]?.schema.kind).toBe('array');
    const patch = operation('bodies-json', 'patchPet');
    expect(patch.requestBody).toMatchObject({ mode: 'whole', required: false, contents: [{ mediaType: 'application/merge-patch+json', kind: 'json' }] });
    // A parameter is already named `body`.
    expect(operation('bodies-json', 'setWeight').requestBody?.parameterName).toBe('requestBody');
  });

  it('several media types, text, bytes and wildcards', () => {
    expect(operation('bodies-media', 'createNote').requestBody?.contents.map((c) => [c.mediaType, c.kind])).toEqual([
      ['application/json', 'json'],
      ['application/x-www-form-urlencoded', 'form'],
    ]);
    expect(operation('bodies-media', 'createNote').requestBody?.mode).toBe('whole');
    expect(operation('bodies-media', 'putNoteText').body).toBe('text');
    expect(operation('bodies-media', 'putAttachment').requestBody?.contents.map((c) => c.kind)).toEqual(['binary', 'binary']);
    expect(operation('bodies-media', 'importNotes').requestBody).toMatchObject({ required: false, contents: [{ mediaType: '*/*', kind: 'binary' }] });
  });

  it('multipart fields: files, a list of files, per-part content types', () => {
    const album = operation('bodies-multipart', 'createAlbum');
    expect(album.requestBody?.mode).toBe('fields');
    expect(album.parameters.map((p) => [p.name, p.encoding, p.required])).toEqual([
      ['title', 'plain', true],
      ['cover', 'file', true],
      ['photos', 'file', false],
      ['thumbnail', 'file', false],
      ['metadata', 'json', false],
      ['tags', 'json', false],
    ]);
    expect(album.requestBody?.contents[0]?.partContentTypes).toEqual({ cover: 'image/png, image/jpeg', metadata: 'application/json', tags: 'application/json' });
  });
});

describe('form fields by their Encoding Object', () => {
  it('lists and objects take their style (default form, exploded); JSON only by contentType; multipart defaults per part', () => {
    const wire = (id: string) => operation('bodies-form', id).parameters.map((p) => [p.name, p.encoding, p.style ?? null, p.explode ?? null]);
    expect(wire('createOrder')).toEqual([
      ['name', 'plain', null, null],
      ['tags', 'plain', 'form', true],
      ['ids', 'plain', 'form', false],
      ['words', 'plain', 'spaceDelimited', false],
      ['pipes', 'plain', 'pipeDelimited', false],
      ['filter', 'plain', 'deepObject', true],
      ['location', 'plain', 'form', true],
      ['dims', 'plain', 'form', false],
      ['meta', 'json', null, null],
      ['expand', 'plain', 'deepObject', true],
      ['note', 'plain', null, null],
      ['urgent', 'plain', null, null],
    ]);
    expect(wire('upload')).toEqual([
      ['title', 'plain', null, null],
      ['labels', 'plain', 'form', true],
      ['counts', 'plain', 'form', true],
      ['meta', 'json', null, null],
      ['items', 'json', null, true],
      ['csv', 'plain', null, null],
      ['range', 'plain', 'deepObject', true],
      ['settings', 'json', null, null],
      ['attachment', 'file', null, null],
    ]);
  });

  it('the docs\' curl examples write the fields the same way', () => {
    const withExample = (id: string, value: Record<string, unknown>): Operation => ({ ...operation('bodies-form', id), requestExamples: [{ name: 'x', summary: '', value }] });
    const order = curlExample(withExample('createOrder', { name: 'n', tags: ['a', 'b'], filter: { min: 1 }, ids: [1, 2], meta: { source: 'web' } }), '');
    for (const field of ["'tags=a'", "'tags=b'", "'filter[min]=1'", "'ids=1,2'", `'meta={"source":"web"}'`]) expect(order).toContain(`--data-urlencode ${field}`);
    const upload = curlExample(withExample('upload', { title: 't', labels: ['a', 'b'], items: [{ sku: 'x' }, { sku: 'y' }] }), '');
    for (const field of ["'labels=a'", "'labels=b'", `'items={"sku":"x"}'`, `'items={"sku":"y"}'`]) expect(upload).toContain(`--form-string ${field}`);
  });

  it('a field no style spells out travels as JSON text, with a warning naming file and line', async () => {
    const root = join(scratch, 'form-nested');
    mkdirSync(root, { recursive: true });
    const document = {
      openapi: '3.1.0',
      info: { title: 'nested', version: '1' },
      paths: {
        '/grid': {
          post: {
            operationId: 'putGrid',
            requestBody: {
              content: {
                'application/x-www-form-urlencoded': {
                  schema: { type: 'object', properties: { rows: { type: 'array', items: { type: 'array', items: { type: 'integer' } } } } },
                },
              },
            },
            responses: { '204': { description: 'ok' } },
          },
        },
      },
    };
    writeFileSync(join(root, 'openapi.json'), JSON.stringify(document, null, 2));
    const built = buildModel(await loadSpec('openapi.json', root));
    expect(built.operations[0]!.parameters.map((p) => [p.name, p.encoding])).toEqual([['rows', 'json']]);
    expect(built.warnings).toEqual([expect.stringMatching(/^openapi\.json:\d+: field `rows` holds lists or objects inside a list or object, which only `deepObject` spells out \(and not a schema that contains itself\): it is sent as JSON text$/)]);
  });
});

describe('nested deepObject form fields in the model', () => {
  const build = async (name: string, field: unknown, components: Record<string, unknown> = {}) => {
    const root = join(scratch, name);
    mkdirSync(root, { recursive: true });
    const document = {
      openapi: '3.1.0',
      info: { title: 'nested', version: '1' },
      paths: {
        '/grid': {
          post: {
            operationId: 'putGrid',
            requestBody: {
              content: {
                'application/x-www-form-urlencoded': {
                  schema: { type: 'object', properties: { rows: field } },
                  encoding: { rows: { style: 'deepObject', explode: true } },
                },
              },
            },
            responses: { '204': { description: 'ok' } },
          },
        },
      },
      components: { schemas: components },
    };
    writeFileSync(join(root, 'openapi.json'), JSON.stringify(document, null, 2));
    return buildModel(await loadSpec('openapi.json', root));
  };

  it('lists and objects nested under deepObject stay plain bracket fields, without a warning', async () => {
    const built = await build('deep-nested', { type: 'array', items: { type: 'object', properties: { cells: { type: 'array', items: { type: 'integer' } } } } });
    expect(built.operations[0]!.parameters.map((p) => [p.name, p.encoding, p.style, p.explode])).toEqual([['rows', 'plain', 'deepObject', true]]);
    expect(built.warnings).toEqual([]);
  });

  it('a schema that contains itself is still sent as JSON text, with a warning naming file and line', async () => {
    const built = await build('deep-recursive', { $ref: '#/components/schemas/Node' }, {
      Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
    });
    expect(built.operations[0]!.parameters.map((p) => [p.name, p.encoding])).toEqual([['rows', 'json']]);
    expect(built.warnings).toEqual([expect.stringMatching(/^openapi\.json:\d+: field `rows` holds lists or objects inside a list or object, which only `deepObject` spells out/)]);
  });
});

describe('responses in the model', () => {
  it('the primary success is the lowest 2xx; other successes are kept by status', () => {
    const start = operation('responses-status', 'startJob');
    expect(start.success.status).toBe(201);
    expect(start.successes.map((r) => r.status)).toEqual([201, 202]);
    expect(start.errors.map((e) => [e.status, e.codes])).toEqual([[400, []]]);
    const get = operation('responses-status', 'getJob');
    expect(get.successes.map((r) => r.statusText ?? r.status)).toEqual([200, 303, 304]);
    expect(get.successes[1]!.headers.map((h) => [h.name, h.required])).toEqual([['Location', true]]);
    // `default` beside a 2xx is an error; alone, it is the success.
    expect(get.errors.map((e) => e.statusText ?? e.status)).toEqual(['default']);
    expect(operation('responses-status', 'getJobLog').success).toMatchObject({ status: 0, statusText: 'default' });
    expect(operation('responses-status', 'getJobState').success).toMatchObject({ status: 200, statusText: '2XX' });
    expect(operation('responses-status', 'deleteJob').success).toMatchObject({ status: 204, contents: [] });
  });

  it('an operation with only error responses gets a synthetic 204 success without body', () => {
    const ping = operation('responses-status', 'ping');
    expect(ping.success).toMatchObject({ status: 204, synthetic: true, contents: [], headers: [] });
    expect(ping.successes).toEqual([ping.success]);
    expect(ping.errors.map((e) => e.statusText ?? e.status)).toEqual([429, '5XX']);
  });

  it('bodies of every kind, several media types, and headers (a $ref one; Content-Type left out)', () => {
    const list = operation('responses-content', 'listItems');
    expect(list.success.contents.map((c) => [c.kind, c.schema.kind])).toEqual([['json', 'array']]);
    // In the loaded document's (canonical) key order.
    expect(list.success.headers.map((h) => [h.name, h.required, h.schema.kind])).toEqual([
      ['X-Rate-Limit-Remaining', false, 'integer'],
      ['X-Total-Count', true, 'integer'],
    ]);
    expect(list.errors[0]!.contents.map((c) => [c.mediaType, c.kind])).toEqual([
      ['application/problem+json', 'json'],
      ['text/plain', 'text'],
    ]);
    expect(operation('responses-content', 'getItem').success.contents.map((c) => c.kind)).toEqual(['json', 'text']);
    expect(operation('responses-content', 'getItemLabel').success.contents.map((c) => c.kind)).toEqual(['text']);
    expect(operation('responses-content', 'getItemImage').success.contents.map((c) => c.kind)).toEqual(['binary', 'binary']);
    expect(operation('responses-content', 'countItems').success.schema.kind).toBe('integer');
  });
});

describe('generated response validators and body decoders', () => {
  const validate = (name: string): Validate => family(name).generated.validateResponse as Validate;
  const decode = (name: string, camel: string): Decode => (family(name).generated.decoders as unknown as Record<string, Decode>)[camel]!;

  it('choose the response by status, range and default, and the check by media type', () => {
    const check = validate('responses-status');
    expect(check('startJob', 201, 'application/json; charset=utf-8', { id: 1, state: 'done' })).toEqual([]);
    expect(check('startJob', 202, 'application/json', { queued: false })).toEqual([{ path: '$.queued', message: 'must be true' }]);
    expect(check('startJob', 400, undefined, { status: 400 })).toEqual([{ path: '$.title', message: 'is required' }]);
    // Not declared: the caller decides.
    expect(check('startJob', 500, 'application/json', {})).toBeUndefined();
    expect(check('getJob', 418, 'application/json', { title: 'teapot' })).toEqual([]);
    expect(check('getJob', 418, 'application/json', {})).toEqual([{ path: '$.title', message: 'is required' }]);
    expect(check('getJob', 304, undefined, undefined)).toEqual([]);
    expect(check('getJobState', 206, 'application/json', 'running')).toEqual([]);
    expect(check('getJobState', 200, 'application/json', 'lost')).toHaveLength(1);
    expect(check('getJobLog', 200, 'application/json', ['a', 1])).toEqual([{ path: '$[1]', message: 'must be a string' }]);
    expect(check('ping', 204, undefined, undefined)).toEqual([]);
    expect(check('ping', 503, undefined, undefined)).toEqual([]);
    const content = validate('responses-content');
    expect(content('getItem', 200, 'application/xml', '<item/>')).toEqual([]);
    expect(content('getItem', 200, 'text/html', '<p>')).toEqual([{ path: '$', message: 'media type `text/html` is not declared for status 200' }]);
    expect(content('getItemFlags', 200, 'application/json', 'yes')).toHaveLength(1);
    expect(content('countItems', 200, 'application/json', -1)).toHaveLength(1);
  });

  it('check the declared response headers of the status: required, read as their schema, any case', () => {
    type CheckHeaders = (operation: string, status: number, headers: unknown) => { path: string; message: string }[] | undefined;
    const headers = (family('responses-content').generated as unknown as { validateResponseHeaders: CheckHeaders }).validateResponseHeaders;
    expect(headers('listItems', 200, { 'x-total-count': '3' })).toEqual([]);
    expect(headers('listItems', 200, new Headers({ 'X-Total-Count': '3', 'X-Rate-Limit-Remaining': 'lots' }))).toEqual([
      { path: 'header x-rate-limit-remaining', message: expect.stringContaining('integer') },
    ]);
    expect(headers('listItems', 200, { 'X-Total-Count': ['3'] })).toEqual([]);
    expect(headers('listItems', 200, {})).toEqual([{ path: 'header x-total-count', message: 'is required' }]);
    // Declared without headers; not declared at all; an operation that declares no header.
    expect(headers('listItems', 400, {})).toEqual([]);
    expect(headers('listItems', 503, {})).toBeUndefined();
    expect(headers('countItems', 200, {})).toEqual([]);
  });

  it('keep validate<Op>Response for the primary success', () => {
    const responses = family('responses-status').generated.responseValidators;
    expect(responses.startJob!({ id: 1, state: 'done' })).toEqual([]);
    expect(responses.startJob!({ queued: true })).not.toEqual([]);
  });

  it('decode whole bodies by media type, and refuse missing, undeclared and invalid ones', () => {
    const raw = (content?: { mediaType: string; value: unknown }, path: Record<string, string> = {}) => ({ path, query: {}, body: {}, headers: {}, cookies: {}, ...(content ? { content } : {}) });
    const create = decode('bodies-json', 'createPet');
    expect(create(raw({ mediaType: 'application/json', value: { name: 'Rex' } }))).toMatchObject({ ok: true, value: { body: { name: 'Rex' } } });
    expect(create(raw())).toMatchObject({ ok: false, error: { rule: 'required', parameter: 'body' } });
    expect(create(raw({ mediaType: 'text/plain', value: 'Rex' }))).toMatchObject({ ok: false, error: { rule: 'mediaType', parameter: 'body' } });
    expect(create(raw({ mediaType: 'application/json', value: { name: '' } }))).toMatchObject({ ok: false, error: { rule: 'minLength', parameter: 'body' } });
    const patch = decode('bodies-json', 'patchPet');
    expect(patch(raw(undefined, { petId: '2' }))).toMatchObject({ ok: true, value: { petId: 2 } });
    expect(patch(raw({ mediaType: 'application/merge-patch+json', value: { age: null } }, { petId: '2' }))).toMatchObject({ ok: true, value: { petId: 2, body: { age: null } } });
    const weight = decode('bodies-json', 'setWeight');
    expect(weight(raw({ mediaType: 'application/json', value: 0 }, { petId: '2' }))).toMatchObject({ ok: false, error: { parameter: 'requestBody' } });
    const text = decode('bodies-media', 'putNoteText');
    expect(text(raw({ mediaType: 'text/plain; charset=utf-8', value: 'hi' }, { noteId: 'a' }))).toMatchObject({ ok: true, value: { noteId: 'a', body: 'hi' } });
    expect(text(raw({ mediaType: 'text/plain', value: 'x'.repeat(1001) }, { noteId: 'a' }))).toMatchObject({ ok: false, error: { rule: 'maxLength' } });
    const bytes = decode('bodies-media', 'putAttachment');
    const data = new Uint8Array([1, 2, 3]);
    expect(bytes(raw({ mediaType: 'image/webp', value: data }, { noteId: 'a' }))).toMatchObject({ ok: true, value: { body: data } });
    expect(bytes(raw({ mediaType: 'image/webp', value: 'not bytes' }, { noteId: 'a' }))).toMatchObject({ ok: false, error: { rule: 'type' } });
    expect(bytes(raw({ mediaType: 'video/mp4', value: data }, { noteId: 'a' }))).toMatchObject({ ok: false, error: { rule: 'mediaType' } });
    expect(decode('bodies-media', 'importNotes')(raw({ mediaType: 'video/mp4', value: data }))).toMatchObject({ ok: true, value: { body: data } });
  });

  it('decode a list of files, and every single file as before', () => {
    const album = decode('bodies-multipart', 'createAlbum');
    const file = (field: string, filename: string) => ({ field, filename, contentType: 'image/png', data: new Uint8Array([1]) });
    const decoded = album({ path: {}, query: {}, body: { title: 'Trip' }, headers: {}, cookies: {}, files: [file('cover', 'c.png'), file('photos', 'a.png'), file('photos', 'b.png')] });
    expect(decoded).toMatchObject({ ok: true, value: { title: 'Trip', cover: { filename: 'c.png' }, photos: [{ filename: 'a.png' }, { filename: 'b.png' }] } });
    const none = album({ path: {}, query: {}, body: { title: 'Trip' }, headers: {}, cookies: {}, files: [file('cover', 'c.png')] });
    expect(none.ok && 'photos' in none.value!).toBe(false);
    expect(album({ path: {}, query: {}, body: { title: 'Trip' }, headers: {}, cookies: {}, files: [] })).toMatchObject({ ok: false, error: { parameter: 'cover' } });
  });
});
