/**
 * The shared cache keeps the part of each message every viewer sees alike
 * (server/store/cache.ts, migration 0007, server/docs/change-feed.md), and
 * messageForViewer then reads only the caller's flags and subscription. What
 * it answers must be what the database answers, on both databases, for every
 * demo user and message, warm or cold, and after every kind of change the
 * view reads: a stale answer after any of them fails here. Changes other
 * sessions commit on PostgreSQL are in test/server-store/cache.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNEL, MESSAGES, TADA, USER } from '../../server/seed/demo-data.js';
import { seedDemoIfEmpty, type DemoLogin } from '../../server/seed/demo.js';
import { SharedCache } from '../../server/store/cache.js';
import type { Db, DbHandle } from '../../server/store/db.js';
import { messageForViewer, messageForViewerSql } from '../../server/store/messages.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

let server: ThrowawayPostgres;
let db: DbHandle;
let cache: SharedCache;
let logins: DemoLogin[];

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await server?.stop();
});

type Viewer = { id: number; isGuest: boolean };
const viewers = () => logins.map((login) => ({ id: login.userId, isGuest: login.role === 600 }));
const messageIds = async () => (await db.query<{ id: number }>('SELECT id FROM messages ORDER BY id')).rows.map((row) => row.id);
/** The answer from the database itself: a transaction's handle is never served from the cache. */
const fromDatabase = (viewer: Viewer, id: number) => db.transaction((tx) => messageForViewer(tx, viewer, id));

/** Every viewer's answer for every message (and one that does not exist), through the cache, twice: cold then warm. */
async function expectAllAsDatabase(label: string): Promise<void> {
  const ids = await messageIds();
  for (const viewer of viewers()) {
    for (const id of [...ids, ids.at(-1)! + 1000]) {
      const expected = await fromDatabase(viewer, id);
      expect(await messageForViewer(db, viewer, id), `${label}: user ${viewer.id} message ${id}`).toEqual(expected);
      expect(await messageForViewer(db, viewer, id), `${label} (warm): user ${viewer.id} message ${id}`).toEqual(expected);
    }
  }
}

