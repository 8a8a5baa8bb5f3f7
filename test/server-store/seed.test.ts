import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, fetchApiKey } from '../../server/auth/credentials.js';
import type { DbHandle } from '../../server/store/db.js';
import {
  groupMemberIds,
  groupSettingValue,
  isUserInGroup,
  sameGroupSettingValue,
  setChannelGroupSetting,
  subgroupsThatWouldCycle,
} from '../../server/store/groups.js';
import { getMessage, messageEdits, messageReactions, setFlag, userMessageFlags } from '../../server/store/messages.js';
import { lastPresenceUpdateId, presenceChanges, recordPresence } from '../../server/store/presence.js';
import { setUserRole } from '../../server/store/users.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { getRealm, listLinkifiers } from '../../server/store/realm.js';
import { recipientMemberIds } from '../../server/store/recipients.js';
import { seedDemoIfEmpty, type DemoLogin } from '../../server/seed/demo.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

const secret = randomBytes(32);
const limits = { loginFailureLimit: 5, loginFailureWindowSeconds: 600 };
let server: ThrowawayPostgres;
const seeded: Record<string, { db: DbHandle; logins: DemoLogin[] }> = {};

beforeAll(async () => {
  server = await startPostgres();
  for (const [name, db] of [
    ['pglite', await openPglite({ dataDir: null, checkHandleUse: true })],
    ['postgres', await openPostgres({ url: server.url })],
  ] as const) {
    await migrate(db);
    const logins = await seedDemoIfEmpty(db, { password: 'demo1234', secret, videoChatProvider: 'jitsi_meet' });
    seeded[name] = { db, logins: logins! };
  }
});

afterAll(async () => {
  await Promise.all(Object.values(seeded).map(({ db }) => db.close()));
  await server?.stop();
});

