/**
 * The server reports its feature level in `X-Feature-Level` on every answer
 * (success, error, unknown path), as configured by FEATURE_LEVEL, and the mock
 * reports the highest level of the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, detectFeatureLevel, featureLevelOf, UnsupportedFeatureError } from '../../generated/client.js';
import { maxFeatureLevel } from '../../generated/server.js';
import { createMockApp } from '../../server/mock.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('X-Feature-Level', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { env: { FEATURE_LEVEL: '300' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

  it('is on a success answer', async () => {
    const { email, apiKey } = server.logins.member;
    const response = await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: basic(email, apiKey) } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-feature-level')).toBe('300');
  });

  it('is on error answers and unknown paths', async () => {
    const unauthorized = await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: basic('nobody@example.com', 'x') } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-feature-level')).toBe('300');
    const missing = await fetch(`${server.url}/api/v1/no/such/path`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-feature-level')).toBe('300');
  });

  it('lets the generated client detect or learn the level, then gate itself', async () => {
    expect(await detectFeatureLevel({ baseUrl: server.url })).toBe(300);
    const { email, apiKey } = server.logins.member;
    const client = createClient({ baseUrl: server.url, email, apiKey, featureLevel: 'server', validateResponses: 'strict' });
    expect(featureLevelOf(client)).toBeUndefined();
    await client.getOwnUser();
    expect(featureLevelOf(client)).toBe(300);
    await expect(client.createVideoCall()).rejects.toBeInstanceOf(UnsupportedFeatureError);
  });

  it('is on the answers of routes outside the API and on its other 404s', async () => {
    const docs = await fetch(`${server.url}/docs/`);
    expect(docs.headers.get('x-feature-level')).toBe('300');
    const outside = await fetch(`${server.url}/no/such/page`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get('x-feature-level')).toBe('300');
  });

  it('is sent by the bindings on API answers, so API routes carry no hook for it; other routes get one', async () => {
    const app = await createMockApp();
    try {
      app.get('/elsewhere', async () => 'here');
      await app.ready();
      // Only /elsewhere has an onRequest hook among the GET routes: the bindings authenticate GETs in the handler.
      const tree = app.printRoutes({ method: 'GET', includeHooks: true, commonPrefix: false });
      expect(tree.match(/\(onRequest\)/g)).toHaveLength(1);
      expect(tree).toMatch(/\/elsewhere \(GET\)\n\s*• \(onRequest\)/);
      const elsewhere = await app.inject({ method: 'GET', url: '/elsewhere' });
      expect(elsewhere.headers['x-feature-level']).toBe(String(maxFeatureLevel));
      const outside = await app.inject({ method: 'POST', url: '/nope', headers: { 'content-type': 'application/json' }, payload: '{x' });
      expect(outside.statusCode).toBe(400);
      expect(outside.headers['x-feature-level']).toBe(String(maxFeatureLevel));
    } finally {
      await app.close();
    }
  });

  it('is the highest level of the spec on the mock', async () => {
    const app = await createMockApp();
    try {
      const response = await app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: basic('a@example.com', 'k') } });
      expect(response.headers['x-feature-level']).toBe(String(maxFeatureLevel));
      expect(maxFeatureLevel).toBeGreaterThan(300);
    } finally {
      await app.close();
    }
  });
});
