import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../generated/client.js';
import { drivers, startTestServer, type TestServer } from '../support/server.js';

describe.each(drivers)('test server on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('authenticates every demo login with its API key', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      await expect(server.client(who).getLinkifiers()).resolves.toMatchObject({ result: 'success' });
    }
  });

  it('refuses a wrong API key with UNAUTHORIZED', async () => {
    const error = await server.client('member', { apiKey: 'x'.repeat(32) }).getLinkifiers().catch((e: unknown) => e);
    expect(isApiError(error, 'UNAUTHORIZED')).toBe(true);
  });

  it('serves the docs folder next to the API: HTML pages and, beside them, their markdown', async () => {
    const html = await fetch(`${server.url}/docs/reference/get-own-user.html`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(await html.text()).toContain('<code>GET /api/v1/users/me</code>');
    const markdown = await fetch(`${server.url}/docs/reference/get-own-user.md`);
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toContain('text/markdown');
    expect(await markdown.text()).toContain('`GET /api/v1/users/me`');
  });
});

describe.each(drivers)('client data the database cannot hold, on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers an id beyond the column range with BAD_REQUEST, not a server error', async () => {
    const error = await server.client('member').getMessage({ message_id: 2 ** 40 }).catch((e: unknown) => e);
    expect(isApiError(error, 'BAD_REQUEST')).toBe(true);
  });

  it('answers a NUL character in text with BAD_REQUEST, not a server error', async () => {
    const error = await server.client('member').updateStatus({ status_text: 'out\u0000now' }).catch((e: unknown) => e);
    expect(isApiError(error, 'BAD_REQUEST')).toBe(true);
  });
});
