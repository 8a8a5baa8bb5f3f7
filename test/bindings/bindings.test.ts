import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH, basic, CREDENTIALS, fixtureApp, type FixtureApp } from './fixture/app.js';

let fixture: FixtureApp;
let app: FastifyInstance;

beforeAll(async () => {
  fixture = await fixtureApp(4096);
  app = fixture.app;
  await app.ready();
});
afterAll(async () => {
  await app.close();
});
beforeEach(() => {
  fixture.calls.length = 0;
  fixture.logs.length = 0;
});

async function call(options: InjectOptions) {
  const response = await app.inject({ ...options, headers: { authorization: AUTH, ...options.headers } });
  return { status: response.statusCode, headers: response.headers, body: response.json() as Record<string, unknown> };
}

function form(fields: Record<string, string>) {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  };
}

/** A multipart body as FormData would send it. */
async function multipart(build: (data: FormData) => void) {
  const data = new FormData();
  build(data);
  const encoded = new Response(data);
  return {
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
    payload: Buffer.from(await encoded.arrayBuffer()),
  };
}

function lastCall() {
  return fixture.calls.at(-1);
}

describe('success envelope and parameters', () => {
  it('decodes path and query parameters of a GET and wraps the result', async () => {
    const response = await call({ method: 'GET', url: '/api/v1/messages/104?apply_markdown=false' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      result: 'success',
      msg: '',
      message: { id: 104, content: 'Lunch?' },
      raw_content: CREDENTIALS.email,
    });
    expect(lastCall()).toEqual({
      operation: 'getMessage',
      params: { message_id: 104, apply_markdown: false },
      user: { id: 5, email: CREDENTIALS.email },
    });
  });

  it.each([
    ['PATCH', '/api/v1/streams/2?description=Backend%20work', 'updateStream', { stream_id: 2, description: 'Backend work' }],
    ['DELETE', '/api/v1/messages/101/reactions?emoji_name=tada', 'removeReaction', { message_id: 101, emoji_name: 'tada' }],
    ['POST', '/api/v1/fetch_api_key?username=member%40example.com&password=demo1234', 'fetchApiKey', { username: CREDENTIALS.email, password: 'demo1234' }],
  ])('takes query-string parameters on %s', async (method, url, operation, params) => {
    const response = await call({ method: method as 'PATCH', url });
    expect(response.status).toBe(200);
    expect(lastCall()).toMatchObject({ operation, params });
  });

  it('takes an urlencoded body on PATCH, JSON-encoded fields included', async () => {
    const response = await call({
      method: 'PATCH',
      url: '/api/v1/streams/2',
      ...form({ description: 'A + B & C', folder_id: 'null' }),
    });
    expect(response.body).toEqual({ result: 'success', msg: '' });
    expect(lastCall()?.params).toEqual({ stream_id: 2, description: 'A + B & C', folder_id: null });
  });

  it('takes an urlencoded body on DELETE', async () => {
    await call({ method: 'DELETE', url: '/api/v1/messages/101/reactions', ...form({ emoji_name: 'tada' }) });
    expect(lastCall()?.params).toEqual({ message_id: 101, emoji_name: 'tada' });
  });

  it('takes multipart text fields, a part declared application/json included', async () => {
    // Built by hand: FormData cannot give a text part its own Content-Type.
    const boundary = '----teamchat';
    const payload = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="description"',
      '',
      'From multipart',
      `--${boundary}`,
      'Content-Disposition: form-data; name="folder_id"',
      'Content-Type: application/json',
      '',
      '1',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const response = await call({
      method: 'PATCH',
      url: '/api/v1/streams/2',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(response.status).toBe(200);
    expect(lastCall()?.params).toEqual({ stream_id: 2, description: 'From multipart', folder_id: 1 });
  });

  it('lists parameters the operation does not take in ignored_parameters_unsupported', async () => {
    const response = await call({ method: 'GET', url: '/api/v1/messages/101?zeta=1&alpha=2' });
    expect(response.status).toBe(200);
    expect(response.body.ignored_parameters_unsupported).toEqual(['alpha', 'zeta']);
  });

  it('reads urlencoded fields as sent: repeated, empty, with = in the value, named like Object.prototype properties', async () => {
    const payload = 'description=a%3Db+c=d&&constructor=1&__proto__=2&toString&description=again';
    const response = await call({ method: 'PATCH', url: '/api/v1/streams/3', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'BAD_REQUEST', msg: expect.stringContaining('description') });
    const single = await call({ method: 'PATCH', url: '/api/v1/streams/3', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'description=a%3Db+c=d&&constructor=1&__proto__=2&toString' });
    expect(single.status).toBe(200);
    expect(lastCall()?.params).toEqual({ stream_id: 3, description: 'a=b c=d' });
  });

  it('answers a broken percent-escape in an urlencoded body with 400', async () => {
    const response = await call({ method: 'PATCH', url: '/api/v1/streams/3', ...form({}), payload: 'description=%zz' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'BAD_REQUEST', msg: expect.stringContaining('percent-encoding') });
  });

  it('leaves ignored_parameters_unsupported out when every parameter is known', async () => {
    const response = await call({ method: 'GET', url: '/api/v1/messages/101' });
    expect(response.body).not.toHaveProperty('ignored_parameters_unsupported');
  });
});

describe('upload', () => {
  it('takes the single file part whatever its field name', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/v1/user_uploads',
      ...(await multipart((data) => data.append('attachment', new Blob(['%PDF-1.7'], { type: 'application/pdf' }), 'release-notes.pdf'))),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      result: 'success',
      msg: '',
      url: '/user_uploads/1/4e/kJ3m9xQ2/release-notes.pdf',
      uri: '/user_uploads/1/4e/kJ3m9xQ2/release-notes.pdf',
      filename: 'release-notes.pdf:8:application/pdf',
    });
  });

  it.each([
    ['no file', (data: FormData) => data.append('note', 'no file here'), /got 0/],
    [
      'two files',
      (data: FormData) => {
        data.append('file', new Blob(['a']), 'a.txt');
        data.append('file', new Blob(['b']), 'b.txt');
      },
      /got 2/,
    ],
  ])('refuses %s with BAD_REQUEST', async (_case, build, message) => {
    const response = await call({ method: 'POST', url: '/api/v1/user_uploads', ...(await multipart(build)) });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(response.body.msg).toMatch(message);
  });

  it('refuses an upload sent as an urlencoded body', async () => {
    const response = await call({ method: 'POST', url: '/api/v1/user_uploads', ...form({ file: 'text' }) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
  });
});

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined, /Missing/],
    ['another scheme', 'Bearer abc', /Malformed Authorization/],
    ['credentials without a colon', `Basic ${Buffer.from('member@example.com').toString('base64')}`, /email:api_key/],
    ['a wrong API key', basic(CREDENTIALS.email, 'wrong'), /Invalid email or API key/],
    ['an unknown email', basic('nobody@example.com', CREDENTIALS.apiKey), /Invalid email or API key/],
  ])('answers %s with 401 UNAUTHORIZED and a Basic challenge', async (_case, authorization, message) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="teamchat"');
    const body = response.json();
    expect(body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    expect(body.msg).toMatch(message);
    expect(fixture.calls).toEqual([]);
  });

  it('checks credentials before reading the body', async () => {
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/v1/streams/2',
      headers: { 'content-type': 'application/json' },
      payload: '{"description": "x"}',
    });
    expect(response.statusCode).toBe(401);
  });

  it('needs no credentials for an operation without authentication, and gives it no user', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/fetch_api_key',
      ...form({ username: CREDENTIALS.email, password: 'demo1234' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ result: 'success', msg: '', api_key: CREDENTIALS.apiKey, email: CREDENTIALS.email, user_id: 5 });
    expect(lastCall()?.user).toBeUndefined();
  });
});

