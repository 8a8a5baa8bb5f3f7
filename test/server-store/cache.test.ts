/**
 * The in-process cache of user groups and custom emoji (server/store/cache.ts)
 * answers exactly what the database answers, follows cache_version, and is
 * never used by, or filled from, a transaction's handle. The cross-process
 * side is in test/stress/workers.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticate } from '../../server/auth/credentials.js';
import { seedDemoIfEmpty, type DemoLogin } from '../../server/seed/demo.js';
import { CHANNEL, CUSTOM_EMOJI, GROUP, USER } from '../../server/seed/demo-data.js';
import { SharedCache } from '../../server/store/cache.js';
import { findChannelId } from '../../server/store/channels.js';
import type { Db, DbHandle } from '../../server/store/db.js';
import { activeCustomEmojiById, activeCustomEmojiByName } from '../../server/store/emoji.js';
import { isUserInGroup } from '../../server/store/groups.js';
import { migrate } from '../../server/store/migrate.js';
import { USER_COLUMNS } from '../../server/store/users.js';
import { openPglite } from '../../server/store/pglite.js';
import { LISTENER_APPLICATION_NAME, openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

const execFileAsync = promisify(execFile);

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
    // Both databases' caches follow their change feeds from the start.
    expect(cache().groupGraph(db())).not.toBeNull();
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

  it('finds channel ids by name and by id from the cache, and follows a rename and a removal', async () => {
    await observe();
    const statements = vi.spyOn(db(), 'query');
    try {
      expect(await findChannelId(db(), 'Engineering')).toBe(CHANNEL.engineering);
      expect(await findChannelId(db(), CHANNEL.design)).toBe(CHANNEL.design);
      expect(await findChannelId(db(), 'no such channel')).toBeNull();
      expect(await findChannelId(db(), 999_999)).toBeNull();
      const first = statements.mock.calls.length;
      expect(first).toBe(4);
      // Found channels are kept; unknown ones are asked again.
      expect(await findChannelId(db(), 'Engineering')).toBe(CHANNEL.engineering);
      expect(await findChannelId(db(), CHANNEL.design)).toBe(CHANNEL.design);
      expect(statements.mock.calls.length).toBe(first);
      expect(await findChannelId(db(), 'no such channel')).toBeNull();
      expect(statements.mock.calls.length).toBe(first + 1);
    } finally {
      statements.mockRestore();
    }
    // A transaction's handle reads the database.
    await db().transaction(async (tx) => expect(await findChannelId(tx, 'engineering')).toBe(CHANNEL.engineering));

    await db().query('UPDATE channels SET name = $2 WHERE id = $1', [CHANNEL.engineering, 'platform']);
    await observe();
    expect(await findChannelId(db(), 'Engineering')).toBeNull();
    expect(await findChannelId(db(), 'PLATFORM')).toBe(CHANNEL.engineering);
    await db().query('UPDATE channels SET name = $2 WHERE id = $1', [CHANNEL.engineering, 'engineering']);
    await observe();
    expect(await findChannelId(db(), 'Engineering')).toBe(CHANNEL.engineering);
    expect(await findChannelId(db(), 'platform')).toBeNull();

    // A removed channel is no longer found by its id or its name.
    const copy = `INSERT INTO channels SELECT (jsonb_populate_record(NULL::channels, to_jsonb(c) || jsonb_build_object('id', 1000, 'name', 'short-lived'))).* FROM channels c WHERE id = $1`;
    await db().query(copy, [CHANNEL.general]);
    expect(await findChannelId(db(), 'Short-Lived')).toBe(1000);
    expect(await findChannelId(db(), 1000)).toBe(1000);
    await db().query('DELETE FROM channels WHERE id = 1000');
    await observe();
    expect(await findChannelId(db(), 'Short-Lived')).toBeNull();
    expect(await findChannelId(db(), 1000)).toBeNull();
  });
});

describe.each(['pglite', 'postgres'])('change feed on %s', (driver) => {
  const db = () => handles[driver]!;
  /** The tables reported while `fn` runs, and those reported by the time its promise resolved. */
  const reported = async (fn: () => Promise<unknown>) => {
    const tables: string[] = [];
    const stop = db().changes!.subscribe((table) => tables.push(table));
    try {
      await fn().catch(() => undefined);
      return [...tables];
    } finally {
      stop();
    }
  };

  it('reports a committed change before the promise of the statement or COMMIT that committed it resolves, and nothing rolled back', async () => {
    expect(db().changes!.following).toBe(true);
    expect(await reported(() => db().query('UPDATE users SET full_name = full_name WHERE id = $1', [USER.dana]))).toEqual(['users']);
    expect(await reported(() => db().query('UPDATE users SET last_user_input_at = 1 WHERE id = $1', [USER.dana]))).toEqual([]);
    expect(await reported(() => db().query(`UPDATE user_messages SET flags = flags WHERE user_id = $1`, [USER.dana]))).toEqual([]);
    // A change of a shared-cache table bumps cache_version, which reports.
    expect(await reported(() => db().query('UPDATE realm SET name = name'))).toEqual(['cache_version']);
    let insideTransaction: string[] = [];
    const committed = await reported(() =>
      db().transaction(async (tx) => {
        await tx.query('UPDATE users SET full_name = full_name WHERE id = $1', [USER.dana]);
        await tx.query('UPDATE users SET timezone = timezone WHERE id = $1', [USER.dana]);
        insideTransaction = await reported(() => tx.query('UPDATE custom_profile_values SET value = value'));
      }),
    );
    expect(insideTransaction).toEqual([]);
    expect(committed.sort()).toEqual(['custom_profile_values', 'users']);
    expect(
      await reported(() =>
        db().transaction(async (tx) => {
          await tx.query('UPDATE users SET is_active = false WHERE id = $1', [USER.dana]);
          throw new Error('roll back');
        }),
      ),
    ).toEqual([]);
    // A savepoint rolled back inside a committed transaction, and a failing statement, report nothing.
    expect(
      await reported(() =>
        db().transaction(async (tx) => {
          await tx.transaction(async (inner) => {
            await inner.query('UPDATE users SET is_active = false WHERE id = $1', [USER.dana]);
            throw new Error('roll back the savepoint');
          }).catch(() => undefined);
        }),
      ),
    ).toEqual([]);
    expect(await reported(() => db().query('UPDATE users SET email = $2 WHERE id = $1', [USER.dana, 'owner@example.com']))).toEqual([]);
    // Statements PGlite runs on its own path (scripts) count as a change of anything;
    // PostgreSQL runs them on a listening connection like any other.
    expect(await reported(() => db().exec('SELECT 1'))).toEqual(driver === 'pglite' ? ['*'] : []);
    if (driver === 'postgres') expect(await reported(() => db().exec(`UPDATE users SET full_name = full_name WHERE id = ${USER.dana}`))).toEqual(['users']);
  });

  it('reports every column authentication reads: only columns it never reads are left out of the users trigger', async () => {
    const { rows } = await db().query<{ attname: string; covered: boolean }>(
      `SELECT a.attname, a.attnum = ANY (t.tgattr::int2[]) AS covered FROM pg_attribute a
       JOIN pg_trigger t ON t.tgrelid = a.attrelid AND t.tgname = 'users_notify_change'
       WHERE a.attrelid = 'users'::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
    );
    const uncovered = rows.filter((row) => !row.covered).map((row) => row.attname).sort();
    expect(uncovered).toEqual(['api_key_sealed', 'last_user_input_at', 'password_hash']);
    for (const column of uncovered) expect(USER_COLUMNS).not.toMatch(new RegExp(`\\b${column}\\b`));
    expect(rows.length).toBeGreaterThan(20);
  });

  it('serves the shared cache without authentication and drops it with the change that commits', async () => {
    const cache = new SharedCache(db());
    const spy = vi.spyOn(db(), 'query');
    try {
      expect((await activeCustomEmojiById(db(), CUSTOM_EMOJI.id))?.name).toBe(CUSTOM_EMOJI.name);
      expect((await activeCustomEmojiById(db(), CUSTOM_EMOJI.id))?.name).toBe(CUSTOM_EMOJI.name);
      expect(spy).toHaveBeenCalledTimes(1);
      await db().query('UPDATE custom_emoji SET deactivated = true WHERE id = $1', [CUSTOM_EMOJI.id]);
      expect(await activeCustomEmojiById(db(), CUSTOM_EMOJI.id)).toBeNull();
      await db().exec(`UPDATE custom_emoji SET deactivated = false WHERE id = ${CUSTOM_EMOJI.id}`);
      expect((await activeCustomEmojiById(db(), CUSTOM_EMOJI.id))?.name).toBe(CUSTOM_EMOJI.name);
      expect(spy).toHaveBeenCalledTimes(4);
      expect(SharedCache.of(db())).toBe(cache);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps an authentication only when no change came while it was read', async () => {
    const cache = new SharedCache(db());
    const login = logins[driver]!;
    // A change committed while the authenticating statement waits for the lock: what it reads is not kept.
    let release!: () => void;
    const go = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inside = new Promise<void>((resolve) => (started = resolve));
    const held = db().transaction(async (tx) => {
      started();
      await go;
      await tx.query('UPDATE users SET full_name = full_name WHERE id = $1', [login.userId]);
    });
    await inside;
    const waiting = authenticate(db(), login.email, login.apiKey, cache);
    release();
    await held;
    expect(await waiting).not.toBeNull();
    expect(cache.authenticated(db(), login.email)).toBeUndefined();
    expect(await authenticate(db(), login.email, login.apiKey, cache)).not.toBeNull();
    expect(cache.authenticated(db(), login.email)?.user.id).toBe(login.userId);
    // Never for a transaction's handle, which may see its own changes.
    await db().transaction(async (tx) => {
      expect(cache.authenticated(tx, login.email)).toBeUndefined();
    });
  });
});

describe('PostgreSQL: changes other sessions commit', () => {
  const db = () => handles.postgres!;
  let script: pg.Client;
  const tables: string[] = [];
  let stop: () => void;

  beforeAll(async () => {
    // Another process's session (a script, psql): it knows nothing of teamchat's settings.
    script = new pg.Client({ connectionString: server.url });
    await script.connect();
    stop = db().changes!.subscribe((table) => tables.push(table));
  });

  afterAll(async () => {
    stop?.();
    await script?.end();
  });

  /** Waits until `table` has been reported since `from` (notifications from another session arrive as PostgreSQL sends them). */
  const reportedSince = (from: number, table: string) =>
    vi.waitFor(() => expect(tables.slice(from)).toContain(table), { timeout: 5_000, interval: 5 });

  it("reports another session's committed changes, in the order they committed, unless that session turned notifying off", async () => {
    // Every notifying trigger notifies unless the session turned it off (migration 0011).
    const { rows: triggers } = await db().query<{ definition: string }>(
      `SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgfoid = 'notify_change'::regproc`,
    );
    expect(triggers).toHaveLength(10);
    for (const { definition } of triggers) expect(definition).toContain("IS DISTINCT FROM 'off'::text");
    let from = tables.length;
    await script.query('UPDATE users SET full_name = full_name WHERE id = $1', [USER.dana]);
    await reportedSince(from, 'users');
    // Off in that session: nothing, though the next change of the same session is reported.
    from = tables.length;
    await script.query("SET teamchat.notify_changes = 'off'");
    await script.query('UPDATE users SET full_name = full_name WHERE id = $1', [USER.dana]);
    await script.query('RESET teamchat.notify_changes');
    await script.query('UPDATE realm SET name = name');
    await reportedSince(from, 'cache_version');
    expect(tables.slice(from)).not.toContain('users');
    // Nothing for a transaction that rolled back.
    from = tables.length;
    await script.query('BEGIN');
    await script.query('UPDATE users SET is_active = false WHERE id = $1', [USER.dana]);
    await script.query('ROLLBACK');
    await script.query('UPDATE realm SET name = name');
    await reportedSince(from, 'cache_version');
    expect(tables.slice(from)).not.toContain('users');
  });

  it('drops a kept authentication once a script deactivates the user, and refuses the user from then on', async () => {
    const cache = new SharedCache(db());
    const login = logins.postgres!;
    expect(await authenticate(db(), login.email, login.apiKey, cache)).not.toBeNull();
    expect(cache.authenticated(db(), login.email)).toBeDefined();
    const from = tables.length;
    await script.query('UPDATE users SET is_active = false WHERE id = $1', [login.userId]);
    try {
      await reportedSince(from, 'users');
      expect(cache.authenticated(db(), login.email)).toBeUndefined();
      expect(await authenticate(db(), login.email, login.apiKey, cache)).toBeNull();
    } finally {
      await script.query('UPDATE users SET is_active = true WHERE id = $1', [login.userId]);
    }
    await reportedSince(from + 1, 'users');
    expect(await authenticate(db(), login.email, login.apiKey, cache)).not.toBeNull();
  });

  it('keeps nothing while its listening connection is down, reads every request from the database meanwhile, and follows again once it is back', async () => {
    // A handle whose connections pass through a gate: the listening one can be cut, and new connections
    // refused while the pooled one goes on.
    const target = new URL(server.url);
    const upstream = new Map<number, Socket>();
    let open = true;
    const gate = createServer((incoming) => {
      if (!open) return incoming.destroy();
      const outgoing = connect(Number(target.port), target.hostname, () => upstream.set(outgoing.localPort!, outgoing));
      incoming.pipe(outgoing).pipe(incoming);
      const close = () => (incoming.destroy(), outgoing.destroy());
      incoming.on('error', close).on('close', close);
      outgoing.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    const gated = new URL(server.url);
    gated.port = String((gate.address() as AddressInfo).port);
    const handle = await openPostgres({ url: gated.href, maxConnections: 1 });
    const seen: string[] = [];
    handle.changes!.subscribe((table) => seen.push(table));
    try {
      const cache = new SharedCache(handle);
      const login = logins.postgres!;
      expect(handle.changes!.following).toBe(true);
      expect(await authenticate(handle, login.email, login.apiKey, cache)).not.toBeNull();
      expect(cache.authenticated(handle, login.email)).toBeDefined();
      expect(cache.groupGraph(handle)).not.toBeNull();
      const { rows } = await script.query<{ port: number }>('SELECT client_port AS port FROM pg_stat_activity WHERE application_name = $1 AND client_port = ANY ($2::integer[])', [
        LISTENER_APPLICATION_NAME,
        [...upstream.keys()],
      ]);
      expect(rows).toHaveLength(1);
      open = false;
      upstream.get(rows[0]!.port)!.destroy();
      await vi.waitFor(() => expect(handle.changes!.following).toBe(false), { timeout: 5_000, interval: 1 });
      expect(seen).toEqual(['*']);
      expect(cache.authenticated(handle, login.email)).toBeUndefined();
      expect(cache.groupGraph(handle)).toBeNull();
      // Meanwhile a script's change is seen by the very next authentication: each one reads the user.
      const spy = vi.spyOn(handle, 'query');
      try {
        await script.query('UPDATE users SET is_active = false WHERE id = $1', [login.userId]);
        expect(await authenticate(handle, login.email, login.apiKey, cache)).toBeNull();
        await script.query('UPDATE users SET is_active = true WHERE id = $1', [login.userId]);
        expect(await authenticate(handle, login.email, login.apiKey, cache)).not.toBeNull();
        expect(await authenticate(handle, login.email, login.apiKey, cache)).not.toBeNull();
        expect(spy).toHaveBeenCalledTimes(3);
        expect(cache.authenticated(handle, login.email)).toBeUndefined();
        expect(handle.changes!.following).toBe(false);
      } finally {
        spy.mockRestore();
      }
      open = true;
      await vi.waitFor(() => expect(handle.changes!.following).toBe(true), { timeout: 40_000, interval: 10 });
      // Lost, then back (once a notification sent through the pool reached it, not reported itself).
      expect(seen).toEqual(['*', '*']);
      expect(await authenticate(handle, login.email, login.apiKey, cache)).not.toBeNull();
      expect(cache.authenticated(handle, login.email)).toBeDefined();
      expect(cache.groupGraph(handle)).not.toBeNull();
    } finally {
      await handle.close();
      await new Promise((resolve) => gate.close(resolve));
      for (const socket of upstream.values()) socket.destroy();
    }
  });
});

describe('PostgreSQL: pooled connections', () => {
  it('are handed out once they listen, so nothing is queued behind LISTEN (pg warns of that, and pg@9 refuses it)', async () => {
    // A fresh process: pg warns once per process, and a burst on a fresh pool opens every connection at once.
    const dir = mkdtempSync(join(tmpdir(), 'teamchat-pool-'));
    try {
      const script = join(dir, 'burst.mts');
      writeFileSync(
        script,
        `import { openPostgres } from ${JSON.stringify(join(process.cwd(), 'server/store/postgres.ts'))};
const warnings = [];
process.on('warning', (warning) => warnings.push(warning.name + ': ' + warning.message));
const db = await openPostgres({ url: ${JSON.stringify(server.url)}, maxConnections: 4 });
await Promise.all(Array.from({ length: 16 }, (_, i) => db.query('SELECT $1::integer AS n', [i])));
await db.close();
await new Promise((resolve) => setImmediate(resolve));
console.log(JSON.stringify(warnings));
`,
      );
      const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd() });
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PostgreSQL without following changes (DATABASE_FOLLOW_CHANGES=false)', () => {
  it('has no change feed, opens no listening connection, and authenticates every request with a statement', async () => {
    const strict = await openPostgres({ url: server.url, followChanges: false });
    try {
      expect(strict.changes).toBeUndefined();
      const { rows } = await strict.query<{ count: number }>('SELECT count(*)::integer AS count FROM pg_stat_activity WHERE application_name = $1', [
        LISTENER_APPLICATION_NAME,
      ]);
      // The one of the suite's handle only.
      expect(rows[0]!.count).toBe(1);
      const cache = new SharedCache(strict);
      const login = logins.postgres!;
      const spy = vi.spyOn(strict, 'query');
      try {
        for (let i = 0; i < 3; i++) expect(await authenticate(strict, login.email, login.apiKey, cache)).not.toBeNull();
        expect(spy).toHaveBeenCalledTimes(3);
        expect(cache.authenticated(strict, login.email)).toBeUndefined();
      } finally {
        spy.mockRestore();
      }
    } finally {
      await strict.close();
    }
  });
});

describe('the embedded database directory', () => {
  it('is refused to a second opener while open, and taken over from a process that is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamchat-claim-'));
    try {
      const first = await openPglite({ dataDir: dir });
      await expect(openPglite({ dataDir: dir })).rejects.toThrow(/already open in this process/);
      writeFileSync(join(dir, 'teamchat.pid'), String(process.ppid));
      await first.close();
      // The parent (the test runner) is alive: its pid file is respected.
      writeFileSync(join(dir, 'teamchat.pid'), String(process.ppid));
      await expect(openPglite({ dataDir: dir })).rejects.toThrow(new RegExp(`in use by process ${process.ppid}`));
      // A pid no process has (beyond the kernel's limit) is a file left behind.
      writeFileSync(join(dir, 'teamchat.pid'), '2147483646');
      const again = await openPglite({ dataDir: dir });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
