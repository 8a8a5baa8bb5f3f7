import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isApiError } from '../../generated/client.js';
import { newCredentials } from '../../server/auth/credentials.js';
import { insertUser } from '../../server/store/users.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });
const WINDOW = 600;
// Each test runs at its own time, far from the others, so failures of one never count in another.
const epoch = (n: number) => 2_000_000_000 + n * 100_000;

describe.each(drivers)('fetch-api-key on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver, {
      env: { LOGIN_FAILURE_LIMIT: '3', LOGIN_FAILURE_LIMIT_PER_ADDRESS: '5', LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW) },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const api = () => server.client('member');
  const password = () => server.config.demoPassword;
  const login = (username: string, secret = password()) => api().fetchApiKey({ username, password: secret });
  const rawLogin = (username: string, secret: string) =>
    fetch(`${server.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password: secret }),
    });

  it.each<Who>(['owner', 'admin', 'moderator', 'member', 'guest'])('returns the key of %s, which then authenticates', async (who) => {
    server.setNow(epoch(1));
    const { email, userId, apiKey } = server.logins[who];
    await expect(login(email)).resolves.toEqual({ result: 'success', msg: '', api_key: apiKey, email, user_id: userId });
    const me = await createClient({ baseUrl: server.url, email, apiKey, validateResponses: 'strict' }).getOwnUser();
    expect(me.user_id).toBe(userId);
  });

  it('matches the username case-insensitively and answers with the stored address', async () => {
    server.setNow(epoch(2));
    await expect(login('Owner@Example.COM')).resolves.toMatchObject({ email: 'owner@example.com', user_id: 2 });
  });

  it.each([
    ['a wrong password', 'member@example.com', 'not-the-password'],
    ['an unknown username', 'nobody@example.com', 'demo1234'],
    ['a bot, which has no password', 'deploy-bot@example.com', 'demo1234'],
    ['an empty password', 'member@example.com', ''],
  ])('refuses %s', async (_case, username, secret) => {
    server.setNow(epoch(3));
    await expect(login(username, secret)).rejects.toEqual(refused(/^Your username or password is incorrect$/));
  });

  it('records a failure by username and client address, never the password', async () => {
    server.setNow(epoch(4));
    await login('recorded@example.com', 'secret-guess').catch(() => undefined);
    const { rows } = await server.db.query('SELECT * FROM failed_logins WHERE username = $1', ['recorded@example.com']);
    expect(rows).toEqual([expect.objectContaining({ username: 'recorded@example.com', client_address: '127.0.0.1', attempted_at: epoch(4) })]);
    expect(JSON.stringify(rows)).not.toContain('secret-guess');
  });

  it('refuses a deactivated user with the right password, and only then says so', async () => {
    server.setNow(epoch(5));
    await server.db.query('UPDATE users SET is_active = false WHERE id = 6');
    try {
      await expect(login('guest@example.com')).rejects.toEqual(refused(/^Your account has been deactivated$/));
      await expect(login('guest@example.com', 'wrong')).rejects.toEqual(refused(/^Your username or password is incorrect$/));
    } finally {
      await server.db.query('UPDATE users SET is_active = true WHERE id = 6');
    }
  });

  it('limits failures per username, then lets the user in once the window has passed', async () => {
    const start = epoch(6);
    server.setNow(start);
    for (let i = 0; i < 3; i++) await expect(login('moderator@example.com', 'wrong')).rejects.toEqual(refused(/incorrect/));
    const limited = await login('moderator@example.com').catch((e: unknown) => e);
    expect(isApiError(limited, 'RATE_LIMIT_HIT')).toBe(true);
    expect(limited).toMatchObject({ status: 429, 'retry-after': WINDOW });
    // Other users from the same address are not affected by this username's limit.
    await expect(login('member@example.com')).resolves.toMatchObject({ user_id: 5 });
    server.setNow(start + 100);
    const response = await rawLogin('moderator@example.com', password());
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe(String(WINDOW - 100));
    expect(await response.json()).toEqual({
      result: 'error',
      msg: `Too many failed attempts; try again in ${WINDOW - 100} seconds`,
      code: 'RATE_LIMIT_HIT',
      'retry-after': WINDOW - 100,
    });
    server.setNow(start + WINDOW);
    await expect(login('moderator@example.com')).resolves.toMatchObject({ user_id: 4 });
  });

  it('limits failures per client address across usernames', async () => {
    const start = epoch(7);
    server.setNow(start);
    for (const username of ['a@example.com', 'a@example.com', 'b@example.com', 'b@example.com']) {
      await expect(login(username, 'wrong')).rejects.toEqual(refused(/incorrect/));
    }
    server.setNow(start + 10);
    await expect(login('c@example.com', 'wrong')).rejects.toEqual(refused(/incorrect/));
    // Five failures from this address: even a right password of an untouched user waits.
    const limited = await login('owner@example.com').catch((e: unknown) => e);
    expect(limited).toMatchObject({ code: 'RATE_LIMIT_HIT', status: 429, 'retry-after': WINDOW - 10 });
    server.setNow(start + WINDOW);
    // The four oldest failures left the window; the fifth is still in it, which is under the limit.
    await expect(login('owner@example.com')).resolves.toMatchObject({ user_id: 2 });
  });

  it('moves date_joined of an API-created user to its first login, and only the first', async () => {
    const created = epoch(8);
    const { stored } = await newCredentials(server.services.secret, 'first-login-pw');
    const userId = await server.db.transaction((tx) =>
      insertUser(tx, {
        email: 'api-created@example.com',
        fullName: 'Api Created',
        role: 400,
        dateJoined: created,
        awaitingFirstLogin: true,
        credentials: stored,
      }),
    );
    const dateJoined = async () =>
      (await server.db.query<{ date_joined: number }>('SELECT date_joined FROM users WHERE id = $1', [userId])).rows[0]!.date_joined;
    server.setNow(created + 3600);
    await expect(login('api-created@example.com', 'wrong')).rejects.toEqual(refused(/incorrect/));
    expect(await dateJoined()).toBe(created);
    server.setNow(created + 7200);
    const { api_key } = await login('api-created@example.com', 'first-login-pw');
    expect(await dateJoined()).toBe(created + 7200);
    const me = await createClient({ baseUrl: server.url, email: 'api-created@example.com', apiKey: api_key, validateResponses: 'strict' }).getOwnUser();
    expect(me.date_joined).toBe(new Date((created + 7200) * 1000).toISOString().replace('.000Z', '+00:00'));
    server.setNow(created + 9000);
    await login('api-created@example.com', 'first-login-pw');
    expect(await dateJoined()).toBe(created + 7200);
  });

  it('leaves date_joined of other users alone', async () => {
    const before = (await server.db.query<{ date_joined: number }>('SELECT date_joined FROM users WHERE id = 3')).rows[0]!.date_joined;
    server.setNow(epoch(9));
    await login('admin@example.com');
    const after = (await server.db.query<{ date_joined: number; last_login_at: number }>('SELECT date_joined, last_login_at FROM users WHERE id = 3')).rows[0]!;
    expect(after).toEqual({ date_joined: before, last_login_at: epoch(9) });
  });

  it('requires both fields', async () => {
    await expect(api().fetchApiKey({ username: 'member@example.com' } as never)).rejects.toEqual(refused(/password/));
  });
});
