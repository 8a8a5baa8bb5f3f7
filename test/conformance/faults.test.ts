/**
 * Planted faults: the mock server (the generated bindings answering the
 * spec's examples) with one way of breaking the document switched on per
 * case; each must be caught by the rule that names it, and nothing else.
 * Without a fault, ten seeds give no failure.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceDocument } from '../../generator/conformance/document.js';
import { createMockApp } from '../../server/mock.js';
import { found, ownDocument, run } from './support.js';

type Fault = (request: FastifyRequest, reply: FastifyReply, body: string) => string;

let doc: ConformanceDocument;
let app: FastifyInstance;
let url: string;
let fault: Fault | undefined;

beforeAll(async () => {
  doc = await ownDocument();
  app = await createMockApp();
  app.addHook('onSend', async (request, reply, payload) => {
    if (fault === undefined) return payload;
    // Constant bodies are sent as bytes serialised once.
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    return text === undefined ? payload : fault(request, reply, text);
  });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
});

function on(path: string, request: FastifyRequest): boolean {
  return request.url.split('?', 1)[0] === `/api/v1${path}`;
}

function edit(body: string, change: (value: Record<string, unknown>) => void): string {
  const value = JSON.parse(body) as Record<string, unknown>;
  change(value);
  return JSON.stringify(value);
}

const auth = 'owner@example.com:any-key';

describe('planted faults, each caught by its rule', () => {
  it('a wrong type in a response field: response-schema, at its JSON path, with the schema file and line', async () => {
    fault = (request, reply, body) => (on('/users/me', request) && reply.statusCode === 200 ? edit(body, (v) => (v.user_id = String(v.user_id))) : body);
    const result = await run(doc, url, { auth, operations: ['get-own-user'] });
    expect(found(result)).toEqual(['get-own-user response-schema']);
    const failure = result.failures[0]!;
    expect(failure.path).toBe('$.user_id');
    expect(failure.specLocation).toMatch(/^spec\/components\/schemas\/OwnUser\.yaml:\d+$/);
  });

  it('a missing required field: response-schema', async () => {
    fault = (request, reply, body) => (on('/realm/linkifiers', request) && reply.statusCode === 200 ? edit(body, (v) => delete v.linkifiers) : body);
    const result = await run(doc, url, { auth, operations: ['get-linkifiers'] });
    expect(found(result)).toEqual(['get-linkifiers response-schema']);
    expect(result.failures[0]!.path).toBe('$.linkifiers');
  });

  it('an undocumented status: status-documented', async () => {
    fault = (request, reply, body) => {
      if (on('/users/me', request) && reply.statusCode === 200) reply.code(202);
      return body;
    };
    const result = await run(doc, url, { auth, operations: ['get-own-user'] });
    expect(found(result)).toEqual(['get-own-user status-documented']);
    expect(result.failures[0]!.status).toBe(202);
  });

  it('a 500 on some valid input: no-server-error, shrunk to the smallest such input', async () => {
    // Stream IDs from 1000 up crash the handler.
    fault = (request, reply, body) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      if (on('/mark_topic_as_read', request) && Number(form.stream_id) >= 1000) {
        reply.code(500);
        return JSON.stringify({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_ERROR' });
      }
      return body;
    };
    const result = await run(doc, url, { auth, operations: ['mark-topic-as-read'], maxShrinkRequests: 60 });
    expect(found(result)).toEqual(['mark-topic-as-read no-server-error']);
    const failure = result.failures[0]!;
    expect(failure.curl).toMatch(/stream_id=\d+/);
    const sent = Number(/stream_id=(\d+)/.exec(failure.curl)![1]);
    expect(sent).toBeGreaterThanOrEqual(1000);
    // Shrinking brings the value near the boundary (fast-check halves the distance).
    expect(sent).toBeLessThan(3000);
  });

  it('a 200 for an invalid request: negative-rejected, naming the parameter', async () => {
    fault = (request, reply, body) => {
      if (on('/mark_topic_as_read', request) && reply.statusCode === 400) {
        reply.code(200);
        return JSON.stringify({ result: 'success', msg: '' });
      }
      return body;
    };
    const result = await run(doc, url, { auth, operations: ['mark-topic-as-read'] });
    expect(found(result)).toEqual(['mark-topic-as-read negative-rejected']);
    expect(result.failures[0]!.path).toMatch(/^parameter (stream_id|topic_name)$/);
    expect(result.failures[0]!.specLocation).toMatch(/^spec\/paths\/mark_topic_as_read\.yaml:\d+$/);
  });

  it('an operation that answers without credentials: auth-required', async () => {
    fault = (request, reply, body) => {
      if (on('/realm/linkifiers', request) && reply.statusCode === 401) {
        reply.code(200);
        return JSON.stringify({ result: 'success', msg: '', linkifiers: [] });
      }
      return body;
    };
    const result = await run(doc, url, { auth, operations: ['get-linkifiers'] });
    expect(found(result)).toEqual(['get-linkifiers auth-required']);
    expect(result.failures[0]!.kind).toBe('unauthenticated');
    expect(result.failures[0]!.curl).not.toContain('-u ');
  });

  it('a wrong content type: content-type-documented', async () => {
    fault = (request, reply, body) => {
      if (on('/users/me', request)) reply.header('content-type', 'text/plain; charset=utf-8');
      return body;
    };
    const result = await run(doc, url, { auth, operations: ['get-own-user'] });
    expect(found(result)).toEqual(['get-own-user content-type-documented']);
  });

  it('a missing required header: response-headers', async () => {
    fault = (request, reply, body) => {
      if (on('/users/me', request)) reply.removeHeader('x-feature-level');
      return body;
    };
    const result = await run(doc, url, { auth, operations: ['get-own-user'] });
    expect(found(result)).toEqual(['get-own-user response-headers']);
    expect(result.failures[0]!.path).toBe('header x-feature-level');
  });

  it('prints a curl command that reproduces the failure', async () => {
    fault = (request, reply, body) => (on('/messages/flags/narrow', request) && reply.statusCode === 200 ? edit(body, (v) => (v.processed_count = 'many')) : body);
    const result = await run(doc, url, { auth, operations: ['update-message-flags-for-narrow'] });
    expect(found(result)).toEqual(['update-message-flags-for-narrow response-schema']);
    // Asynchronously: the server answering curl runs in this process.
    const { stdout: answer } = await promisify(execFile)('bash', ['-c', `${result.failures[0]!.curl} --max-time 10`], { env: { ...process.env, TEAMCHAT_AUTH_BASICAUTH: auth }, encoding: 'utf8' });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"processed_count":"many"');
  });
});

describe('the mock without faults', () => {
  it('gives no false alarm over 10 seeds', async () => {
    fault = undefined;
    for (let seed = 1; seed <= 10; seed += 1) {
      const result = await run(doc, url, { auth, seed, maxRequests: 120 });
      expect(result.failures, `seed ${seed}`).toEqual([]);
      expect(result.summary.requests).toBeGreaterThan(60);
    }
  }, 240_000);
});
