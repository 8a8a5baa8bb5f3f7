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

  it('serves the docs next to the API', async () => {
    const response = await fetch(`${server.url}/docs/reference/get-own-user.md`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<code>GET /api/v1/users/me</code>');
  });
});
