import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomUrlProvider, videoCallProvider } from '../../server/video-calls/provider.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });

describe.each(drivers)('create-video-call on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver, { env: { VIDEO_CALL_BASE_URL: 'https://calls.example.net/rooms/' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each<[Who, boolean]>([
    ['owner', true],
    ['admin', true],
    ['moderator', true],
    ['member', true],
    ['guest', false],
    ['bot', false],
  ])('as %s (holds a provider token: %s)', async (who, hasToken) => {
    const request = server.client(who).createVideoCall();
    if (hasToken) {
      const { url } = await request;
      expect(url).toMatch(/^https:\/\/calls\.example\.net\/rooms\/lakeside-[0-9a-f]{20}$/);
    } else {
      await expect(request).rejects.toEqual(refused(/^You have no video call provider token$/));
    }
  });

  it('creates a different meeting each time', async () => {
    const member = server.client('member');
    const urls = new Set<string>();
    for (let i = 0; i < 5; i++) urls.add((await member.createVideoCall()).url);
    expect(urls.size).toBe(5);
  });

  it('follows the token: granted, then revoked', async () => {
    await server.db.query(`UPDATE users SET videocall_token = 'granted' WHERE email = 'guest@example.com'`);
    await expect(server.client('guest').createVideoCall()).resolves.toMatchObject({ result: 'success' });
    await server.db.query(`UPDATE users SET videocall_token = NULL WHERE email = 'guest@example.com'`);
    await expect(server.client('guest').createVideoCall()).rejects.toEqual(refused(/token/));
  });
});

// The provider setting is server configuration, the same on both databases.
describe('create-video-call without a provider', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { env: { VIDEO_CALL_PROVIDER: 'none' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each<Who>(['member', 'guest'])('refuses %s: no provider is configured', async (who) => {
    await expect(server.client(who).createVideoCall()).rejects.toEqual(refused(/^No video call provider is configured$/));
  });
});

describe('video-call providers', () => {
  it('has none when the configuration has none', () => {
    expect(videoCallProvider({ provider: null, baseUrl: null })).toBeNull();
  });

  it('names rooms after the organization, with a random part that stays inside the URL path', async () => {
    const provider = new RoomUrlProvider('jitsi_meet', 'https://meet.example.com');
    const url = new URL(await provider.createMeeting({ realmStringId: 'a/b?c', userId: 1 }));
    expect(url.origin).toBe('https://meet.example.com');
    expect(url.pathname).toMatch(/^\/a%2Fb%3Fc-[0-9a-f]{20}$/);
    expect(url.search).toBe('');
  });
});