describe.each(['pglite', 'postgres'])('message views kept on %s', (driver) => {
  beforeAll(async () => {
    db = driver === 'pglite' ? await openPglite({ dataDir: null, checkHandleUse: true }) : await openPostgres({ url: server.url });
    await migrate(db);
    logins = (await seedDemoIfEmpty(db, { password: 'demo-password', secret: Buffer.alloc(32, 7), videoChatProvider: null }))!;
    cache = new SharedCache(db);
  });

  afterAll(async () => {
    await db?.close();
  });

  it('answer what the database answers for every user and message, and a kept message costs one statement by key', async () => {
    expect(new Set(viewers().map((viewer) => viewer.isGuest))).toEqual(new Set([true, false]));
    await expectAllAsDatabase('seeded');
    const ids = await messageIds();
    expect(ids.every((id) => cache.messageView(db, id) !== undefined)).toBe(true);
    expect(cache.messageView(db, ids.at(-1)! + 1000)).toBeUndefined();
    const spy = vi.spyOn(db, 'query');
    try {
      const member: Viewer = { id: USER.dana, isGuest: false };
      await messageForViewer(db, member, MESSAGES.deployDone.id);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]![0]).not.toContain('json_agg');
    } finally {
      spy.mockRestore();
    }
  });

  const changes: [string, (db: Db) => Promise<unknown>][] = [
    ['an edit', (d) => d.query(`UPDATE messages SET content = content || '!', rendered_content = rendered_content || '!' WHERE id = $1`, [MESSAGES.thanks.id])],
    ['an edit history entry', (d) => d.query(`INSERT INTO message_edits (message_id, user_id, edited_at, prev_topic, new_topic) VALUES ($1, $2, 1, 'a', 'b')`, [MESSAGES.lunch.id, USER.dana])],
    ['a topic move', (d) => d.query(`UPDATE messages SET topic = 'moved here' WHERE id = $1`, [MESSAGES.lunch.id])],
    ['a move to a private channel', (d) => d.query(`UPDATE messages SET channel_id = $2, recipient_id = (SELECT id FROM recipients WHERE channel_id = $2) WHERE id = $1`, [MESSAGES.lunch.id, CHANNEL.design])],
    ['a reaction', (d) => d.query(`INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type, created_at) VALUES ($1, $2, $3, $4, $5, 1)`, [MESSAGES.thanks.id, USER.eli, TADA.emojiName, TADA.emojiCode, TADA.reactionType])],
    ['a removed reaction', (d) => d.query('DELETE FROM reactions WHERE message_id = $1 AND user_id = $2', [MESSAGES.thanks.id, USER.eli])],
    ['a submessage', (d) => d.query(`INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES ($1, $2, 'widget', '{}')`, [MESSAGES.deployDone.id, USER.ben])],
    ['a sender renamed', (d) => d.query(`UPDATE users SET full_name = 'Dana Renamed' WHERE id = $1`, [USER.dana])],
    ['a new avatar', (d) => d.query('UPDATE users SET avatar_version = avatar_version + 1 WHERE id = $1', [USER.ben])],
    ['a channel renamed', (d) => d.query(`UPDATE channels SET name = 'general-renamed' WHERE id = $1`, [CHANNEL.general])],
    ['a channel made private with protected history', (d) => d.query('UPDATE channels SET is_private = true, history_public_to_subscribers = false WHERE id = $1', [CHANNEL.engineering])],
    ['a channel made web-public', (d) => d.query('UPDATE channels SET is_private = false, is_web_public = true, history_public_to_subscribers = true WHERE id = $1', [CHANNEL.engineering])],
    ['an unsubscription (read per request)', (d) => d.query('UPDATE subscriptions SET active = false WHERE channel_id = $1 AND user_id = $2', [CHANNEL.design, USER.chen])],
    ['a flag (read per request)', (d) => d.query(`UPDATE user_messages SET flags = array_append(flags, 'starred') WHERE message_id = $1`, [MESSAGES.flakyTest.id])],
    ['a deleted message', (d) => d.query('DELETE FROM messages WHERE id = $1', [MESSAGES.lunch.id])],
    ['a change made by a script', (d) => d.exec(`UPDATE messages SET rendered_content = '<p>scripted</p>' WHERE id = ${MESSAGES.flakyTest.id}`)],
  ];

  it.each(changes)('follow %s', async (label, change) => {
    await expectAllAsDatabase(`before ${label}`);
    await change(db);
    await expectAllAsDatabase(`after ${label}`);
  });

  it('are not dropped by what cannot change them, and keep nothing rolled back', async () => {
    const id = MESSAGES.deployDone.id;
    const viewer: Viewer = { id: USER.ben, isGuest: false };
    await messageForViewer(db, viewer, id);
    const kept = cache.messageView(db, id);
    expect(kept).toBeDefined();
    // Flags, presence and a new message leave every kept view as it is.
    await db.query(`UPDATE user_messages SET flags = array_remove(flags, 'starred') WHERE user_id = $1`, [USER.ben]);
    await db.query('UPDATE users SET last_user_input_at = 1 WHERE id = $1', [USER.ben]);
    await db.query(
      `INSERT INTO messages (sender_id, type, recipient_id, channel_id, topic, content, rendered_content, sent_at)
       SELECT $1, 'stream', id, channel_id, 'new', 'new', '<p>new</p>', 1 FROM recipients WHERE channel_id = $2`,
      [USER.ben, CHANNEL.general],
    );
    await db.transaction(async (tx) => {
      await tx.query(`UPDATE messages SET content = 'rolled back' WHERE id = $1`, [id]);
      await tx.transaction(async (inner) => inner.query(`UPDATE reactions SET emoji_name = 'x'`)).catch(() => undefined);
      throw new Error('roll back');
    }).catch(() => undefined);
    expect(cache.messageView(db, id)).toBe(kept);
    await expectAllAsDatabase('after changes that keep the views');
  });

  it('keep a view only when no change came while it was read', async () => {
    const id = MESSAGES.thanks.id;
    const viewer: Viewer = { id: USER.ben, isGuest: false };
    await db.query('UPDATE messages SET client = client WHERE id = $1', [id]);
    expect(cache.messageView(db, id)).toBeUndefined();
    // A change committed while the read waits for the lock: what it reads is not kept.
    let release!: () => void;
    const go = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inside = new Promise<void>((resolve) => (started = resolve));
    const held = db.transaction(async (tx) => {
      started();
      await go;
      await tx.query(`UPDATE messages SET content = 'changed while read' WHERE id = $1`, [id]);
    });
    await inside;
    const waiting = messageForViewer(db, viewer, id);
    release();
    await held;
    expect((await waiting)?.content).toBe('changed while read');
    expect(cache.messageView(db, id)).toBeUndefined();
    expect((await messageForViewer(db, viewer, id))?.content).toBe('changed while read');
    expect(cache.messageView(db, id)?.content).toBe('changed while read');
    // Never for a transaction's handle, which may see its own changes.
    await db.transaction(async (tx) => {
      expect(cache.messageView(tx, id)).toBeUndefined();
      expect(cache.messageTicket(tx)).toBeUndefined();
    });
  });

  it('are shared read-only: a reader cannot change what the next one sees', async () => {
    const viewer: Viewer = { id: USER.dana, isGuest: false };
    const id = MESSAGES.deployDone.id;
    const first = (await messageForViewer(db, viewer, id))!;
    expect(first.edits.length).toBeGreaterThan(0);
    expect(() => (first.edits as unknown[]).push({})).toThrow(TypeError);
    expect(() => {
      (first.channel as { name: string }).name = 'x';
    }).toThrow(TypeError);
    // The answer object itself is the caller's own.
    first.content = 'mine';
    expect((await messageForViewer(db, viewer, id))!.content).not.toBe('mine');
  });

  it('are dropped by every column the view reads: the triggers of migration 0007 leave out only columns it never reads', async () => {
    const sql = messageForViewerSql('$1', '$2', '$3');
    for (const [table, trigger, alias] of [['messages', 'messages_notify_change', 'm'], ['channels', 'channels_notify_change', 'c']] as const) {
      const { rows } = await db.query<{ attname: string; covered: boolean }>(
        `SELECT a.attname, a.attnum = ANY (t.tgattr::int2[]) AS covered FROM pg_attribute a
         JOIN pg_trigger t ON t.tgrelid = a.attrelid AND t.tgname = $2
         WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
        [table, trigger],
      );
      expect(rows.length).toBeGreaterThan(5);
      for (const row of rows) if (!row.covered) expect(sql, `${table}.${row.attname}`).not.toMatch(new RegExp(`\\b${alias}\\.${row.attname}\\b`));
    }
  });
});
