/**
 * Constant bodies (`constantBody`, `constantHandler`): deep-frozen JSON data
 * that the bindings serialise once and then answer with the stored bytes.
 * Every answer must be byte for byte what the same value as a fresh object
 * gets (status, Content-Type, body, the success envelope and its
 * `ignored_parameters_unsupported`), and the response check of
 * `validateResponses` must still run.
 */
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  constantBody,
  constantHandler,
  operation,
  registerOperations,
  type ApiSettings,
  type Handler,
  type Route,
} from '../../runtime/server-runtime/index.js';
import type { Decoded, Issue, RawRequest } from '../../runtime/validators-runtime/index.js';

const BODY = {
  raw_content: 'Deploy of **v2.3** is done. "Quoted" \u2028 é \ud83c\udf89',
  message: { id: 101, flags: ['read'], reactions: [{ emoji_name: 'tada', user_id: 3 }], last_edit_timestamp: null, ratio: 0.5 },
  '10': 'an integer-like key goes first',
};

const fresh = () => structuredClone(BODY);

function route(name: string, path: string, extra: Partial<Route> = {}): Route {
  return { operation: name, operationId: name, method: 'GET', path: `/api${path}`, auth: false, security: [], ...extra };
}

/** Decodes nothing; a `skip` query parameter is reported as unsupported (ignored_parameters_unsupported). */
const decode = (raw: RawRequest): Decoded<unknown> => ({ ok: true, value: {}, unsupported: 'skip' in raw.query ? ['skip'] : [] });
const accept = (): Issue[] => [];
const refuse = (): Issue[] => [{ path: '$.message', message: 'is not what the spec says' }];

type AnyHandler = Handler<unknown, unknown, unknown, never>;

async function app(api: ApiSettings, validateResponses: boolean): Promise<FastifyInstance> {
  const server = Fastify();
  const typed = (handler: () => Promise<unknown>) => handler as AnyHandler;
  const frozen = constantBody(fresh());
  await registerOperations(
    server,
    '/api',
    [
      operation(route('fresh', '/fresh'), decode, typed(async () => fresh()), accept),
      operation(route('constant', '/constant'), decode, typed(constantHandler(fresh())), accept),
      // One constant answered by two operations, one of them checking it and failing.
      operation(route('shared', '/shared'), decode, typed(async () => frozen), accept),
      operation(route('checked', '/checked'), decode, typed(async () => frozen), refuse),
      operation(
        route('typed', '/typed'),
        decode,
        ((_params, ctx) => {
          ctx.reply.header('content-type', 'application/vnd.teamchat+json');
          return Promise.resolve(frozen);
        }) as AnyHandler,
        accept,
      ),
      operation(route('list', '/list'), decode, typed(constantHandler([1, 'two', { three: 3 }])), accept),
      operation(route('text', '/text', { responses: { 200: [{ mediaType: 'text/plain', kind: 'text' }] } }), decode, typed(constantHandler('plain text')), accept),
      operation(route('problem', '/problem', { responses: { 200: [{ mediaType: 'application/problem+json', kind: 'json' }] } }), decode, typed(async () => frozen), accept),
    ],
    { authenticate: () => ({}), validateResponses },
    api,
  );
  await server.ready();
  return server;
}

const enveloped: ApiSettings = {
  title: 'Chat',
  securitySchemes: {},
  successEnvelope: true,
  parametersInFields: true,
  refusedBodyStatus: 400,
  unauthorized: { basicPair: 'email:api_key', invalid: 'Invalid email or API key', basicChallenge: true },
  errors: { status: {}, format: undefined },
};
const bare: ApiSettings = {
  ...enveloped,
  successEnvelope: false,
  parametersInFields: false,
  refusedBodyStatus: 415,
  unauthorized: { basicPair: 'username:password', invalid: 'Invalid credentials', basicChallenge: false },
};

let servers: FastifyInstance[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
});

async function answer(server: FastifyInstance, options: InjectOptions) {
  const response = await server.inject(options);
  return { status: response.statusCode, type: response.headers['content-type'], bytes: response.rawPayload.toString('hex') };
}