describe('errors', () => {
  it('answers a decode error with 400 BAD_REQUEST and the decoder message', async () => {
    const response = await call({ method: 'GET', url: '/api/v1/messages/abc' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ result: 'error', msg: "'message_id' is not an integer", code: 'BAD_REQUEST' });
    expect(fixture.calls).toEqual([]);
  });

  it('turns a thrown ApiError into its envelope, extra fields and status', async () => {
    const response = await call({ method: 'PATCH', url: '/api/v1/streams/9', ...form({ description: 'x' }) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ result: 'error', msg: 'Channel does not exist', code: 'STREAM_DOES_NOT_EXIST', stream_id: 9 });
  });

  it('uses the status of the code from the error table', async () => {
    const response = await call({ method: 'DELETE', url: '/api/v1/messages/101/reactions', ...form({ emoji_name: 'octopus' }) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ result: 'error', msg: 'Reaction does not exist', code: 'REACTION_DOES_NOT_EXIST' });
  });

  it('answers an unexpected exception with 500 INTERNAL_ERROR, logged, without details', async () => {
    const response = await call({ method: 'GET', url: '/api/v1/messages/500' });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(response.body)).not.toMatch(/hunter2|at .*\.ts/);
    expect(fixture.logs.join('')).toMatch(/database password is hunter2/);
  });

  it('answers a handler that rejects with something other than an Error with 500 INTERNAL_ERROR, logged', async () => {
    const response = await call({ method: 'GET', url: '/api/v1/messages/502' });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_ERROR' });
    expect(fixture.logs.join('')).toMatch(/connection reset/);
  });

  it('turns an ApiError thrown by the handler of a multipart request into its envelope', async () => {
    const body = await multipart((data) => data.append('description', 'x'));
    const response = await call({ method: 'PATCH', url: '/api/v1/streams/9', ...body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ result: 'error', msg: 'Channel does not exist', code: 'STREAM_DOES_NOT_EXIST', stream_id: 9 });
  });

  it('answers a decode error of a multipart request with 400 BAD_REQUEST before the handler runs', async () => {
    const body = await multipart((data) => data.append('folder_id', 'not json'));
    const response = await call({ method: 'PATCH', url: '/api/v1/streams/10', ...body });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(fixture.calls).toEqual([]);
  });

  it('answers an unknown path under the base path with 404 NOT_FOUND', async () => {
    const response = await call({ method: 'GET', url: '/api/v1/no/such/thing' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ result: 'error', msg: 'No operation at /api/v1/no/such/thing', code: 'NOT_FOUND' });
  });

  it.each([
    ['GET', '/api/v1/streams/2', 'PATCH'],
    ['POST', '/api/v1/messages/101', 'GET, HEAD'],
    ['PUT', '/api/v1/messages/101/reactions?x=1', 'DELETE'],
  ])('answers %s %s with 405 METHOD_NOT_ALLOWED and Allow: %s', async (method, url, allow) => {
    const response = await call({ method: method as 'GET', url });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.body).toMatchObject({ result: 'error', code: 'METHOD_NOT_ALLOWED' });
  });

  it('leaves routes outside the base path to the application', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ ok: true });
    const outside = await app.inject({ method: 'GET', url: '/elsewhere' });
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).not.toHaveProperty('result');
  });
});

