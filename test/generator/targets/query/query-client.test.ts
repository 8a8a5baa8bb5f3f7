/**
 * The committed `generated/query.ts` with a real `QueryClient` of
 * `@tanstack/query-core`, against the mock server (the spec's examples
 * behind the real bindings and decoders) over real HTTP.
 */
import { MutationObserver, QueryClient, QueryObserver, hashKey, isCancelledError } from '@tanstack/query-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../../../generated/client/connect.js';
import { getMessage } from '../../../../generated/client/operations/get-message.js';
import { isApiError } from '../../../../generated/client.js';
import {
  getMessageQueryKey,
  getMessageQueryOptions,
  getOwnUserQueryKey,
  getOwnUserQueryOptions,
  updateStatusMutationOptions,
  type ClientError,
} from '../../../../generated/query.js';
import { listenMock } from '../../../../server/mock.js';

let close: () => Promise<unknown>;
let baseUrl: string;

beforeAll(async () => {
  const { app, url } = await listenMock({ host: '127.0.0.1', port: 0 });
  close = () => app.close();
  baseUrl = url;
});

afterAll(async () => {
  await close();
});

/** A connection whose requests are counted (and, with `hold`, kept waiting until their signal aborts). */
function counted(options: { hold?: boolean } = {}) {
  const requests: { url: string; signal: AbortSignal | undefined }[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const signal = init?.signal ?? undefined;
    requests.push({ url: String(input), signal });
    if (options.hold !== true) return globalThis.fetch(input, init);
    return new Promise((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  const connection = connect({ baseUrl, email: 'member@example.com', apiKey: 'gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1', validateResponses: 'strict', fetch });
  return { connection, requests };
}

let client: QueryClient;
beforeAll(() => {
  client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  client.mount();
});
afterEach(() => client.clear());
afterAll(() => client.unmount());

describe('query options against the mock server', () => {
  it("fetchQuery on a read resolves to the mock's body, as the client function does", async () => {
    const { connection, requests } = counted();
    const params = { message_id: 101, apply_markdown: false };
    const data = await client.fetchQuery(getMessageQueryOptions(connection, params));
    expect(data.result).toBe('success');
    expect(data.message.id).toBeTypeOf('number');
    expect(data).toEqual(await getMessage(connection, params));
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/messages/101', '/api/v1/messages/101']);
    expect(client.getQueryData(getMessageQueryKey(params))).toEqual(data);
  });

  it('keys a read by [operationId, params], the same whatever the order of the params', async () => {
    const { connection, requests } = counted();
    expect(getMessageQueryKey({ message_id: 101, apply_markdown: false })).toEqual(['get-message', { message_id: 101, apply_markdown: false }]);
    expect(hashKey(getMessageQueryKey({ apply_markdown: false, message_id: 101 }))).toBe(hashKey(getMessageQueryKey({ message_id: 101, apply_markdown: false })));
    expect(hashKey(getMessageQueryKey({ message_id: 101 }))).not.toBe(hashKey(getMessageQueryKey({ message_id: 102 })));
    // An operation without parameters: called with none or with `{}`, one entry.
    expect(getOwnUserQueryKey()).toEqual(['get-own-user', {}]);
    expect(hashKey(getOwnUserQueryKey())).toBe(hashKey(getOwnUserQueryKey({})));

    await client.fetchQuery(getMessageQueryOptions(connection, { message_id: 101, apply_markdown: false }));
    await client.fetchQuery(getMessageQueryOptions(connection, { apply_markdown: false, message_id: 101 }));
    expect(requests).toHaveLength(1);
    expect(client.getQueryCache().findAll({ queryKey: ['get-message'] })).toHaveLength(1);
  });

  it('refetches an observed query invalidated through its key helper, and only that one', async () => {
    const { connection, requests } = counted();
    const observed = new QueryObserver(client, getMessageQueryOptions(connection, { message_id: 101 }));
    const other = new QueryObserver(client, getOwnUserQueryOptions(connection));
    const unsubscribe = [observed.subscribe(() => {}), other.subscribe(() => {})];
    await observed.refetch();
    await other.refetch();
    const before = requests.length;

    await client.invalidateQueries({ queryKey: getMessageQueryKey({ message_id: 101 }) });
    expect(requests.slice(before).map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/messages/101']);
    // A prefix of the key reaches every query of the operation.
    await client.invalidateQueries({ queryKey: ['get-own-user'] });
    expect(requests.slice(before).map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/messages/101', '/api/v1/users/me']);
    expect(observed.getCurrentResult().data?.result).toBe('success');
    unsubscribe.forEach((stop) => stop());
  });

  it('cancels the request through the signal TanStack Query hands the query function', async () => {
    const { connection, requests } = counted({ hold: true });
    const options = getMessageQueryOptions(connection, { message_id: 101 });
    const pending = client.fetchQuery(options).catch((error: unknown) => error);
    await expect.poll(() => requests.length).toBe(1);
    expect(requests[0]!.signal?.aborted).toBe(false);
    await client.cancelQueries({ queryKey: options.queryKey });
    expect(requests[0]!.signal?.aborted).toBe(true);
    expect(isCancelledError(await pending)).toBe(true);
  });

  it('aborts through a signal of the request options too', async () => {
    const { connection, requests } = counted({ hold: true });
    const controller = new AbortController();
    const pending = client.fetchQuery(getMessageQueryOptions(connection, { message_id: 101 }, { signal: controller.signal })).catch((error: unknown) => error);
    await expect.poll(() => requests.length).toBe(1);
    controller.abort();
    expect(requests[0]!.signal?.aborted).toBe(true);
    const error = await pending;
    expect(isApiError(error)).toBe(false);
    expect(error).toMatchObject({ name: 'TransportError', kind: 'aborted' });
  });

  it('runs a mutation through MutationObserver and resolves to its body', async () => {
    const { connection, requests } = counted();
    const observer = new MutationObserver(client, updateStatusMutationOptions(connection));
    const body = await observer.mutate({ status_text: 'In a meeting' });
    expect(body.result).toBe('success');
    expect(observer.getCurrentResult().status).toBe('success');
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/users/me/status']);
    expect(client.isMutating({ mutationKey: ['update-status'] })).toBe(0);
  });

  it('fails a mutation with the client error, narrowable by code', async () => {
    const { connection } = counted();
    const mutation = client.getMutationCache().build(client, updateStatusMutationOptions(connection));
    const error: ClientError = await mutation.execute({ status_text: 'x'.repeat(61) }).then(
      () => {
        throw new Error('the mutation succeeded');
      },
      (e: ClientError) => e,
    );
    expect(isApiError(error, 'BAD_REQUEST')).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(error.message).toContain('status_text');
    expect(mutation.state.status).toBe('error');
    expect(mutation.state.error).toBe(error);
  });
});
