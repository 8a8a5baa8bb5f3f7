/**
 * Client retries against a real HTTP server on 127.0.0.1 that answers from a
 * script: which answers are retried (429 always; 502/503/504 and failures
 * before sending only for idempotent methods), Retry-After in seconds and as
 * an HTTP date, backoff, and the limits of timeoutMs and the caller's signal.
 * Waits are short (backoff of a few ms, Retry-After of one second at most).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, isApiError, TransportError, type ClientOptions } from '../../generated/client.js';
import { retryDelay } from '../../generated/client/runtime/retry.js';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'destroy';

let server: Server;
let baseUrl: string;
let script: Answer[] = [];
let received: { method: string; url: string; at: number }[] = [];

const OK = { result: 'success', msg: '' };
const envelope = (code: string, extra: Record<string, unknown> = {}) => ({ result: 'error', msg: code.toLowerCase(), code, ...extra });

function answer(req: IncomingMessage, res: ServerResponse): void {
  received.push({ method: req.method ?? '', url: req.url ?? '', at: Date.now() });
  req.resume();
  req.on('end', () => {
    const next = script.shift() ?? { status: 200, body: OK };
    if (next === 'destroy') {
      res.socket?.destroy();
      return;
    }
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(JSON.stringify(next.body ?? OK));
  });
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  script = [];
  received = [];
});

const connect = (options: Partial<ClientOptions> = {}) =>
  createClient({ baseUrl, email: 'member@example.com', apiKey: 'k', ...options });
const retry = { attempts: 4, baseDelayMs: 5, maxDelayMs: 2000 };

describe('retries', () => {
  it('are off by default', async () => {
    script = [{ status: 503, body: envelope('INTERNAL_ERROR') }];
    const error = await connect().getOwnUser().catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    expect(received).toHaveLength(1);
  });

  it('honour Retry-After in seconds on 429, then return the success', async () => {
    script = [{ status: 429, headers: { 'retry-after': '1' }, body: envelope('RATE_LIMIT_HIT', { 'retry-after': 1 }) }];
    const started = Date.now();
    const body = await connect({ retry }).getOwnUser();
    expect(body).toEqual(OK);
    expect(received).toHaveLength(2);
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('honour Retry-After as an HTTP date', async () => {
    const until = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000);
    script = [{ status: 429, headers: { 'retry-after': until.toUTCString() }, body: envelope('RATE_LIMIT_HIT', { 'retry-after': 1 }) }];
    await connect({ retry }).getOwnUser();
    expect(received).toHaveLength(2);
    expect(received[1]!.at).toBeGreaterThanOrEqual(until.getTime() - 20);
  });

  it('retry 502, 503 and 504 for idempotent methods, up to the number of attempts', async () => {
    script = [502, 503, 504].map((status) => ({ status, body: envelope('INTERNAL_ERROR') }));
    expect(await connect({ retry }).getOwnUser()).toEqual(OK);
    expect(received.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET']);

    received = [];
    script = [503, 503, 503, 503, 503].map((status) => ({ status, body: envelope('INTERNAL_ERROR') }));
    const error = await connect({ retry }).getOwnUser().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 503 });
    expect(received).toHaveLength(4);
  });

  it('retry non-idempotent requests only on 429', async () => {
    script = [{ status: 503, body: envelope('INTERNAL_ERROR') }];
    const error = await connect({ retry }).updateStatus({ status_text: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 503 });
    expect(received).toHaveLength(1);

    received = [];
    script = [{ status: 429, headers: { 'retry-after': '0' }, body: envelope('RATE_LIMIT_HIT', { 'retry-after': 0 }) }];
    expect(await connect({ retry }).updateStatus({ status_text: 'x' })).toEqual(OK);
    expect(received.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('retry a connection that failed before anything was sent, for idempotent methods only', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    const refused = { baseUrl: `http://127.0.0.1:${port}`, fetch: counting, retry };
    const error = await connect(refused).getOwnUser().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).kind).toBe('network');
    expect(calls).toBe(4);

    calls = 0;
    await connect(refused).updateStatus({ status_text: 'x' }).catch((e: unknown) => e);
    expect(calls).toBe(1);
  });

  it('do not retry a request the connection lost after sending it', async () => {
    script = ['destroy'];
    const error = await connect({ retry }).getOwnUser().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(received).toHaveLength(1);
  });

  it('stay within timeoutMs: a Retry-After past the deadline ends the retries with the last answer', async () => {
    script = [{ status: 429, headers: { 'retry-after': '5' }, body: envelope('RATE_LIMIT_HIT', { 'retry-after': 5 }) }];
    const started = Date.now();
    const error = await connect({ retry: { attempts: 3, maxDelayMs: 10_000 }, timeoutMs: 1000 }).getOwnUser().catch((e: unknown) => e);
    expect(isApiError(error, 'RATE_LIMIT_HIT')).toBe(true);
    expect(received).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('end with the last answer when Retry-After exceeds maxDelayMs', async () => {
    script = [{ status: 429, headers: { 'retry-after': '120' }, body: envelope('RATE_LIMIT_HIT', { 'retry-after': 120 }) }];
    const error = await connect({ retry }).getOwnUser().catch((e: unknown) => e);
    expect(isApiError(error, 'RATE_LIMIT_HIT')).toBe(true);
    expect(received).toHaveLength(1);
  });

  it("stop waiting when the caller's signal aborts", async () => {
    script = [{ status: 429, headers: { 'retry-after': '1' }, body: envelope('RATE_LIMIT_HIT', { 'retry-after': 1 }) }];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await connect({ retry }).getOwnUser({}, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(900);
    expect(received).toHaveLength(1);
  });

  it('back off exponentially with jitter, capped by maxDelayMs', () => {
    const options = { attempts: 10, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, options, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, options, () => 0))).toEqual([50, 100, 200, 400, 500]);
    const spread = new Set(Array.from({ length: 20 }, () => retryDelay(3, options)));
    expect(spread.size).toBeGreaterThan(1);
    for (const delay of spread) expect(delay >= 200 && delay <= 400).toBe(true);
  });
});
