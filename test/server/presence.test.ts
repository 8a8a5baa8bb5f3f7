import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PresenceRow } from '../../server/store/rows.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });
const DAY = 86_400;
const ADA = 2;
const BEN = 3;
const DANA = 5;

/** A fetch that names its client in the User-Agent header, as real clients do. */
const asClient =
  (name: string): typeof fetch =>
  (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'User-Agent': `${name}/1.0 (test)` } });

describe.each(drivers)('update-presence on %s', (driver) => {
  let server: TestServer;
  let seeded: PresenceRow[];
  let now: number;
  beforeAll(async () => {
    server = await startTestServer(driver);
    seeded = (await server.db.query<PresenceRow>('SELECT * FROM user_presence ORDER BY user_id')).rows;
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await server.db.query('DELETE FROM user_presence');
    for (const row of seeded) {
      await server.db.query(
        'INSERT INTO user_presence (user_id, client, last_active_at, last_connected_at, update_id) VALUES ($1, $2, $3, $4, $5)',
        [row.user_id, row.client, row.last_active_at, row.last_connected_at, row.update_id],
      );
    }
    await server.db.query('UPDATE users SET presence_enabled = true, is_active = true, last_user_input_at = NULL');
    await server.db.query('UPDATE subscriptions SET active = true');
  });
  // Each test starts a little after the seeded reports, so they fall in the default history.
  const start = () => {
    now = Math.max(...seeded.map((row) => row.last_connected_at)) + 120;
    server.setNow(now);
    return now;
  };

  const rows = async (userId: number) =>
    (await server.db.query<PresenceRow>('SELECT * FROM user_presence WHERE user_id = $1 ORDER BY client', [userId])).rows;
  const seededRow = (userId: number) => seeded.find((row) => row.user_id === userId)!;
  const lastUpdateId = async () => (await server.db.query<{ id: number }>('SELECT last_update_id AS id FROM presence_sequence')).rows[0]!.id;
  const ada = () => server.client('owner');

  it.each<Who>(['owner', 'admin', 'moderator', 'member', 'guest', 'bot'])('records the presence of %s', async (who) => {
    const at = start();
    await expect(server.client(who).updatePresence({ status: 'active', ping_only: true })).resolves.toEqual({
      result: 'success',
      msg: '',
      presence_last_update_id: -1,
    });
    expect(await rows(server.logins[who].userId)).toContainEqual(expect.objectContaining({ client: 'node', last_active_at: at, last_connected_at: at }));
  });

  it('returns the others in the modern format from last_update_id -1, without the caller', async () => {
    const at = start();
    const response = await ada().updatePresence({ status: 'active', last_update_id: -1 });
    const dana = seededRow(DANA);
    const ben = seededRow(BEN);
    expect(response).toEqual({
      result: 'success',
      msg: '',
      presence_last_update_id: await lastUpdateId(),
      server_timestamp: expect.any(Number),
      presences: {
        [BEN]: { active_timestamp: 0, idle_timestamp: ben.last_connected_at },
        [DANA]: { active_timestamp: dana.last_active_at, idle_timestamp: dana.last_connected_at },
      },
    });
    expect(response.server_timestamp).toBeGreaterThanOrEqual(at);
    expect(response.server_timestamp).toBeLessThan(at + 1);
    expect(await rows(ADA)).toEqual([expect.objectContaining({ client: 'node', last_active_at: at, last_connected_at: at })]);
  });

  it('returns the legacy format keyed by email when neither last_update_id nor slim_presence is given', async () => {
    start();
    const response = await ada().updatePresence({ status: 'idle' });
    const dana = seededRow(DANA);
    const ben = seededRow(BEN);
    expect(response.presence_last_update_id).toBe(await lastUpdateId());
    expect(response.presences).toEqual({
      'admin@example.com': {
        aggregated: { client: 'website', status: 'idle', timestamp: ben.last_connected_at },
        website: { client: 'website', status: 'idle', timestamp: ben.last_connected_at, pushable: false },
      },
      'member@example.com': {
        aggregated: { client: 'website', status: 'active', timestamp: dana.last_connected_at },
        website: { client: 'website', status: 'active', timestamp: dana.last_connected_at, pushable: false },
      },
    });
  });

  it('uses the modern format for slim_presence without last_update_id', async () => {
    start();
    const response = await ada().updatePresence({ status: 'active', slim_presence: true });
    expect(Object.keys(response.presences ?? {})).toEqual([String(BEN), String(DANA)]);
  });

  it('answers only changes after last_update_id, and the same id when nothing changed', async () => {
    const at = start();
    const first = await ada().updatePresence({ status: 'active', last_update_id: -1 });
    const again = await ada().updatePresence({ status: 'active', last_update_id: first.presence_last_update_id });
    expect(again).toMatchObject({ presence_last_update_id: first.presence_last_update_id, presences: {} });
    server.setNow(at + 5);
    await server.client('member').updatePresence({ status: 'idle', ping_only: true });
    const changed = await ada().updatePresence({ status: 'active', last_update_id: first.presence_last_update_id });
    expect(changed.presence_last_update_id).toBeGreaterThan(first.presence_last_update_id);
    expect(changed.presences).toEqual({ [DANA]: { active_timestamp: seededRow(DANA).last_active_at, idle_timestamp: at + 5 } });
  });

  it('never answers less than the last_update_id sent', async () => {
    start();
    const response = await ada().updatePresence({ status: 'active', last_update_id: 1_000_000_000_000 });
    expect(response).toMatchObject({ presence_last_update_id: 1_000_000_000_000, presences: {} });
  });

  it('stores a report only when the status changes or a minute has passed', async () => {
    const at = start();
    await ada().updatePresence({ status: 'active', ping_only: true });
    const [first] = await rows(ADA);
    server.setNow(at + 30);
    await ada().updatePresence({ status: 'active', ping_only: true });
    expect(await rows(ADA)).toEqual([first]);
    await ada().updatePresence({ status: 'idle', ping_only: true });
    const [idle] = await rows(ADA);
    expect(idle).toMatchObject({ last_active_at: at, last_connected_at: at + 30 });
    expect(idle!.update_id).toBeGreaterThan(first!.update_id);
    server.setNow(at + 95);
    await ada().updatePresence({ status: 'idle', ping_only: true });
    const [later] = await rows(ADA);
    expect(later).toMatchObject({ last_active_at: at, last_connected_at: at + 95 });
    expect(later!.update_id).toBeGreaterThan(idle!.update_id);
  });

  it('keeps one row per client and sums them up in both formats', async () => {
    const at = start();
    await server.client('member', { fetch: asClient('ZulipMobile') }).updatePresence({ status: 'idle', ping_only: true });
    expect((await rows(DANA)).map((row) => row.client)).toEqual(['ZulipMobile', 'website']);
    const dana = seededRow(DANA);
    const legacy = await ada().updatePresence({ status: 'active' });
    expect(legacy.presences).toMatchObject({
      'member@example.com': {
        // An active client wins over a more recent idle one.
        aggregated: { client: 'website', status: 'active', timestamp: dana.last_connected_at },
        website: { client: 'website', status: 'active', timestamp: dana.last_connected_at, pushable: false },
        ZulipMobile: { client: 'ZulipMobile', status: 'idle', timestamp: at, pushable: false },
      },
    });
    const modern = await ada().updatePresence({ status: 'active', last_update_id: -1 });
    expect(modern.presences).toMatchObject({ [DANA]: { active_timestamp: dana.last_active_at, idle_timestamp: at } });
  });

  it('applies history_limit_days to a full fetch only', async () => {
    const at = start();
    server.setNow(at + 20 * DAY);
    const recent = await ada().updatePresence({ status: 'active', last_update_id: -1 });
    expect(recent.presences).toEqual({});
    expect(recent.presence_last_update_id).toBe(await lastUpdateId());
    const longer = await ada().updatePresence({ status: 'active', last_update_id: -1, history_limit_days: 30 });
    expect(Object.keys(longer.presences ?? {})).toEqual([String(BEN), String(DANA)]);
    const legacy = await ada().updatePresence({ status: 'active', history_limit_days: 30 });
    expect(Object.keys(legacy.presences ?? {})).toEqual(['admin@example.com', 'member@example.com']);
    // A positive last_update_id ignores the limit: Ben's report is newer than update 1, however old it is.
    const since = Math.min(seededRow(BEN).update_id, seededRow(DANA).update_id);
    const incremental = await ada().updatePresence({ status: 'active', last_update_id: since, history_limit_days: 1 });
    expect(Object.keys(incremental.presences ?? {})).toEqual([String(seededRow(BEN).update_id > since ? BEN : DANA)]);
  });

  it('answers ping_only with no presence data, repeating the last_update_id sent', async () => {
    start();
    const response = await ada().updatePresence({ status: 'active', ping_only: true, last_update_id: 7 });
    expect(response).toEqual({ result: 'success', msg: '', presence_last_update_id: 7 });
  });

  it('hides users with presence disabled, bots and deactivated users', async () => {
    start();
    await server.client('bot').updatePresence({ status: 'active', ping_only: true });
    await server.db.query('UPDATE users SET presence_enabled = false WHERE id = $1', [DANA]);
    await server.db.query('UPDATE users SET is_active = false WHERE id = $1', [BEN]);
    const response = await ada().updatePresence({ status: 'active', last_update_id: -1 });
    expect(response.presences).toEqual({});
  });

  it('answers -1 without last_update_id when no data is returned', async () => {
    start();
    await server.db.query('UPDATE users SET presence_enabled = false WHERE id <> $1', [ADA]);
    const response = await ada().updatePresence({ status: 'active' });
    expect(response).toMatchObject({ presence_last_update_id: -1, presences: {} });
  });

  it('limits guests to the users they share channels or conversations with under CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE', async () => {
    start();
    // Dana no longer shares a channel with the guest, and they never wrote to each other.
    await server.db.query('UPDATE subscriptions SET active = false WHERE user_id = $1 AND channel_id IN (1, 4)', [DANA]);
    const guestView = async () => Object.keys((await server.client('guest').updatePresence({ status: 'active', last_update_id: -1 })).presences ?? {});
    expect(await guestView()).toEqual([String(BEN), String(DANA)]);
    server.config.canAccessAllUsersGroupLimitsPresence = true;
    try {
      expect(await guestView()).toEqual([String(BEN)]);
      const memberView = await server.client('moderator').updatePresence({ status: 'active', last_update_id: -1 });
      expect(Object.keys(memberView.presences ?? {})).toEqual(expect.arrayContaining([String(BEN), String(DANA)]));
    } finally {
      server.config.canAccessAllUsersGroupLimitsPresence = false;
    }
  });

  it('records new_user_input', async () => {
    const at = start();
    await ada().updatePresence({ status: 'active', ping_only: true });
    const input = async () => (await server.db.query<{ at: number | null }>('SELECT last_user_input_at AS at FROM users WHERE id = $1', [ADA])).rows[0]!.at;
    expect(await input()).toBeNull();
    await ada().updatePresence({ status: 'active', ping_only: true, new_user_input: true });
    expect(await input()).toBe(at);
  });

  it('refuses an unknown status and a negative history limit, storing nothing', async () => {
    start();
    await expect(ada().updatePresence({ status: 'away' as never })).rejects.toEqual(refused(/status/));
    await expect(ada().updatePresence({ status: 'active', history_limit_days: -1 })).rejects.toEqual(refused(/^history_limit_days must not be negative$/));
    expect(await rows(ADA)).toEqual([]);
  });
});
