/**
 * GET and HEAD form bodies (test/fixtures/operations/params-get-form): a
 * form-encoded API that gives every method one request-body schema. The
 * fields of a GET or HEAD urlencoded body become query parameters in the
 * loader, so every target sees them there: the model and its notes, the
 * types, and over HTTP the generated client writes them into the URL and the
 * generated bindings decode them back. Other GET bodies are still left out.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../generator/cli/pipeline.js';
import { loadSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import type { ApiModel } from '../../../../generator/model/types.js';
import { targets } from '../../../../generator/targets/index.js';
import { repoRoot } from '../../../support/process.js';
import { typeCheck } from '../../../support/type-check.js';
import { config } from '../../../support/generator.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
type Loaded = Record<string, any>;

const FIXTURE = join(repoRoot, 'test/fixtures/operations/params-get-form');

let model: ApiModel;
let root: string;
let app: FastifyInstance;
let api: Loaded;
let baseUrl: string;
const sent: { method: string; url: URL; body: string }[] = [];

beforeAll(async () => {
  model = buildModel(await loadSpec(join(FIXTURE, 'openapi.yaml'), FIXTURE));
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  root = mkdtempSync(join(base, 'get-form-'));
  cpSync(FIXTURE, join(root, 'spec'), { recursive: true });
  const wanted = new Set(['types', 'validators', 'client', 'server']);
  await generate(config(root, {}, [...wanted]), targets.filter((target) => wanted.has(target.name)));
  const server = (await import(pathToFileURL(join(root, 'generated/server.ts')).href)) as Loaded;
  const client = (await import(pathToFileURL(join(root, 'generated/client.ts')).href)) as Loaded;
  const handlers = Object.fromEntries(
    Object.keys(server.routes).map((name) => [name, async (params: Record<string, unknown>) => (name === 'getUserGroups' ? { groups: [JSON.stringify(params)] } : undefined)]),
  );
  app = Fastify();
  await server.registerRoutes(app, { handlers, authenticate: () => ({}) });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = new Request(input, init);
    sent.push({ method: request.method, url: new URL(request.url), body: request.body === null ? '' : await request.clone().text() });
    return globalThis.fetch(input, init);
  };
  api = client.createClient({ baseUrl, fetch });
}, 240_000);

afterAll(async () => {
  await app?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

const operation = (id: string) => model.operations.find((o) => o.id === id)!;

describe('GET and HEAD form bodies in the model', () => {
  it('become query parameters with what each field said: required, default, JSON text by contentType, style', () => {
    const list = operation('get-user-groups');
    expect(list.body).toBe('none');
    expect(list.requestBody).toBeUndefined();
    const wire = Object.fromEntries(list.parameters.map((p) => [p.name, [p.location, p.encoding, p.required, p.default, p.style, p.explode]]));
    expect(wire).toEqual({
      tag: ['query', 'plain', false, undefined, 'form', true],
      limit: ['query', 'plain', true, undefined, 'form', true],
      include_deactivated_groups: ['query', 'plain', false, false, 'form', true],
      narrow: ['query', 'json', false, undefined, undefined, undefined],
      names: ['query', 'plain', false, undefined, 'form', true],
      since: ['query', 'plain', false, undefined, 'form', true],
    });
    expect(list.parameters.find((p) => p.name === 'limit')!.description).toBe('How many groups to return.');
    // The media type's example, spread over the parameters.
    expect(list.requestExamples.map((e) => e.value)).toEqual([{ limit: 10, include_deactivated_groups: true }]);
  });

  it('a HEAD form body through a shared $ref too; the POST with the same body keeps it', () => {
    const head = operation('check-user-group');
    expect(head.body).toBe('none');
    expect(head.parameters.map((p) => [p.name, p.location, p.required])).toEqual([
      ['group_id', 'path', true],
      ['name', 'query', true],
      ['members', 'query', false],
    ]);
    const post = operation('create-user-group');
    expect(post.body).toBe('form');
    expect(post.parameters.map((p) => [p.name, p.location])).toEqual([
      ['name', 'body'],
      ['members', 'body'],
    ]);
  });

  it('notes each rewrite at its request body, a shadowed field and an unknown encoding; a GET JSON body is still left out', () => {
    expect(operation('search').body).toBe('none');
    expect(model.warnings).toEqual([
      'openapi.yaml:55: field `tag` of the GET form body of `/user_groups` has the name of a query parameter, which is kept',
      'openapi.yaml:61: encoding names unknown property `allow_deactivated`; it is ignored',
      'openapi.yaml:21: the fields of a GET form body are read as query parameters (a form sent with GET travels in the URL)',
      'openapi.yaml:95: the fields of a HEAD form body are read as query parameters (a form sent with HEAD travels in the URL)',
      'openapi.yaml:104: a GET request body is ignored: clients and servers commonly drop it',
    ]);
  });
});

describe('GET form fields from client to bindings', () => {
  it('the output type-checks under strict and noUncheckedIndexedAccess', () => {
    const files = ['types.ts', 'validators.ts', 'client.ts', 'server.ts'].map((file) => join(root, 'generated', file));
    expect(typeCheck(files).join('\n')).toBe('');
  });

  it('the client writes every field into the URL, no body; the bindings decode the same values', async () => {
    const params = { limit: 5, include_deactivated_groups: true, narrow: [{ operator: 'channel', operand: 'design' }], names: ['a', 'b'], since: 1700000000, tag: 't' };
    const answer = await api.getUserGroups(params);
    expect(JSON.parse(answer.groups[0])).toEqual(params);
    const request = sent[sent.length - 1]!;
    expect(request.method).toBe('GET');
    expect(request.body).toBe('');
    expect(request.url.pathname).toBe('/api/v1/user_groups');
    expect(request.url.searchParams.get('limit')).toBe('5');
    expect(request.url.searchParams.getAll('names')).toEqual(['a', 'b']);
    expect(JSON.parse(request.url.searchParams.get('narrow')!)).toEqual(params.narrow);
  });

  it('a query string written by another client decodes, defaults apply, and a missing required field is refused', async () => {
    const decoded = await fetch(`${baseUrl}/api/v1/user_groups?limit=2&names=x`);
    expect(decoded.status).toBe(200);
    expect(JSON.parse(((await decoded.json()) as { groups: string[] }).groups[0]!)).toEqual({ limit: 2, names: ['x'], include_deactivated_groups: false });
    const refused = await fetch(`${baseUrl}/api/v1/user_groups?include_deactivated_groups=true`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('limit');
  });
});