describe.each(['pglite', 'postgres'])('demo organization on %s', (driver) => {
  const db = () => seeded[driver]!.db;
  const logins = () => seeded[driver]!.logins;

  it('returns the logins of the documented people and the owned bot', () => {
    expect(logins().map(({ userId, email, role, isBot }) => [userId, email, role, isBot])).toEqual([
      [2, 'owner@example.com', 100, false],
      [3, 'admin@example.com', 200, false],
      [4, 'moderator@example.com', 300, false],
      [5, 'member@example.com', 400, false],
      [6, 'guest@example.com', 600, false],
      [7, 'deploy-bot@example.com', 400, true],
    ]);
    for (const login of logins()) expect(login.apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('seeds only an empty database', async () => {
    expect(await seedDemoIfEmpty(db(), { password: 'x', secret, videoChatProvider: null })).toBeNull();
    expect((await db().query('SELECT id FROM users')).rows).toHaveLength(7);
  });

  it('creates the organization with its settings', async () => {
    const realm = (await getRealm(db()))!;
    expect(realm).toMatchObject({
      name: 'Lakeside Labs',
      string_id: 'lakeside',
      empty_topic_display_name: 'general chat',
      moderation_request_channel_id: 5,
      max_stream_name_length: 60,
      max_message_length: 10000,
      max_file_upload_size_mib: 25,
      invite_expiry_default_minutes: 14400,
      video_chat_provider: 'jitsi_meet',
    });
    expect(realm.server_report_message_types.map((type) => type.key)).toEqual(['harassment', 'inappropriate', 'norms', 'other', 'spam']);
    expect((await db().query('SELECT domain, allow_subdomains FROM realm_domains')).rows).toEqual([{ domain: 'example.com', allow_subdomains: false }]);
  });

  it('creates the documented users', async () => {
    const { rows } = await db().query<{ id: number; full_name: string; is_bot: boolean; bot_owner_id: number | null }>(
      'SELECT id, full_name, is_bot, bot_owner_id FROM users ORDER BY id',
    );
    expect(rows.map((row) => row.full_name)).toEqual(['Notification Bot', 'Ada Okafor', 'Ben Alvarez', 'Chen Wei', 'Dana Kim', 'Eli Novak', 'Deploy Bot']);
    expect(rows.filter((row) => row.is_bot).map((row) => [row.id, row.bot_owner_id])).toEqual([[1, null], [7, 2]]);
  });

  it('creates the channels and folders', async () => {
    const { rows } = await db().query<Record<string, unknown>>(
      'SELECT id, name, is_private, is_web_public, is_default, is_archived, folder_id FROM channels ORDER BY id',
    );
    expect(rows).toEqual([
      { id: 1, name: 'general', is_private: false, is_web_public: false, is_default: true, is_archived: false, folder_id: null },
      { id: 2, name: 'engineering', is_private: false, is_web_public: false, is_default: false, is_archived: false, folder_id: 1 },
      { id: 3, name: 'design', is_private: true, is_web_public: false, is_default: false, is_archived: false, folder_id: 1 },
      { id: 4, name: 'announcements', is_private: false, is_web_public: true, is_default: false, is_archived: false, folder_id: null },
      { id: 5, name: 'moderation', is_private: true, is_web_public: false, is_default: false, is_archived: false, folder_id: null },
      { id: 6, name: 'archive-2024', is_private: false, is_web_public: false, is_default: false, is_archived: true, folder_id: 2 },
    ]);
    const folders = await db().query('SELECT id, name, is_archived FROM channel_folders ORDER BY id');
    expect(folders.rows).toEqual([
      { id: 1, name: 'Product', is_archived: false },
      { id: 2, name: 'Archive', is_archived: true },
    ]);
  });

  it('creates the groups, with role membership reaching up through subgroups', async () => {
    const { rows } = await db().query<{ id: number; name: string }>('SELECT id, name FROM user_groups WHERE name IS NOT NULL ORDER BY id');
    expect(rows.map((row) => `${row.id} ${row.name}`)).toEqual([
      '1 role:internet', '2 role:everyone', '3 role:members', '4 role:fullmembers', '5 role:moderators',
      '6 role:administrators', '7 role:owners', '8 role:nobody', '9 backend', '10 frontend', '11 engineering',
    ]);
    expect(await groupMemberIds(db(), 6)).toEqual([2, 3]);
    expect(await groupMemberIds(db(), 3)).toEqual([1, 2, 3, 4, 5, 7]);
    expect(await groupMemberIds(db(), 2)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await groupMemberIds(db(), 8)).toEqual([]);
    expect(await groupMemberIds(db(), 11)).toEqual([3, 4, 5]);
    expect(await isUserInGroup(db(), 6, 3)).toBe(false);
  });

  it('stores an anonymous group setting and reads it back in API form', async () => {
    const { rows } = await db().query<{ can_administer_channel_group_id: number; can_send_message_group_id: number }>(
      'SELECT can_administer_channel_group_id, can_send_message_group_id FROM channels WHERE id = $1',
      [2],
    );
    expect(await groupSettingValue(db(), rows[0]!.can_administer_channel_group_id)).toEqual({ direct_members: [3], direct_subgroups: [9] });
    expect(await groupSettingValue(db(), rows[0]!.can_send_message_group_id)).toBe(2);
  });

  it('creates the messages, with the edit, the move and the reactions', async () => {
    const first = (await getMessage(db(), 101))!;
    expect(first).toMatchObject({ sender_id: 5, channel_id: 2, topic: 'deploys', content: 'Deploy of **v2.3** is done. See #42.', last_moved_at: null });
    expect(first.last_edit_at).toBeGreaterThan(first.sent_at);
    expect((await messageEdits(db(), 101)).map((edit) => [edit.user_id, edit.prev_content, edit.new_content])).toEqual([
      [5, 'Deploy of v2.3 is done.', 'Deploy of **v2.3** is done. See #42.'],
    ]);
    expect((await messageReactions(db(), 101)).map((r) => [r.user_id, r.emoji_name, r.emoji_code, r.reaction_type])).toEqual([
      [3, 'tada', '1f389', 'unicode_emoji'],
      [4, 'tada', '1f389', 'unicode_emoji'],
    ]);
    const moved = (await getMessage(db(), 103))!;
    expect(moved).toMatchObject({ topic: 'deploys', last_edit_at: null });
    expect(moved.last_moved_at).not.toBeNull();
    expect((await messageEdits(db(), 103)).map((edit) => [edit.prev_topic, edit.new_topic, edit.prev_content])).toEqual([['ci', 'deploys', null]]);
    expect(await getMessage(db(), 104)).toMatchObject({ channel_id: 1, topic: '' });
    const direct = (await getMessage(db(), 105))!;
    expect(direct).toMatchObject({ type: 'private', channel_id: null, sender_id: 3 });
    expect(await recipientMemberIds(db(), direct.recipient_id)).toEqual([3, 5]);
    expect(await userMessageFlags(db(), 5, 105)).toEqual([]);
    expect(await userMessageFlags(db(), 3, 105)).toEqual(['read']);
    expect(await userMessageFlags(db(), 6, 105)).toBeNull();
  });

  it('creates the other documented records', async () => {
    expect((await listLinkifiers(db())).map((l) => [l.id, l.pattern, l.url_template])).toEqual([
      [1, '#(?P<id>[0-9]+)', 'https://github.com/lakeside/app/issues/{id}'],
    ]);
    const one = async (sql: string) => (await db().query(sql)).rows;
    expect(await one('SELECT id, name, pygments_language, url_template FROM code_playgrounds')).toEqual([
      { id: 1, name: 'Python playground', pygments_language: 'python', url_template: 'https://play.example.com/python?code={code}' },
    ]);
    expect(await one('SELECT id, name, field_type FROM custom_profile_fields ORDER BY id')).toEqual([
      { id: 1, name: 'Phone', field_type: 'short_text' },
      { id: 2, name: 'Website', field_type: 'url' },
      { id: 3, name: 'Mentor', field_type: 'users' },
      { id: 4, name: 'Biography', field_type: 'long_text' },
    ]);
    expect(await one('SELECT id, name FROM custom_emoji')).toEqual([{ id: 1, name: 'octopus_ship' }]);
    expect(await one('SELECT id, sender_id, channel_id, topic FROM scheduled_messages')).toEqual([{ id: 21, sender_id: 5, channel_id: 2, topic: 'deploys' }]);
    expect(await one('SELECT id, user_id FROM reminders')).toEqual([{ id: 31, user_id: 5 }]);
  });

  it('moves id sequences past the documented ids', async () => {
    const { rows } = await db().query<{ id: number }>(
      `INSERT INTO channel_folders (name, created_at) VALUES ('Sequence check', 0) RETURNING id`,
    );
    expect(rows[0]!.id).toBe(3);
    const message = await db().query<{ id: number }>(
      `INSERT INTO messages (sender_id, type, recipient_id, channel_id, topic, content, rendered_content, sent_at)
       SELECT 5, 'stream', id, 1, 'seq', 'x', '<p>x</p>', 0 FROM recipients WHERE channel_id = 1 RETURNING id`,
    );
    expect(message.rows[0]!.id).toBe(106);
  });

  it('gives every login a working API key and the demo password', async () => {
    for (const login of logins()) {
      expect((await authenticate(db(), login.email, login.apiKey))?.id).toBe(login.userId);
    }
    const dana = logins().find((login) => login.email === 'member@example.com')!;
    expect(await fetchApiKey(db(), secret, 'member@example.com', 'demo1234', limits)).toEqual({
      ok: true,
      apiKey: dana.apiKey,
      email: 'member@example.com',
      userId: 5,
    });
    expect(await fetchApiKey(db(), secret, 'deploy-bot@example.com', 'demo1234', limits)).toEqual({ ok: false, reason: 'invalid_credentials' });
  });

  it('replaces group settings and deletes anonymous groups nothing uses', async () => {
    const adminGroupId = async () =>
      (await db().query<{ id: number }>('SELECT can_administer_channel_group_id AS id FROM channels WHERE id = 2')).rows[0]!.id;
    const anonymousCount = async () => (await db().query('SELECT id FROM user_groups WHERE name IS NULL')).rowCount;
    const before = await anonymousCount();
    const oldAnonymous = await adminGroupId();
    await db().transaction((tx) => setChannelGroupSetting(tx, 2, 'can_administer_channel_group', 6));
    expect(await adminGroupId()).toBe(6);
    expect(await anonymousCount()).toBe(before - 1);
    expect(await db().query('SELECT id FROM user_groups WHERE id = $1', [oldAnonymous])).toMatchObject({ rowCount: 0 });
    await db().transaction((tx) =>
      setChannelGroupSetting(tx, 2, 'can_administer_channel_group', { direct_members: [4, 2], direct_subgroups: [10] }),
    );
    const stored = await groupSettingValue(db(), await adminGroupId());
    expect(stored).toEqual({ direct_members: [2, 4], direct_subgroups: [10] });
    expect(sameGroupSettingValue(stored, { direct_members: [4, 2], direct_subgroups: [10] })).toBe(true);
    expect(sameGroupSettingValue(stored, 10)).toBe(false);
    const anonymous = await adminGroupId();
    await expect(db().transaction((tx) => setChannelGroupSetting(tx, 2, 'can_administer_channel_group', anonymous))).rejects.toThrow(
      /not a named user group/,
    );
  });

  it('finds subgroup additions that would make a cycle', async () => {
    expect(await subgroupsThatWouldCycle(db(), 9, [11, 10, 9])).toEqual([11, 9]);
  });

  it('moves system-group membership with the role', async () => {
    await db().transaction((tx) => setUserRole(tx, 6, 400));
    expect(await isUserInGroup(db(), 6, 3)).toBe(true);
    expect(await isUserInGroup(db(), 6, 5)).toBe(false);
    await db().transaction((tx) => setUserRole(tx, 6, 600));
    expect(await isUserInGroup(db(), 6, 3)).toBe(false);
  });

  it('counts only flags that changed', async () => {
    expect(await setFlag(db(), 5, [101, 102, 103], 'starred', true)).toBe(3);
    expect(await setFlag(db(), 5, [101, 102, 103], 'starred', true)).toBe(0);
    expect(await setFlag(db(), 5, [101], 'starred', false)).toBe(1);
    expect(await userMessageFlags(db(), 5, 102)).toEqual(['starred']);
  });

  it('hands out increasing presence update ids and returns the changes after one', async () => {
    const start = await lastPresenceUpdateId(db());
    expect(start).toBe(2);
    const now = Math.floor(Date.now() / 1000);
    const first = await db().transaction((tx) => recordPresence(tx, 4, 'mobile', 'active', now));
    const second = await db().transaction((tx) => recordPresence(tx, 4, 'mobile', 'idle', now + 5));
    expect([first, second]).toEqual([start + 1, start + 2]);
    const changes = await presenceChanges(db(), first, now - 3600);
    expect(changes).toEqual([{ user_id: 4, client: 'mobile', last_active_at: now, last_connected_at: now + 5, update_id: second }]);
  });
});
