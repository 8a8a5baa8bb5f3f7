/**
 * Authentication right after a change to what it reads (issue 11, item 3).
 * A successful authentication, and the own-user view read with it, is kept
 * in process and dropped by the committed change itself
 * (server/docs/change-feed.md): a rotated key, a deactivated user or a new
 * email are refused by the very next request, and a rolled-back change drops
 * nothing, on both databases. Changes other PostgreSQL sessions commit are in
 * test/server-store/cache.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../generated/client.js';
import { USERS } from '../../server/seed/demo-data.js';
import { drivers, startTestServer, type TestServer } from '../support/server.js';

const unauthorized = expect.objectContaining({ status: 401 });

describe.each(drivers)('authentication after a change on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const me = (email: string, apiKey: string) => createClient({ baseUrl: server.url, email, apiKey, validateResponses: 'strict' }).getOwnUser();
  /** GET /users/me's raw answer, and the statements the server ran for it. */
  const rawMe = async (email: string, apiKey: string) => {
    const spy = vi.spyOn(server.db, 'query');
    const response = await server.app.inject({
      url: '/api/v1/users/me',
      headers: { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` },
    });
    const statements = spy.mock.calls.length;
    spy.mockRestore();
    return { status: response.statusCode, body: response.body, statements };
  };
  /** A warm request runs no statement: both databases' caches follow the committed changes. */
  const warm = 0;

  it('answers a kept authentication byte for byte as a fresh one, without a statement', async () => {
    const { email, apiKey } = server.logins.moderator;
    const cold = await rawMe(email, apiKey);
    const again = await rawMe(email, apiKey);
    expect(cold.status).toBe(200);
    expect(again).toEqual({ ...cold, statements: warm });
    // A wrong key for a kept email is checked against the database, as for any other email.
    expect(await rawMe(email, 'x'.repeat(32))).toMatchObject({ status: 401, statements: 1 });
  });

  it('refuses a key rotated through fetch_api_key on the very next request', async () => {
    const { email, apiKey, userId } = server.logins.guest;
    expect((await me(email, apiKey)).user_id).toBe(userId);
    // The stored key can no longer be unsealed (as with a lost server secret): fetch_api_key rotates it.
    // The sealed key is not read by authentication, so the kept one still counts until the rotation.
    await server.db.query(`UPDATE users SET api_key_sealed = 'lost' WHERE id = $1`, [userId]);
    expect(await rawMe(email, apiKey)).toMatchObject({ status: 200, statements: warm });
    const rotated = await server.client('guest').fetchApiKey({ username: email, password: server.config.demoPassword });
    expect(rotated.api_key).not.toBe(apiKey);
    await expect(me(email, apiKey)).rejects.toEqual(unauthorized);
    expect((await me(email, rotated.api_key)).user_id).toBe(userId);
    server.logins.guest.apiKey = rotated.api_key;
  });

  it('refuses a deactivated user on the very next request, and accepts them again once reactivated', async () => {
    const { email, apiKey, userId } = server.logins.member;
    expect((await me(email, apiKey)).is_active).toBe(true);
    await server.db.query('UPDATE users SET is_active = false WHERE id = $1', [userId]);
    await expect(me(email, apiKey)).rejects.toEqual(unauthorized);
    await server.db.transaction((tx) => tx.query('UPDATE users SET is_active = true WHERE id = $1', [userId]));
    expect((await me(email, apiKey)).is_active).toBe(true);
    // Deactivated inside a transaction: refused from the commit on.
    await server.db.transaction(async (tx) => {
      await tx.query('UPDATE users SET is_active = false WHERE id = $1', [userId]);
      await tx.query('SELECT 1');
    });
    await expect(me(email, apiKey)).rejects.toEqual(unauthorized);
    await server.db.query('UPDATE users SET is_active = true WHERE id = $1', [userId]);
    expect((await me(email, apiKey)).user_id).toBe(userId);
  });

  it('keeps what it had after a rolled-back change, and it is still right', async () => {
    const { email, apiKey, userId } = server.logins.admin;
    const before = await rawMe(email, apiKey);
    expect(before.status).toBe(200);
    await expect(
      server.db.transaction(async (tx) => {
        await tx.query('UPDATE users SET is_active = false, full_name = $2 WHERE id = $1', [userId, 'Rolled Back']);
        await tx.query(`UPDATE users SET api_key_hash = repeat('0', 64) WHERE id = $1`, [userId]);
        await tx.query('DELETE FROM user_messages WHERE user_id = $1', [userId]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // Nothing committed, nothing dropped: still no statement on PGlite, and the same answer.
    expect(await rawMe(email, apiKey)).toEqual({ ...before, statements: warm });
  });

  it('refuses the old email once update-user changed it, and follows a role change', async () => {
    const dana = USERS.find((user) => user.email === server.logins.member.email)!;
    const { apiKey, userId } = server.logins.member;
    expect((await me(dana.email, apiKey)).role).toBe(dana.role);
    try {
      await server.client('owner').updateUser({ user_id: userId, new_email: 'dana.kim@example.com' });
      await expect(me(dana.email, apiKey)).rejects.toEqual(unauthorized);
      expect((await me('dana.kim@example.com', apiKey)).email).toBe('dana.kim@example.com');
      await server.client('admin').updateUser({ user_id: userId, role: 300 });
      expect((await me('dana.kim@example.com', apiKey)).role).toBe(300);
    } finally {
      await server.db.query('UPDATE users SET email = $2, delivery_email = $2 WHERE id = $1', [userId, dana.email]);
      await server.client('admin').updateUser({ user_id: userId, role: dana.role });
    }
    expect((await me(dana.email, apiKey)).role).toBe(dana.role);
  });

  it('shows a new highest message id and new profile values in the very next GET /users/me', async () => {
    const { email, apiKey, userId } = server.logins.owner;
    const first = await me(email, apiKey);
    const { rows } = await server.db.query<{ message_id: number; flags: string[] }>(
      'SELECT message_id, flags FROM user_messages WHERE user_id = $1 ORDER BY message_id DESC LIMIT 1',
      [userId],
    );
    const top = rows[0]!;
    expect(first.max_message_id).toBe(top.message_id);
    await server.db.query('DELETE FROM user_messages WHERE user_id = $1 AND message_id = $2', [userId, top.message_id]);
    expect((await me(email, apiKey)).max_message_id).toBeLessThan(top.message_id);
    await server.db.query('INSERT INTO user_messages (user_id, message_id, flags) VALUES ($1, $2, $3)', [userId, top.message_id, top.flags]);
    expect((await me(email, apiKey)).max_message_id).toBe(top.message_id);
    // Flag changes do not move it and keep the cache.
    await server.db.query(`UPDATE user_messages SET flags = flags WHERE user_id = $1`, [userId]);
    expect(await rawMe(email, apiKey)).toMatchObject({ status: 200, statements: warm });

    const field = (await server.db.query<{ id: number }>(`SELECT id FROM custom_profile_fields WHERE field_type = 'short_text' ORDER BY id LIMIT 1`)).rows[0]!.id;
    await server.client('owner').updateUser({ user_id: userId, profile_data: [{ id: field, value: 'Kept nowhere' }] });
    expect((await me(email, apiKey)).profile_data?.[String(field)]).toEqual({ value: 'Kept nowhere' });
  });
});
