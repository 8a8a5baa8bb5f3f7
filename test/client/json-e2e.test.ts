/**
 * End to end on a JSON API unlike ours (test/fixtures/client/json-api): the
 * document is generated into a temp project (types, validators, client,
 * bindings, mock handlers), the generated bindings serve it on 127.0.0.1 with
 * the mock handlers (a few replaced by handlers that echo what they decoded),
 * and the generated client calls every operation over HTTP: JSON bodies in
 * two media types, 201 and 204, query/header/cookie parameters, bearer and
 * API-key credentials, a text response, and errors typed by status.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { typeCheck } from '../support/type-check.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/cli/pipeline.js';
import { targets } from '../../generator/targets/index.js';
import { config } from '../support/generator.js';
import { repoRoot } from '../support/process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
type Loaded = Record<string, any>;

let root: string;
let app: FastifyInstance;
let baseUrl: string;
let client: Loaded;
/** Credentials the server saw, per request. */
const seen: unknown[] = [];

const TOKEN = 'secret-token';
const KEY = 'secret-key';

beforeAll(async () => {
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  root = mkdtempSync(join(base, 'json-api-'));
  cpSync(join(repoRoot, 'test/fixtures/client/json-api'), join(root, 'spec'), { recursive: true });
  const wanted = new Set(['types', 'validators', 'client', 'server']);
  await generate(config(root, {}, [...wanted]), targets.filter((target) => wanted.has(target.name)));
  const server = (await import(pathToFileURL(join(root, 'generated/server.ts')).href)) as Loaded;
  const mock = (await import(pathToFileURL(join(root, 'generated/mock-handlers.ts')).href)) as Loaded;
  client = (await import(pathToFileURL(join(root, 'generated/client.ts')).href)) as Loaded;
  const handlers = {
    ...mock.mockHandlers,
    // Echo handlers: what the bindings decoded from the client's request comes back in the answer.
    listNotes: async (params: Loaded, ctx: Loaded) =>
      ctx.respond(200, [{ id: params.limit ?? 0, title: params['X-Request-Id'] ?? '', tags: params.tag ?? [] }], { 'X-Total-Count': 1 }),
    createNote: async (params: Loaded) => ({ id: 2, title: params.body.title, tags: params.body.tags ?? [] }),
    getNote: async (params: Loaded, ctx: Loaded) =>
      params.noteId === 404 ? ctx.respond(404, { message: 'No such note', noteId: 404 }) : { id: params.noteId, title: params.view ?? 'none', tags: [] },
    replaceNote: async (params: Loaded) => ({ id: params.noteId, title: typeof params.body === 'string' ? `text:${params.body}` : `json:${params.body.title}`, tags: [] }),
  };
  app = Fastify({ frameworkErrors: server.frameworkErrors });
  await server.registerRoutes(app, {
    handlers,
    authenticate: (credential: Loaded) => {
      seen.push(credential);
      const ok = (credential.kind === 'bearer' && credential.token === TOKEN) || (credential.kind === 'apiKey' && credential.value === KEY);
      return ok ? { name: 'dana' } : undefined;
    },
  });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

const connect = (auth: Record<string, unknown> = { bearerAuth: TOKEN }) =>
  client.createClient({ baseUrl, auth, validateResponses: 'strict' });

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('the generated client against the generated bindings and mock', () => {
  it('sends query and header parameters with a bearer token, and reads the response headers', async () => {
    seen.length = 0;
    const response = await connect().withResponse.listNotes({ limit: 5, tag: ['home', 'work'], 'X-Request-Id': 'req-1' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ id: 5, title: 'req-1', tags: ['home', 'work'] }]);
    expect(response.headers.get('x-total-count')).toBe('1');
    expect(seen).toEqual([{ scheme: 'bearerAuth', kind: 'bearer', token: TOKEN }]);
  });

  it('creates with a JSON body and an API key: 201 with the created note', async () => {
    seen.length = 0;
    const api = connect({ apiKeyAuth: KEY });
    const response = await api.withResponse.createNote({ body: { title: 'Call the vet', tags: ['pets'] } });
    expect([response.status, response.body]).toEqual([201, { id: 2, title: 'Call the vet', tags: ['pets'] }]);
    expect(await api.createNote({ body: { title: 'Again' } })).toEqual({ id: 2, title: 'Again', tags: [] });
    expect(seen).toMatchObject([{ kind: 'apiKey', value: KEY }, { kind: 'apiKey', value: KEY }]);
  });

  it('sends a path parameter and a cookie parameter', async () => {
    expect(await connect().getNote({ noteId: 7, view: 'compact' })).toEqual({ id: 7, title: 'compact', tags: [] });
  });

  it('sends the body in the media type each call chooses', async () => {
    const api = connect();
    expect((await api.replaceNote({ noteId: 1, body: { title: 'As JSON' } })).title).toBe('json:As JSON');
    expect((await api.replaceNote({ noteId: 1, body: 'As text' }, { contentType: 'text/plain' })).title).toBe('text:As text');
  });

  it('resolves a 204 to undefined, with its status under withResponse', async () => {
    const api = connect();
    expect(await api.deleteNote({ noteId: 1 })).toBeUndefined();
    const response = await api.withResponse.deleteNote({ noteId: 1 });
    expect([response.status, response.body]).toEqual([204, undefined]);
  });

  it('reads a text response of an operation without security, sending no credentials', async () => {
    seen.length = 0;
    expect(await connect({}).getHealth()).toBe('ok');
    expect(seen).toEqual([]);
  });

  it('throws ApiError typed by status: a declared 404 with its schema', async () => {
    const error = await rejection(connect().getNote({ noteId: 404 }));
    expect(client.isApiError(error, 404, 'getNote')).toBe(true);
    expect([error.status, error.body]).toEqual([404, { message: 'No such note', noteId: 404 }]);
  });

  it('throws ApiError 401 for missing and for wrong credentials, and 400 for a parameter the decoder refuses', async () => {
    const missing = await rejection(connect({}).listNotes());
    const wrong = await rejection(connect({ bearerAuth: 'nope' }).listNotes());
    const invalid = await rejection(connect().listNotes({ limit: 1000 }));
    expect([missing, wrong, invalid].map((e) => [e.name, e.status])).toEqual([
      ['ApiError', 401],
      ['ApiError', 401],
      ['ApiError', 400],
    ]);
    expect(client.isApiError(invalid, 400)).toBe(true);
    expect(typeof invalid.body).toBe('object');
  });

  it('type-checks (client, bindings, mock) under strict and noUncheckedIndexedAccess', () => {
    const files = ['client.ts', 'server.ts', 'mock-handlers.ts'].map((file) => join(root, 'generated', file));
    expect(typeCheck(files).join('\n')).toBe('');
  }, 120_000);
});