describe.each([
  ['with the success envelope', enveloped],
  ['without an envelope', bare],
])('constant bodies %s', (_name, api) => {
  let server: FastifyInstance;
  let checking: FastifyInstance;

  beforeAll(async () => {
    server = await app(api, false);
    checking = await app(api, true);
    servers.push(server, checking);
  });

  it('answer the bytes, status and type of the same value as a fresh object, every time', async () => {
    const expected = await answer(server, { method: 'GET', url: '/api/fresh' });
    expect(expected.type).toBe('application/json; charset=utf-8');
    for (let i = 0; i < 3; i++) {
      expect(await answer(server, { method: 'GET', url: '/api/constant' })).toEqual(expected);
      expect(await answer(server, { method: 'GET', url: '/api/shared' })).toEqual(expected);
      expect(await answer(server, { method: 'HEAD', url: '/api/constant' })).toMatchObject({ status: 200, type: expected.type });
    }
    const text = Buffer.from(expected.bytes, 'hex').toString('utf8');
    expect(text).toBe(JSON.stringify(api.successEnvelope ? { result: 'success', msg: '', ...fresh() } : fresh()));
  });

  it('serialise a constant once: later answers send the stored bytes', async () => {
    await answer(server, { method: 'GET', url: '/api/constant' });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      await answer(server, { method: 'GET', url: '/api/fresh' });
      const freshCalls = stringify.mock.calls.length;
      expect(freshCalls).toBeGreaterThan(0);
      await answer(server, { method: 'GET', url: '/api/constant' });
      await answer(server, { method: 'GET', url: '/api/list' });
      await answer(server, { method: 'GET', url: '/api/list' });
      expect(stringify.mock.calls.length - freshCalls).toBeLessThanOrEqual(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('keep ignored_parameters_unsupported, a Content-Type the handler set and other media types as for any body', async () => {
    expect(await answer(server, { method: 'GET', url: '/api/constant?skip=1' })).toEqual(await answer(server, { method: 'GET', url: '/api/fresh?skip=1' }));
    const typed = await answer(server, { method: 'GET', url: '/api/typed' });
    expect(typed.type).toBe('application/vnd.teamchat+json; charset=utf-8');
    const problem = await answer(server, { method: 'GET', url: '/api/problem' });
    expect(problem.type).toMatch(api.successEnvelope ? /^application\/json/ : /^application\/problem\+json/);
    const text = await answer(server, { method: 'GET', url: '/api/text' });
    expect(text.type).toBe('text/plain; charset=utf-8');
    const list = await answer(server, { method: 'GET', url: '/api/list' });
    expect(Buffer.from(list.bytes, 'hex').toString()).toBe(JSON.stringify(api.successEnvelope ? { result: 'success', msg: '', ...[1, 'two', { three: 3 }] } : [1, 'two', { three: 3 }]));
  });

  it('are still checked on every answer when responses are validated', async () => {
    expect((await answer(checking, { method: 'GET', url: '/api/shared' })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await answer(checking, { method: 'GET', url: '/api/checked' })).status).toBe(500);
  });
});

describe('constantBody', () => {
  it('freezes JSON data all the way down and returns it', () => {
    const value = { a: [{ b: 1 }], c: { d: 'x', e: undefined } };
    expect(constantBody(value)).toBe(value);
    expect(Object.isFrozen(value) && Object.isFrozen(value.a) && Object.isFrozen(value.a[0]) && Object.isFrozen(value.c)).toBe(true);
    expect(() => {
      'use strict';
      (value.a as unknown[]).push(2);
    }).toThrow(TypeError);
    const withoutPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(Object.isFrozen(constantBody(withoutPrototype))).toBe(true);
  });

  it('returns scalars as they are', () => {
    expect(constantBody('text')).toBe('text');
    expect(constantBody(null)).toBe(null);
    expect(constantBody(3)).toBe(3);
  });

  it('refuses values whose JSON text could change or that are not JSON data, naming where', () => {
    expect(() => constantBody({ when: new Date(0) })).toThrow('(body).when is a Date');
    expect(() => constantBody({ list: [new Map()] })).toThrow('(body).list.0 is a Map');
    expect(() => constantBody({ f: () => 1 })).toThrow('(body).f is a function');
    expect(() => constantBody({ n: 1n })).toThrow('(body).n is a bigint');
    expect(() => constantBody(Object.defineProperty({}, 'now', { get: () => Date.now(), enumerable: true }))).toThrow('(body).now is an accessor');
    const cycle: Record<string, unknown> = { a: {} };
    (cycle.a as Record<string, unknown>).back = cycle;
    expect(() => constantBody(cycle)).toThrow('(body).a.back refers back to an enclosing value');
    class Point {
      x = 1;
    }
    expect(() => constantBody({ p: new Point() })).toThrow('(body).p is a Point');
    // A shared value that is not a cycle is fine.
    const shared = { s: 1 };
    expect(() => constantBody({ one: shared, two: shared })).not.toThrow();
  });
});
