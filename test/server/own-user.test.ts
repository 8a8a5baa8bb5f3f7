import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/client.js';
import { authenticate, newCredentials, ownUserExtrasOf } from '../../server/auth/credentials.js';
import { ownUser } from '../../server/domain/users.js';
import { ownUserExtras } from '../../server/store/profile.js';
import { insertUser } from '../../server/store/users.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const gravatar = (email: string, version: number) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}?d=identicon&version=${version}`;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', '+00:00');

describe.each(drivers)('get-own-user on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });

  const stored = async (userId: number) =>
    (await server.db.query<{ date_joined: number; max_id: number }>(
      'SELECT date_joined, (SELECT max(message_id) FROM user_messages WHERE user_id = $1) AS max_id FROM users WHERE id = $1',
      [userId],
    )).rows[0]!;

  it('returns every field of a member from the database, with rendered markdown for long text only', async () => {
    const { date_joined, max_id } = await stored(5);
    expect(max_id).toBe(105);
    await expect(server.client('member').getOwnUser()).resolves.toEqual({
      result: 'success',
      msg: '',
      user_id: 5,
      email: 'member@example.com',
      delivery_email: 'member@example.com',
      full_name: 'Dana Kim',
      avatar_url: gravatar('member@example.com', 1),
      avatar_version: 1,
      role: 400,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      is_bot: false,
      is_active: true,
      is_imported_stub: false,
      timezone: 'America/Los_Angeles',
      date_joined: iso(date_joined),
      max_message_id: 105,
      profile_data: {
        '1': { value: '+1 555 0105' },
        '3': { value: '[4]' },
        '4': {
          value: 'Backend engineer. Ask me about **deploys**.',
          rendered_value: '<p>Backend engineer. Ask me about <strong>deploys</strong>.</p>',
        },
      },
    });
  });

  it.each<[Who, { role: number; is_admin: boolean; is_owner: boolean; is_guest: boolean; is_bot: boolean }]>([
    ['owner', { role: 100, is_admin: true, is_owner: true, is_guest: false, is_bot: false }],
    ['admin', { role: 200, is_admin: true, is_owner: false, is_guest: false, is_bot: false }],
    ['moderator', { role: 300, is_admin: false, is_owner: false, is_guest: false, is_bot: false }],
    ['member', { role: 400, is_admin: false, is_owner: false, is_guest: false, is_bot: false }],
    ['guest', { role: 600, is_admin: false, is_owner: false, is_guest: true, is_bot: false }],
    ['bot', { role: 400, is_admin: false, is_owner: false, is_guest: false, is_bot: true }],
  ])('derives the role flags of %s from its role', async (who, flags) => {
    const me = await server.client(who).getOwnUser();
    expect(me).toMatchObject({ user_id: server.logins[who].userId, email: server.logins[who].email, ...flags });
    expect(me.max_message_id).toBe((await stored(me.user_id)).max_id);
  });

  it('gives a bot no profile_data', async () => {
    const me = await server.client('bot').getOwnUser();
    expect(me).not.toHaveProperty('profile_data');
    expect(me).toMatchObject({ full_name: 'Deploy Bot', is_bot: true, timezone: '' });
  });

  it('gives a user without values an empty profile_data', async () => {
    await expect(server.client('guest').getOwnUser()).resolves.toMatchObject({ profile_data: {} });
  });

  it('follows the avatar version and the real email address', async () => {
    await server.db.query('UPDATE users SET avatar_version = 3 WHERE id = 4');
    try {
      const me = await server.client('moderator').getOwnUser();
      expect(me).toMatchObject({ avatar_version: 3, avatar_url: gravatar('moderator@example.com', 3) });
    } finally {
      await server.db.query('UPDATE users SET avatar_version = 1 WHERE id = 4');
    }
  });

  it('renders long text that has no stored rendering', async () => {
    await server.db.query('UPDATE custom_profile_values SET rendered_value = NULL WHERE user_id = 5 AND field_id = 4');
    try {
      const me = await server.client('member').getOwnUser();
      expect(me.profile_data?.['4']).toEqual({
        value: 'Backend engineer. Ask me about **deploys**.',
        rendered_value: '<p>Backend engineer. Ask me about <strong>deploys</strong>.</p>',
      });
    } finally {
      await server.db.query(
        `UPDATE custom_profile_values SET rendered_value = '<p>Backend engineer. Ask me about <strong>deploys</strong>.</p>' WHERE user_id = 5 AND field_id = 4`,
      );
    }
  });

  it('answers -1 as max_message_id, and the stub and timezone fields, for a new imported account', async () => {
    const { apiKey, stored: credentials } = await newCredentials(server.services.secret, null);
    await server.db.transaction((tx) =>
      insertUser(tx, {
        email: 'imported@example.com',
        fullName: 'Imported Person',
        role: 400,
        isImportedStub: true,
        timezone: 'Asia/Tokyo',
        dateJoined: 1_700_000_000,
        credentials,
      }),
    );
    const me = await createClient({ baseUrl: server.url, email: 'imported@example.com', apiKey, validateResponses: 'strict' }).getOwnUser();
    expect(me).toMatchObject({ max_message_id: -1, is_imported_stub: true, timezone: 'Asia/Tokyo', date_joined: '2023-11-14T22:13:20+00:00' });
  });

  it('reads the own-user extras in the authenticating statement only for a matching key, the same as the separate statement', async () => {
    const login = server.logins.member;
    const user = (await authenticate(server.db, login.email, login.apiKey, undefined, { withOwnUser: true }))!;
    const prefetched = ownUserExtrasOf(user);
    expect(prefetched).toEqual(await ownUserExtras(server.db, user.id));
    expect(prefetched!.profile.length).toBeGreaterThan(0);
    await expect(ownUser(server.db, user, prefetched)).resolves.toEqual(await ownUser(server.db, user));
    // Without the option nothing is read ahead; with a wrong key nobody is authenticated.
    expect(ownUserExtrasOf((await authenticate(server.db, login.email, login.apiKey))!)).toBeUndefined();
    await expect(authenticate(server.db, login.email, 'x'.repeat(32), undefined, { withOwnUser: true })).resolves.toBeNull();
    const wrongKey = await server.app.inject({
      url: '/api/v1/users/me',
      headers: { authorization: `Basic ${Buffer.from(`${login.email}:${'x'.repeat(32)}`).toString('base64')}` },
    });
    expect(wrongKey.statusCode).toBe(401);
  });
});
