/**
 * Documents unlike ours on the parameters and security side
 * (test/fixtures/operations/params-* and security-*): query parameters in
 * every style, path label/matrix, header and cookie parameters, a name used
 * in two locations, every kind of security scheme, operation and path-item
 * servers. The model carries each, and every target generates output that
 * type-checks under strict and noUncheckedIndexedAccess (types and decoders
 * kept as goldens beside each document).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { typeCheck } from '../../../support/type-check.js';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../generator/cli/pipeline.js';
import { loadSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import type { ApiModel, Operation } from '../../../../generator/model/types.js';
import { targets } from '../../../../generator/targets/index.js';
import { curlExample } from '../../../../generator/targets/docs/curl.js';
import { runtimeFolderAsWritten } from '../../../support/goldens.js';
import { config } from '../../../support/generator.js';
import { repoRoot } from '../../../support/process.js';

const FIXTURES = join(repoRoot, 'test/fixtures/operations');
const roots: string[] = [];

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function model(fixture: string): Promise<ApiModel> {
  const root = join(FIXTURES, fixture);
  return buildModel(await loadSpec(join(root, 'openapi.yaml'), root));
}

function op(built: ApiModel, id: string): Operation {
  const found = built.operations.find((o) => o.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}

/** Generates every target of a fixture into a temp project; returns the output folder. */
async function generateAll(fixture: string): Promise<string> {
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, `${fixture}-`));
  roots.push(root);
  cpSync(join(FIXTURES, fixture), join(root, 'spec'), { recursive: true });
  await generate(config(root, {}, targets.map((t) => t.name)), targets);
  return join(root, 'generated');
}

function typeErrors(files: string[]): string {
  return typeCheck(files).join('\n');
}

describe('parameters in the model', () => {
  it('query parameters: the style in force, written or by default, and JSON text', async () => {
    const search = op(await model('params-query'), 'search');
    const styles = Object.fromEntries(search.parameters.map((p) => [p.name, [p.encoding, p.style, p.explode, p.allowReserved]]));
    expect(styles).toEqual({
      q: ['plain', 'form', true, undefined],
      tags: ['plain', 'form', true, undefined],
      ids: ['plain', 'form', false, undefined],
      words: ['plain', 'spaceDelimited', false, undefined],
      scores: ['plain', 'pipeDelimited', false, undefined],
      filter: ['plain', 'deepObject', false, undefined],
      point: ['plain', 'form', true, undefined],
      color: ['plain', 'form', false, undefined],
      limit: ['plain', 'form', true, undefined],
      since: ['plain', 'form', true, undefined],
      path: ['plain', 'form', true, true],
      expand: ['plain', 'deepObject', true, undefined],
      created: ['plain', 'deepObject', true, undefined],
      rates: ['plain', 'deepObject', true, undefined],
      cwes: ['plain', 'form', true, undefined],
      sort: ['json', undefined, undefined, undefined],
    });
    expect(search.parameters.every((p) => p.location === 'query' && p.key === undefined)).toBe(true);
  });

  it('the docs\' curl examples write query lists as the client does: exploded ones repeat the name, deepObject ones are indexed', async () => {
    const search = op(await model('params-query'), 'search');
    const command = decodeURIComponent(curlExample({ ...search, requestExamples: [{ name: 'x', summary: '', value: { expand: ['customer', 'invoice'], words: ['a', 'b'], tags: ['r', 's'] } }] }, ''));
    // A GET: -G with one --data-urlencode per pair.
    for (const pair of ['expand[0]=customer', 'expand[1]=invoice', 'words=a b', 'tags=r', 'tags=s']) expect(command).toContain(`--data-urlencode '${pair}'`);
  });

  it('path parameters: simple, label and matrix, path-level ones merged', async () => {
    const built = await model('params-path');
    expect(op(built, 'get-item').parameters.map((p) => [p.name, p.style, p.explode])).toEqual([['id', 'simple', false]]);
    expect(op(built, 'label-list').parameters.map((p) => [p.style, p.explode])).toEqual([['label', true]]);
    expect(op(built, 'matrix-list').parameters.map((p) => [p.style, p.explode])).toEqual([['matrix', false]]);
    expect(op(built, 'get-point').parameters.map((p) => [p.style, p.explode, p.schema.kind])).toEqual([['matrix', true, 'object']]);
  });

  it('header and cookie parameters: names compared case-insensitively, Accept ignored, shared names keyed by location', async () => {
    const built = await model('params-header-cookie');
    const get = op(built, 'get-thing');
    expect(get.parameters.map((p) => [p.location, p.name, p.key ?? null, p.names.camel, p.required])).toEqual([
      ['path', 'id', 'path_id', 'pathId', true],
      ['header', 'id', 'header_id', 'headerId', false],
      ['header', 'x-request-id', null, 'xRequestId', true],
      ['header', 'X-Tags', null, 'xTags', false],
      ['header', 'X-Dims', null, 'xDims', false],
      ['header', 'X-Trace', null, 'xTrace', false],
      ['cookie', 'session', null, 'session', true],
      ['cookie', 'prefs', null, 'prefs', false],
      ['cookie', 'debug', null, 'debug', false],
    ]);
    expect(get.parameters.find((p) => p.name === 'X-Trace')?.encoding).toBe('json');
    expect(get.parameters.find((p) => p.name === 'prefs')).toMatchObject({ style: 'form', explode: false });
    expect(built.warnings).toEqual([expect.stringMatching(/^openapi\.yaml:\d+: header parameter `Accept` is ignored/)]);
  });
});

