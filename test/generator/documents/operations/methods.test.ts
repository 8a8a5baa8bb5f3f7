/**
 * A document unlike ours on the operations side: no operationIds, every HTTP
 * method, path-level parameters, a server URL without a base path, no
 * declared error codes. It generates, the output type-checks under strict and
 * noUncheckedIndexedAccess, and the generated client talks to the generated
 * bindings (with the mock handlers) over real HTTP on 127.0.0.1.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { typeCheck } from '../../../support/type-check.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../generator/cli/pipeline.js';
import { loadSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import { targets } from '../../../../generator/targets/index.js';
import { config } from '../../../support/generator.js';
import { repoRoot } from '../../../support/process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
type Loaded = Record<string, any>;

let root: string;
let app: FastifyInstance;
let baseUrl: string;
let client: Loaded;
let server: Loaded;

beforeAll(async () => {
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  root = mkdtempSync(join(base, 'methods-'));
  cpSync(join(repoRoot, 'test/fixtures/operations/methods'), join(root, 'spec'), { recursive: true });
  const wanted = new Set(['types', 'validators', 'client', 'server']);
  await generate(config(root, {}, [...wanted]), targets.filter((target) => wanted.has(target.name)));
  server = (await import(pathToFileURL(join(root, 'generated/server.ts')).href)) as Loaded;
  const mock = (await import(pathToFileURL(join(root, 'generated/mock-handlers.ts')).href)) as Loaded;
  client = (await import(pathToFileURL(join(root, 'generated/client.ts')).href)) as Loaded;
  app = Fastify();
  await server.registerRoutes(app, { handlers: mock.mockHandlers, authenticate: () => ({}) });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe('operations without operationIds, every method, no base path', () => {
  it('derives operation names from method and path, keeping a declared operationId', () => {
    expect(Object.keys(server.routes)).toEqual([
      'createThing',
      'traceThings',
      'getThingsByThingId',
      'putThingsByThingId',
      'headThingsByThingId',
      'optionsThingsByThingId',
    ]);
    expect(server.basePath).toBe('');
    expect(server.routes.getThingsByThingId).toMatchObject({ method: 'GET', path: '/things/:thingId', operationId: 'get-things-by-thing-id' });
  });

  it('types error responses without x-error-code by status, and keeps every success status', async () => {
    const model = buildModel(await loadSpec(join(root, 'spec/openapi.yaml'), root));
    const get = model.operations.find((operation) => operation.id === 'get-things-by-thing-id');
    expect(get?.errors.map((error) => [error.statusText ?? error.status, error.codes])).toEqual([
      [404, []],
      ['4XX', []],
      ['default', []],
    ]);
    const create = model.operations.find((operation) => operation.id === 'createThing');
    expect(create?.success.status).toBe(200);
    expect(create?.successes.map((response) => [response.status, response.contents.length])).toEqual([
      [200, 1],
      [201, 0],
    ]);
    expect(model.warnings).toEqual([]);
  });

  it('type-checks under strict and noUncheckedIndexedAccess', () => {
    const files = ['client.ts', 'server.ts', 'mock-handlers.ts', 'handlers.ts'].map((file) => join(root, 'generated', file));
    expect(typeCheck(files).join('\n')).toBe('');
  }, 120_000);

  it('calls GET, PUT, POST, HEAD and OPTIONS through the generated client, path-level parameters included', async () => {
    const api = client.createClient({ baseUrl, email: 'a@example.com', apiKey: 'k', validateResponses: 'strict' });
    expect(await api.getThingsByThingId({ thingId: 7, verbose: true })).toEqual({ result: 'success', msg: '', id: 7 });
    expect(await api.putThingsByThingId({ thingId: 7 })).toEqual({ result: 'success', msg: '' });
    expect(await api.createThing()).toEqual({ result: 'success', msg: '', id: 1 });
    expect(await api.headThingsByThingId({ thingId: 7 })).toEqual({});
    expect(await api.optionsThingsByThingId({ thingId: 7 })).toEqual({ result: 'success', msg: '', methods: ['GET', 'PUT'] });
  });

  it('serves TRACE (fetch refuses to send it, so it is sent with inject)', async () => {
    const response = await app.inject({ method: 'TRACE', url: '/things' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ result: 'success', msg: '' });
  });

  it('answers its own errors with the default envelope when the document declares no error codes', async () => {
    const missing = await fetch(`${baseUrl}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ result: 'error', msg: 'No operation at /nowhere', code: 'NOT_FOUND' });
    const wrongMethod = await fetch(`${baseUrl}/things`, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, TRACE');
    expect(await wrongMethod.json()).toMatchObject({ result: 'error', code: 'METHOD_NOT_ALLOWED' });
    const badParameter = await fetch(`${baseUrl}/things/seven`);
    expect(badParameter.status).toBe(400);
    expect(await badParameter.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('does not write a handler scaffold that imports an error code the document lacks', () => {
    const mock = readFileSync(join(root, 'generated/mock-handlers.ts'), 'utf8');
    expect(mock).not.toContain("'INTERNAL_ERROR'");
  });
});
