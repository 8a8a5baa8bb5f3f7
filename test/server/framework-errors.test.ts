import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

/** Raw HTTP, so malformed URLs and headers reach the server unchanged. */
function send(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('errors raised before any route runs answer in the envelope', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(async () => {
    await server?.close();
  });

  const auth = () => ({ authorization: `Basic ${Buffer.from(`${server.logins.member.email}:${server.logins.member.apiKey}`).toString('base64')}` });

  it.each([
    ['a malformed escape in a path parameter', '/api/v1/messages/%FF', 400],
    ['an invalid UTF-8 escape in a path parameter', '/api/v1/messages/%C3%28', 400],
    ['an over-long path parameter', `/api/v1/messages/${'9'.repeat(101)}`, 400],
  ])('%s', async (_case, path, status) => {
    const response = await send(server.url, path, auth());
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('an over-long request line answers 431 with the envelope', async () => {
    const response = await send(server.url, `/api/v1/users/me?x=${'a'.repeat(20_000)}`, auth());
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });
});
