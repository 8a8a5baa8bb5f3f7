import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderClient } from '../../../../generator/targets/client/index.js';
import { fixtureModel } from '../../../fixtures/client/model.js';
import { emitClient, removeEmitted, fixtureCompanions, importModule, json, recordingFetch, root } from '../../../fixtures/client/harness.js';

afterAll(removeEmitted);

/* eslint-disable @typescript-eslint/no-explicit-any -- the client is emitted at test time, so its module is untyped here */
type Loaded = Record<string, any>;

const baseUrl = 'http://127.0.0.1:9991';
const email = 'dana@example.com';
const apiKey = 'gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1';
// Computed independently of the client (Buffer instead of btoa).
const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`, 'utf8').toString('base64')}`;

let mod: Loaded;
let validators: Loaded;

beforeAll(async () => {
  const dir = emitClient(fixtureModel, fixtureCompanions());
  mod = await importModule<Loaded>(dir, 'client.ts');
  validators = await importModule<Loaded>(dir, 'validators.ts');
});

function client(options: Record<string, unknown> = {}, respond?: Parameters<typeof recordingFetch>[0]) {
  const recorder = recordingFetch(respond);
  return { api: mod.createClient({ baseUrl, email, apiKey, fetch: recorder.fetch, ...options }), ...recorder };
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('client output', () => {
  it('is deterministic and matches the golden file', async () => {
    const ctx = { model: fixtureModel, templatesDir: `${root}/templates`, command: 'npm run generate' };
    const first = renderClient(ctx);
    expect(renderClient(ctx)).toEqual(first);
    await expect(first.get('client.ts')).toMatchFileSnapshot('../../../fixtures/client/out/client.ts');
    await expect(first.get('client/connect.ts')).toMatchFileSnapshot('../../../fixtures/client/out/client/connect.ts');
    await expect(first.get('client/operations/get-message.ts')).toMatchFileSnapshot('../../../fixtures/client/out/client/operations/get-message.ts');
    await expect(first.get('client/checks/get-message.ts')).toMatchFileSnapshot('../../../fixtures/client/out/client/checks/get-message.ts');
  });
});

describe('wire encoding', () => {
  it('sends GET parameters in the query string, JSON-encoding lists, skipping undefined', async () => {
    const { api, requests } = client({ baseUrl: `${baseUrl}/` });
    await api.getMessage({ message_id: 101, apply_markdown: false, allow_empty_topic_name: undefined, anchor_ids: [1, 2] });
    expect(requests).toEqual([
      {
        method: 'GET',
        url: 'http://127.0.0.1:9991/api/v1/messages/101?apply_markdown=false&anchor_ids=%5B1%2C2%5D',
        headers: { accept: 'application/json', authorization: basic(email, apiKey) },
        body: undefined,
      },
    ]);
  });

  it('sends a form body with plain and JSON fields in spec order, null as null', async () => {
    const { api, requests } = client();
    await api.updateStream({
      can_add_subscribers_group: { new: { direct_members: [5], direct_subgroups: [9] } },
      topics_policy: 'empty_topic_only',
      folder_id: null,
      message_retention_days: 'unlimited',
      description: 'Ship it & café',
      stream_id: 2,
    });
    expect(requests).toEqual([
      {
        method: 'PATCH',
        url: 'http://127.0.0.1:9991/api/v1/streams/2',
        headers: {
          accept: 'application/json',
          authorization: basic(email, apiKey),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body:
          'description=Ship+it+%26+caf%C3%A9&message_retention_days=%22unlimited%22&folder_id=null' +
          '&topics_policy=empty_topic_only' +
          '&can_add_subscribers_group=%7B%22new%22%3A%7B%22direct_members%22%3A%5B5%5D%2C%22direct_subgroups%22%3A%5B9%5D%7D%7D',
      },
    ]);
  });

  it('URL-encodes path parameters', async () => {
    const { api, requests } = client();
    await api.updateRealmDomain({ domain: 'example.com/a b?', allow_subdomains: true });
    expect(requests[0]!.url).toBe('http://127.0.0.1:9991/api/v1/realm/domains/example.com%2Fa%20b%3F');
    expect(requests[0]!.body).toBe('allow_subdomains=true');
  });

  it('sends a DELETE body and odd parameter names as they are', async () => {
    const { api, requests } = client();
    await api.removeReaction({ message_id: 101, emoji_name: 'tada', "odd'name\\x": 'y' });
    expect(requests[0]).toMatchObject({ method: 'DELETE', body: "emoji_name=tada&odd%27name%5Cx=y" });
  });

  it('serves an operation whose method name is a reserved word', async () => {
    const { api, requests } = client();
    await api.delete({ widget_id: 7 });
    expect([requests[0]!.method, requests[0]!.url]).toEqual(['DELETE', 'http://127.0.0.1:9991/api/v1/widgets/7']);
  });

  it('sends no Authorization header where the operation needs none', async () => {
    const { api, requests } = client();
    await api.fetchApiKey({ username: 'owner@example.com', password: 'demo1234' });
    expect(requests[0]!.headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(requests[0]!.body).toBe('username=owner%40example.com&password=demo1234');
  });

  it('sends no body for an operation without parameters', async () => {
    const { api, requests } = client();
    await api.createVideoCall();
    expect(requests[0]).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:9991/api/v1/calls/videocall/create',
      headers: { accept: 'application/json', authorization: basic(email, apiKey) },
      body: undefined,
    });
  });

  it('encodes credentials as UTF-8 before base64', async () => {
    const { api, requests } = client({ email: 'zoë@example.com', apiKey: 'ключ' });
    await api.getOwnUser();
    expect(requests[0]!.headers['authorization']).toBe(basic('zoë@example.com', 'ключ'));
  });

  it('sends an upload as multipart with the file name and type, letting fetch set the boundary', async () => {
    const { api, requests } = client();
    await api.uploadFile({ file: { filename: 'notes.txt', contentType: 'text/plain', data: new TextEncoder().encode('hi') } });
    const [request] = requests;
    expect(request!.headers).toEqual({ accept: 'application/json', authorization: basic(email, apiKey) });
    const entries = request!.body as [string, File][];
    expect(entries.map(([name]) => name)).toEqual(['file']);
    const file = entries[0]![1];
    expect([file.name, file.type, await file.text()]).toEqual(['notes.txt', 'text/plain', 'hi']);
  });

  it('keeps a Blob as it is and defaults bytes to application/octet-stream', async () => {
    const { api, requests } = client();
    await api.uploadFile({ file: { filename: 'a.png', data: new Blob(['png'], { type: 'image/png' }) } });
    await api.uploadFile({ file: { filename: 'b.bin', data: Buffer.from([1, 2]) } });
    const files = requests.map((r) => (r.body as [string, File][])[0]![1]);
    expect(files.map((f) => [f.name, f.type, f.size])).toEqual([
      ['a.png', 'image/png', 3],
      ['b.bin', 'application/octet-stream', 2],
    ]);
  });

  it('puts a multipart upload on the wire that a server can read', async () => {
    let received: { type: string | undefined; body: string } | undefined;
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received = { type: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ result: 'success', msg: '', url: '/u/notes.txt', uri: '/u/notes.txt', filename: 'notes.txt' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const api = mod.createClient({ baseUrl: `http://127.0.0.1:${port}`, email, apiKey });
      const result = await api.uploadFile({ file: { filename: 'notes.txt', data: new TextEncoder().encode('release notes') } });
      expect(result.filename).toBe('notes.txt');
      expect(received!.type).toMatch(/^multipart\/form-data; boundary=/);
      expect(received!.body).toContain('Content-Disposition: form-data; name="file"; filename="notes.txt"');
      expect(received!.body).toContain('release notes');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('errors', () => {
  it('throws ApiError with the code, message and extra fields of a known code', async () => {
    const body = { result: 'error', msg: 'Invalid channel ID', code: 'STREAM_DOES_NOT_EXIST', stream_id: 99 };
    const { api } = client({}, () => json(400, body));
    const error = await rejection(api.updateStream({ stream_id: 99 }));
    expect(error).toBeInstanceOf(mod.ApiError);
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.status, error.code, error.msg, error.stream_id, error.operation]).toEqual([
      'ApiError', 400, 'STREAM_DOES_NOT_EXIST', 'Invalid channel ID', 99, 'updateStream',
    ]);
    expect(error.body).toEqual(body);
    expect(error.result).toBeUndefined();
    expect(mod.isApiError(error, 'STREAM_DOES_NOT_EXIST')).toBe(true);
    expect(mod.isApiError(error, 'BAD_REQUEST')).toBe(false);
    expect(error.is('STREAM_DOES_NOT_EXIST')).toBe(true);
    expect(mod.isApiError(new Error('x'))).toBe(false);
  });

  it('keeps codes the spec does not know, with the raw body', async () => {
    const body = { result: 'error', msg: 'Slow down', code: 'SOMETHING_NEW', hint: 3 };
    const { api } = client({}, () => json(400, body));
    const error = await rejection(api.getOwnUser());
    expect([error.code, error.hint, error.body]).toEqual(['SOMETHING_NEW', 3, body]);
  });

  it('does not let body fields overwrite the error’s own properties', async () => {
    const body = { result: 'error', msg: 'x', code: 'BAD_REQUEST', status: 'shadow', message: 'shadow' };
    const { api } = client({}, () => json(400, body));
    const error = await rejection(api.getOwnUser());
    expect(error.status).toBe(400);
    expect(error.message).toBe('getOwnUser failed with BAD_REQUEST (HTTP 400): x');
  });

  it('treats result "error" as an error even with a 200 status', async () => {
    const { api } = client({}, () => json(200, { result: 'error', msg: 'no', code: 'BAD_REQUEST' }));
    expect((await rejection(api.getOwnUser())).code).toBe('BAD_REQUEST');
  });

  it.each([
    ['an HTML page', 502, '<html><body>Bad gateway</body></html>', '<html><body>Bad gateway</body></html>'],
    ['a JSON array', 200, '[1,2]', '[1,2]'],
    ['JSON null', 200, 'null', 'null'],
    ['an error object without a code', 500, '{"message":"boom"}', '{"message":"boom"}'],
  ])('throws TransportError for %s', async (_case, status, text, excerpt) => {
    const { api } = client({}, () => new Response(text, { status }));
    const error = await rejection(api.getOwnUser());
    expect(error).toBeInstanceOf(mod.TransportError);
    expect([error.kind, error.status, error.bodyExcerpt]).toEqual(['invalid-body', status, excerpt]);
  });

  it('cuts the body excerpt to 200 characters', async () => {
    const { api } = client({}, () => new Response('x'.repeat(5000), { status: 500 }));
    expect((await rejection(api.getOwnUser())).bodyExcerpt).toHaveLength(200);
  });

  it('throws TransportError for a network failure', async () => {
    const cause = new TypeError('fetch failed');
    const api = mod.createClient({ baseUrl, email, apiKey, fetch: async () => Promise.reject(cause) });
    const error = await rejection(api.getOwnUser());
    expect([error.name, error.kind, error.status, error.cause]).toEqual(['TransportError', 'network', undefined, cause]);
  });

  it('throws TransportError on a real refused connection', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const api = mod.createClient({ baseUrl: `http://127.0.0.1:${port}`, email, apiKey });
    expect((await rejection(api.getOwnUser())).kind).toBe('network');
  });

  /** A fetch that never answers until aborted, like a hung server. */
  const hangingFetch = (_url: unknown, init: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });

  it('throws TransportError after timeoutMs', async () => {
    const api = mod.createClient({ baseUrl, email, apiKey, fetch: hangingFetch, timeoutMs: 20 });
    const started = Date.now();
    const error = await rejection(api.getOwnUser());
    expect([error.kind, error.message]).toEqual(['timeout', 'getOwnUser: no answer within 20 ms']);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('throws TransportError when the caller aborts', async () => {
    const api = mod.createClient({ baseUrl, email, apiKey, fetch: hangingFetch });
    const controller = new AbortController();
    const pending = api.getOwnUser(undefined, { signal: controller.signal });
    controller.abort();
    expect((await rejection(pending)).kind).toBe('aborted');
  });
});

describe('feature levels', () => {
  it('refuses an operation newer than featureLevel before sending', async () => {
    const { api, requests } = client({ featureLevel: 492 });
    const error = await rejection(api.createVideoCall());
    expect(error).toBeInstanceOf(mod.UnsupportedFeatureError);
    expect([error.operation, error.parameter, error.requiredLevel, error.serverLevel]).toEqual([
      'createVideoCall', undefined, 493, 492,
    ]);
    expect(requests).toEqual([]);
  });

  it('refuses a passed parameter newer than featureLevel before sending', async () => {
    const { api, requests } = client({ featureLevel: 391 });
    const error = await rejection(api.updateStream({ stream_id: 1, topics_policy: 'inherit' }));
    expect([error.parameter, error.requiredLevel, error.message]).toEqual([
      'topics_policy', 392, 'updateStream: parameter "topics_policy" needs feature level 392, the server is at 391',
    ]);
    expect(requests).toEqual([]);
  });

  it('sends when the newer parameter is absent or undefined, or the level is high enough', async () => {
    const { api, requests } = client({ featureLevel: 391 });
    await api.updateStream({ stream_id: 1, folder_id: null, topics_policy: undefined });
    await mod.createClient({ baseUrl, email, apiKey, fetch: recordingFetch().fetch, featureLevel: 493 }).createVideoCall();
    expect(requests.map((r) => r.body)).toEqual(['folder_id=null']);
  });
});

describe('validateResponses', () => {
  beforeEach(() => {
    validators.calls.length = 0;
  });

  it('does not load or call validators when off', async () => {
    const { api } = client({}, () => json(200, { result: 'success', msg: '', bad: 1 }));
    await expect(api.getOwnUser()).resolves.toEqual({ result: 'success', msg: '', bad: 1 });
    expect(validators.calls).toEqual([]);
  });

  it('returns a valid body and throws ResponseValidationError listing the issues of an invalid one', async () => {
    let body: object = { result: 'success', msg: '', url: 'x' };
    const { api } = client({ validateResponses: true }, () => json(200, body));
    await expect(api.createVideoCall()).resolves.toEqual(body);
    body = { result: 'success', msg: '', bad: true };
    const error = await rejection(api.createVideoCall());
    expect(error).toBeInstanceOf(mod.ResponseValidationError);
    expect([error.operation, error.status, error.issues, error.body]).toEqual([
      'createVideoCall', 200, [{ path: '$.bad', message: 'is not allowed here' }], body,
    ]);
    expect(validators.calls).toEqual([
      { validator: 'createVideoCall', options: { strict: false, allErrors: true } },
      { validator: 'createVideoCall', options: { strict: false, allErrors: true } },
    ]);
  });

  it("passes strict mode for 'strict'", async () => {
    const { api } = client({ validateResponses: 'strict' }, () => json(200, { result: 'success', msg: '', extra: 1 }));
    const error = await rejection(api.getOwnUser());
    expect(error.issues).toEqual([{ path: '$.extra', message: 'is not a listed property' }]);
    expect(validators.calls).toEqual([{ validator: 'getOwnUser', options: { strict: true, allErrors: true } }]);
  });

  it('checks error bodies by what the operation declares for their status, then throws ApiError when they pass', async () => {
    const good = { result: 'error', msg: 'x', code: 'BAD_REQUEST' };
    const bad = { ...good, bad: 1 };
    let body: object = good;
    const { api } = client({ validateResponses: true }, () => json(400, body));
    expect(await rejection(api.getOwnUser())).toBeInstanceOf(mod.ApiError);
    body = bad;
    expect(await rejection(api.getOwnUser())).toBeInstanceOf(mod.ResponseValidationError);
    expect(validators.calls.map((c: { validator: string }) => c.validator)).toEqual(['errorBody', 'errorBody']);
  });
});