describe('security and servers in the model', () => {
  it('reads every kind of security scheme', async () => {
    const built = await model('security-schemes');
    expect(built.securitySchemes.map((s) => [s.name, s.kind, s.in ?? null, s.parameterName ?? null, s.scheme ?? null, s.bearerFormat ?? null])).toEqual([
      ['basic', 'basic', null, null, null, null],
      ['bearer', 'bearer', null, null, null, 'JWT'],
      ['cookieKey', 'apiKey', 'cookie', 'SESSION', null, null],
      ['digest', 'http', null, null, 'Digest', null],
      ['headerKey', 'apiKey', 'header', 'X-API-Key', null, null],
      ['oauth', 'oauth2', null, null, null, null],
      ['oidc', 'openIdConnect', null, null, null, null],
      ['queryKey', 'apiKey', 'query', 'api_key', null, null],
      ['tls', 'mutualTLS', null, null, null, null],
    ]);
  });

  it('takes the operation requirement, else the document one; none, alternatives, all-of and optional', async () => {
    const built = await model('security-schemes');
    const security = Object.fromEntries(built.operations.map((o) => [o.id, [o.security, o.auth]]));
    expect(security).toEqual({
      'key-and-cookie': [[['cookieKey', 'queryKey']], true],
      'uses-document-security': [[['bearer']], true],
      'key-or-basic': [[['headerKey'], ['basic']], true],
      'optional-oauth': [[[], ['oauth']], false],
      others: [[['oidc'], ['digest'], ['tls']], true],
      public: [[], false],
    });
  });

  it('a requirement naming an undeclared scheme: that scheme is ignored with a warning, never a failure', async () => {
    const built = await model('security-undeclared');
    const security = Object.fromEntries(built.operations.map((o) => [o.id, [o.security, o.auth]]));
    // Only undeclared schemes: nothing can be sent or checked. Beside a declared one: the declared one stays.
    expect(security).toEqual({ 'list-things': [[], false], 'make-thing': [[['token']], true] });
    expect(built.warnings).toEqual([
      expect.stringMatching(/^openapi\.yaml:11: security requirement names `tokn`, which `components\.securitySchemes` does not declare; it is ignored/),
      expect.stringMatching(/^openapi\.yaml:17: security requirement names `tokn`/),
      expect.stringMatching(/^openapi\.yaml:19: security requirement names `api_key`/),
    ]);
  });

  it('our own document: Basic on every operation but the one that says `security: []`', async () => {
    const built = buildModel(await loadSpec(join(repoRoot, 'spec/openapi.yaml'), repoRoot));
    expect(built.securitySchemes.map((s) => [s.name, s.kind])).toEqual([['basicAuth', 'basic']]);
    const open = built.operations.filter((o) => !o.auth).map((o) => o.id);
    expect(open).toEqual(['fetch-api-key']);
    expect(built.operations.filter((o) => o.auth).every((o) => JSON.stringify(o.security) === '[["basicAuth"]]')).toBe(true);
    expect(built.operations.every((o) => o.basePath === '/api/v1' && o.servers === undefined)).toBe(true);
  });

  it('applies operation and path-item servers', async () => {
    const built = await model('params-path');
    expect(op(built, 'get-item')).toMatchObject({ basePath: '/v1' });
    expect(op(built, 'get-item').servers).toBeUndefined();
    expect(op(built, 'label-list')).toMatchObject({ basePath: '/v2', servers: ['https://labels.example.com/v2'] });
    expect(op(built, 'matrix-list')).toMatchObject({ basePath: '/matrix', servers: ['https://eu.example.com/matrix'] });
  });
});

describe.each(['params-query', 'params-path', 'params-header-cookie', 'security-schemes'])('every target of %s', (fixture) => {
  it('generates golden types and decoders that type-check under strict and noUncheckedIndexedAccess', async () => {
    const out = await generateAll(fixture);
    for (const file of ['types.ts', 'validators.ts']) {
      await expect(readFileSync(join(out, file), 'utf8')).toMatchFileSnapshot(join(FIXTURES, fixture, 'golden', file));
    }
    const runtime = readdirSync(join(out, 'validators-runtime')).sort().map((name) => `validators-runtime/${name}`);
    expect(new Map(runtime.map((path) => [path, readFileSync(join(out, path), 'utf8')]))).toEqual(runtimeFolderAsWritten('validators-runtime', readFileSync(join(out, 'validators.ts'), 'utf8')));
    const files = ['types.ts', 'validators.ts', 'client.ts', 'server.ts', 'mock-handlers.ts', 'handlers.ts'];
    expect(typeErrors(files.map((file) => join(out, file)))).toBe('');
  }, 120_000);
});
