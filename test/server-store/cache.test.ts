/**
 * The in-process cache of user groups and custom emoji (server/store/cache.ts)
 * answers exactly what the database answers, follows cache_version, and is
 * never used by, or filled from, a transaction's handle. The cross-process
 * side is in test/load/workers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../server/auth/credentials.js';
import { seedDemoIfEmpty, type DemoLogin } from '../../server/seed/demo.js';
import { CUSTOM_EMOJI, GROUP, USER } from '../../server/seed/demo-data.js';
import { SharedCache } from '../../server/store/cache.js';
import type { Db, DbHandle } from '../../server/store/db.js';
import { activeCustomEmojiById, activeCustomEmojiByName } from '../../server/store/emoji.js';
import { isUserInGroup } from '../../server/store/groups.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

let server: ThrowawayPostgres;
const handles: Record<string, DbHandle> = {};
const logins: Record<string, DemoLogin> = {};

beforeAll(async () => {
  server = await startPostgres();
  [handles.pglite, handles.postgres] = await Promise.all([openPglite({ dataDir: null, checkHandleUse: true }), openPostgres({ url: server.url })]);
  for (const [driver, db] of Object.entries(handles)) {
    await migrate(db);
    const seeded = await seedDemoIfEmpty(db, { password: 'demo-password', secret: Buffer.alloc(32, 7), videoChatProvider: null });
    logins[driver] = seeded!.find((login) => login.email === 'member@example.com')!;
  }
});

afterAll(async () => {
  await Promise.all(Object.values(handles).map((db) => db.close()));
  await server?.stop();
});

describe.each(['pglite', 'postgres'])('shared cache on %s', (driver) => {
  const db = () => handles[driver]!;
  const cache = () => SharedCache.of(db())!;
  // Authentication is what reads the version; the member's row is as good as any.
  const observe = async () => expect(await authenticate(db(), logins[driver]!.email, logins[driver]!.apiKey, cache())).not.toBeNull();
  const pairs = async (handle: Db) => {
    const groups = (await handle.query<{ id: number }>('SELECT id FROM user_groups ORDER BY id')).rows.map((row) => row.id);
    const users = (await handle.query<{ id: number }>('SELECT id FROM users ORDER BY id')).rows.map((row) => row.id);
    return groups.flatMap((group) => users.map((user) => [group, user] as const));
  };
  /** Every (group, user) answer through `handle`. */
  const matrix = async (handle: Db) => {
    const answers: string[] = [];
    for (const [group, user] of await pairs(handle)) if (await isUserInGroup(handle, user, group)) answers.push(`${group}:${user}`);
    return answers;
  };
  /** The same answers from the database itself: a transaction's handle is never served from the cache. */
  const fromDatabase = () => db().transaction((tx) => matrix(tx));

  it('answers group membership from the cache exactly as the database does, and follows changes', async () => {
    new SharedCache(db());
    expect(cache().groupGraph(db())).toBeNull(); // nothing observed yet: the database answers
    await observe();
    expect(cache().groupGraph(db())).not.toBeNull();
    const before = await fromDatabase();
    expect(before.length).toBeGreaterThan(10);
    expect(await matrix(db())).toEqual(before);
    expect(before).toContain(`${GROUP['role:members']}:${USER.dana}`);

    // A deactivated user belongs to no group; a removed membership and a new subgroup count at once.
    await db().query('UPDATE users SET is_active = false WHERE id = $1', [USER.eli]);
    await db().query('DELETE FROM user_group_members WHERE group_id = $1 AND user_id = $2', [GROUP.backend, USER.dana]);
    await db().query('INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES ($1, $2)', [GROUP.frontend, GROUP.backend]);
    await observe();
    const after = await fromDatabase();
    expect(after).not.toEqual(before);
    expect(after.some((pair) => pair.endsWith(`:${USER.eli}`))).toBe(false);
    expect(await matrix(db())).toEqual(after);

    // A transaction's own change is seen inside it, never by the cache, and is gone after the rollback.
    const inside = await db()
      .transaction(async (tx) => {
        await tx.query('INSERT INTO user_group_members (group_id, user_id) VALUES ($1, $2)', [GROUP.backend, USER.dana]);
        const seen = await isUserInGroup(tx, USER.dana, GROUP.backend);
        throw Object.assign(new Error('roll back'), { seen });
      })
      .catch((error: { seen?: boolean }) => error.seen);
    expect(inside).toBe(true);
    await observe();
    expect(await isUserInGroup(db(), USER.dana, GROUP.backend)).toBe(false);
    expect(await matrix(db())).toEqual(after);

    await db().query('UPDATE users SET is_active = true WHERE id = $1', [USER.eli]);
    await db().query('INSERT INTO user_group_members (group_id, user_id) VALUES ($1, $2)', [GROUP.backend, USER.dana]);
    await db().query('DELETE FROM user_group_subgroups WHERE group_id = $1 AND subgroup_id = $2', [GROUP.frontend, GROUP.backend]);
    await observe();
    expect(await matrix(db())).toEqual(before);
  });

  it('answers active custom emoji from the cache and follows a deactivation', async () => {
    await observe();
    expect((await activeCustomEmojiByName(db(), CUSTOM_EMOJI.name))?.id).toBe(CUSTOM_EMOJI.id);
    expect((await activeCustomEmojiById(db(), CUSTOM_EMOJI.id))?.name).toBe(CUSTOM_EMOJI.name);
    expect(await activeCustomEmojiByName(db(), 'no_such_emoji')).toBeNull();
    await db().query('UPDATE custom_emoji SET deactivated = true WHERE id = $1', [CUSTOM_EMOJI.id]);
    await observe();
    expect(await activeCustomEmojiByName(db(), CUSTOM_EMOJI.name)).toBeNull();
    expect(await activeCustomEmojiById(db(), CUSTOM_EMOJI.id)).toBeNull();
    await db().query('UPDATE custom_emoji SET deactivated = false WHERE id = $1', [CUSTOM_EMOJI.id]);
    await observe();
    expect((await activeCustomEmojiById(db(), CUSTOM_EMOJI.id))?.name).toBe(CUSTOM_EMOJI.name);
  });
});