describe('bodies', () => {
  it('answers an urlencoded body over the limit with 413 REQUEST_TOO_LARGE', async () => {
    const response = await call({ method: 'PATCH', url: '/api/v1/streams/2', ...form({ description: 'x'.repeat(5000) }) });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ result: 'error', code: 'REQUEST_TOO_LARGE' });
  });

  it('answers an uploaded file over the limit with 413 REQUEST_TOO_LARGE', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/v1/user_uploads',
      ...(await multipart((data) => data.append('file', new Blob([new Uint8Array(5000)]), 'big.bin'))),
    });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('REQUEST_TOO_LARGE');
  });

  it.each([
    ['a broken percent-escape', 'application/x-www-form-urlencoded', 'description=%E0%A4%A', /percent-encoding/],
    ['a JSON body', 'application/json', '{"description":"x"}', /JSON request bodies are not accepted/],
    ['a text body', 'text/plain', 'description=x', /Unsupported Content-Type "text\/plain"/],
    ['a truncated multipart body', 'multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nval', /multipart/],
    ['a multipart body without boundary', 'multipart/form-data', 'whatever', /multipart/i],
  ])('answers %s with 400 BAD_REQUEST', async (_case, contentType, payload, message) => {
    const response = await call({
      method: 'PATCH',
      url: '/api/v1/streams/2',
      headers: { 'content-type': contentType },
      payload,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(response.body.msg).toMatch(message);
    expect(fixture.calls).toEqual([]);
  });

  it('prefers 404 over refusing the body of an unknown path', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/v1/nothing',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.status).toBe(404);
  });
});

describe('over real HTTP', () => {
  it('serves form and multipart requests from fetch on a loopback port', async () => {
    const served = await fixtureApp();
    const address = await served.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const patch = await fetch(`${address}/api/v1/streams/3`, {
        method: 'PATCH',
        headers: { authorization: AUTH },
        body: new URLSearchParams({ description: 'Design reviews', folder_id: '1', extra: 'x' }),
      });
      expect(patch.status).toBe(200);
      expect(await patch.json()).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['extra'] });
      expect(served.calls.at(-1)?.params).toEqual({ stream_id: 3, description: 'Design reviews', folder_id: 1 });

      const upload = new FormData();
      upload.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
      const uploaded = await fetch(`${address}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: AUTH }, body: upload });
      expect(uploaded.status).toBe(200);
      expect((await uploaded.json()).filename).toBe('hello.txt:5:text/plain');
    } finally {
      await served.app.close();
    }
  });
});

describe('response validation', () => {
  it('answers a success body the spec does not list with 500 and logs why, when asked to validate', async () => {
    const checked = await fixtureApp(4096, true);
    try {
      const ok = await checked.app.inject({ method: 'GET', url: '/api/v1/messages/101', headers: { authorization: AUTH } });
      expect(ok.statusCode).toBe(200);
      const bad = await checked.app.inject({ method: 'GET', url: '/api/v1/messages/501', headers: { authorization: AUTH } });
      expect(bad.statusCode).toBe(500);
      expect(bad.json()).toEqual({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_ERROR' });
      expect(checked.logs.join('')).toMatch(/get-message: the handler's result does not match the spec: \$\.secret_field is not a listed property/);
    } finally {
      await checked.app.close();
    }
  });

  it('sends unlisted fields unchecked by default', async () => {
    const response = await call({ method: 'GET', url: '/api/v1/messages/501' });
    expect(response.status).toBe(200);
    expect(response.body.secret_field).toBe(1);
  });
});
