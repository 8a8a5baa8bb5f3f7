/**
 * Flags for a narrow cost in proportion to the range, not to the caller's
 * history: over a caller with HISTORY copies (and the other subscribers with
 * as many), the statement updateFlagOverRange sends reads a few hundred rows
 * of user_messages and messages for a range of about 100, whatever its
 * anchor. Measured without timing: EXPLAIN ANALYZE of the very statement,
 * the rows each scan of those tables returned or filtered out, summed. Both
 * plans a prepared statement may run (custom and generic), on both
 * databases, with the planner's default estimates (PostgreSQL before
 * autovacuum has analysed; PGlite with its driver's analysis turned off)
 * and after ANALYZE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeParams, updateFlagOverRange, type RangeUpdate } from '../../server/domain/flags.js';
import { SqlParams } from '../../server/domain/narrow.js';
import { seedDemoIfEmpty } from '../../server/seed/demo.js';
import { CHANNEL, USER } from '../../server/seed/demo-data.js';
import type { Db, DbHandle } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

const HISTORY = 10_000;
/** Rows read per statement, all scans of user_messages and messages together, for a range of about 100. */
const BOUND = 2_500;
const MEMBER = USER.dana;

let server: ThrowawayPostgres;
const handles: Record<string, DbHandle> = {};

beforeAll(async () => {
  server = await startPostgres();
  [handles.pglite, handles.postgres] = await Promise.all([openPglite({ dataDir: null, autoAnalyze: false }), openPostgres({ url: server.url })]);
  await Promise.all(
    Object.values(handles).map(async (db) => {
      await migrate(db);
      await seedDemoIfEmpty(db, { password: 'demo-password', secret: Buffer.alloc(32, 7), videoChatProvider: null });
      // A long history in general, a copy for every subscriber; the member has read all of it.
      await db.exec(`
        INSERT INTO messages (sender_id, type, recipient_id, channel_id, topic, content, rendered_content, sent_at)
        SELECT ${USER.ben}, 'stream', r.id, r.channel_id, CASE WHEN g % 10 = 0 THEN 'rare' ELSE 'busy' END, 'x', '<p>x</p>', 1700000000 + g
        FROM generate_series(1, ${HISTORY}) g, recipients r WHERE r.channel_id = ${CHANNEL.general};
        INSERT INTO user_messages (user_id, message_id, flags)
        SELECT s.user_id, m.id, CASE WHEN s.user_id = ${MEMBER} THEN '{read}'::text[] ELSE '{}' END
        FROM messages m JOIN subscriptions s ON s.channel_id = m.channel_id AND s.active
        WHERE m.content = 'x'`);
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(handles).map((db) => db.close()));
  await server?.stop();
});

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/**
 * Rows each scan of user_messages or messages (or one of their indexes)
 * returned or discarded, times its loops, plus the pairs of rows any join
 * compared and discarded (a nested loop comparing every pair reads few rows).
 */
function rowsRead(node: PlanNode, found: string[] = []): number {
  const relation = String(node['Relation Name'] ?? node['Index Name'] ?? '');
  const loops = Number(node['Actual Loops'] ?? 1);
  let own = 0;
  if (/^(user_messages|messages)/.test(relation) && String(node['Node Type']).includes('Scan')) {
    const rows = Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0) + Number(node['Rows Removed by Index Recheck'] ?? 0);
    own = rows * loops;
  }
  own += Number(node['Rows Removed by Join Filter'] ?? 0) * loops;
  if (own > 0) found.push(`${String(node['Node Type'])} ${relation}: ${own}`);
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, found), 0);
}

/** The statement updateFlagOverRange sends for `request`, with its parameters. */
async function statementOf(db: Db, request: RangeUpdate): Promise<{ sql: string; params: readonly unknown[] }> {
  const sent = { sql: '', params: [] as readonly unknown[] };
  const recorder: Db = {
    driver: db.driver,
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      sent.sql = sql;
      sent.params = params ?? [];
      return { rows: [{ ids: [], before_count: 0, after_count: 0, other_channels: null, updated_count: 0 }] as T[], rowCount: 1 };
    },
    exec: () => Promise.reject(new Error('not used')),
    transaction: () => Promise.reject(new Error('not used')),
  };
  await updateFlagOverRange(recorder, request);
  return sent;
}

const literal = (value: unknown): string =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;

/** How the statement is planned: always a custom plan, always the generic plan, or as the server's connections choose. */
type Mode = 'custom' | 'generic' | 'auto';
const ALL_MODES: Mode[] = ['custom', 'generic', 'auto'];

/** EXPLAIN ANALYZE of the statement prepared under `mode`, in a transaction rolled back (it writes), after `setup` in it. */
async function explain(db: DbHandle, request: RangeUpdate, mode: Mode, setup?: string): Promise<PlanNode> {
  const { sql, params } = await statementOf(db, request);
  let plan: PlanNode | undefined;
  await db
    .transaction(async (tx) => {
      if (setup) await tx.exec(setup);
      if (mode !== 'auto') await tx.query(`SET LOCAL plan_cache_mode = force_${mode}_plan`);
      await tx.query(`PREPARE range_plan AS ${sql}`);
      // As a pooled connection runs it: the plan cache chooses between custom and generic plans after five executions.
      if (mode === 'auto') for (let i = 0; i < 6; i++) await tx.query(`EXECUTE range_plan(${params.map(literal).join(', ')})`);
      const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE range_plan(${params.map(literal).join(', ')})`);
      const json = rows[0]!['QUERY PLAN'];
      plan = (typeof json === 'string' ? JSON.parse(json) : json)[0].Plan as PlanNode;
      // A prepared statement outlives the transaction.
      await tx.query('DEALLOCATE range_plan');
      throw new Error('roll back');
    })
    .catch((error: Error) => {
      if (error.message !== 'roll back') throw error;
    });
  return plan!;
}

const request = (over: Partial<RangeUpdate>): RangeUpdate => ({
  condition: 'true',
  params: rangeParams(MEMBER, false),
  anchor: 'newest',
  includeAnchor: true,
  numBefore: 100,
  numAfter: 0,
  flag: 'starred',
  present: true,
  skipUnsubscribed: false,
  ...over,
});

const unread = `(NOT ('read' = ANY (um.flags)))`;
/** The member's copies of the first and the middle message of the history unread again, the rest read. */
const twoUnread = ({ first, middle }: { first: number; middle: number }) =>
  `UPDATE user_messages SET flags = '{}' WHERE user_id = ${MEMBER} AND message_id IN (${first}, ${middle})`;

/** Each case: its name, the request, SQL run before it (rolled back with it), and the plans it is checked under (all three unless given). */
const cases: [string, (ids: { first: number; middle: number }) => RangeUpdate, ((ids: { first: number; middle: number }) => string)?, Mode[]?][] = [
  ['anchor newest, 100 before', () => request({})],
  ['anchor oldest, 100 after', () => request({ anchor: 'oldest', numBefore: 0, numAfter: 100 })],
  ['anchor first_unread, all read: the newest, 100 before and after', () => request({ anchor: 'first_unread', numAfter: 100, flag: 'read' })],
  ['an ID in the middle, 50 each side, read cleared but not in unsubscribed channels', ({ middle }) =>
    request({ anchor: { id: middle }, numBefore: 50, numAfter: 50, flag: 'read', present: false, skipUnsubscribed: true })],
  ['an ID at the start of the history, 100 after, nothing before it', ({ first }) => request({ anchor: { id: first }, numBefore: 100, numAfter: 100 })],
  ['a channel and topic narrow matching one message in ten, 10 each side', ({ middle }) => {
    const params = new SqlParams(rangeParams(MEMBER, false).values);
    const condition = `COALESCE((m.channel_id = ${params.add(CHANNEL.general)}), false) AND COALESCE((m.type = 'stream' AND lower(m.topic) = lower(${params.add('rare')})), false)`;
    return request({ condition, params, anchor: { id: middle }, numBefore: 10, numAfter: 10 });
  }],
  ['a channel narrow, 100 before the newest', () => {
    const params = new SqlParams(rangeParams(MEMBER, false).values);
    return request({ condition: `(m.channel_id = ${params.add(CHANNEL.general)})`, params, flag: 'read' });
  }],
  // The demo's few messages in engineering, below a history in general: a walk of every message reads the history.
  // A generic plan cannot know that this channel is small (analysed, it expects one message in six to match and
  // walks messages_pkey), so it is not checked; the plan cache keeps custom plans for it, which `auto` checks.
  ['a channel holding few of the messages, 100 before the newest', () => {
    const params = new SqlParams(rangeParams(MEMBER, false).values);
    return request({ condition: `(m.channel_id = ${params.add(CHANNEL.engineering)})`, params, flag: 'read' });
  }, undefined, ['custom', 'auto']],
  ['is:unread when nothing is unread, anchor newest', () => request({ condition: unread, flag: 'read' })],
  // Two unread copies half the history apart: a walk of all users' copies, or of every message, between them reads thousands of rows.
  ['is:unread with two unread copies far apart, anchor oldest, 100 after', () => request({ condition: unread, anchor: 'oldest', numBefore: 0, numAfter: 100 }), twoUnread],
  ['is:unread with two unread copies far apart, anchor newest, 100 before', () => request({ condition: unread }), twoUnread],
  ['first_unread with two unread copies far apart, 100 each side', () => request({ anchor: 'first_unread', numAfter: 100 }), twoUnread],
];

describe.each(['pglite', 'postgres'])('flags for a narrow over a long history on %s', (driver) => {
  const db = () => handles[driver]!;
  const ids = async () => {
    const { rows } = await db().query<{ first: number; last: number }>(`SELECT min(id) AS first, max(id) AS last FROM messages WHERE content = 'x'`);
    return { first: rows[0]!.first, middle: Math.floor((rows[0]!.first + rows[0]!.last) / 2) };
  };
  const check = async (label: string) => {
    const at = await ids();
    for (const [name, make, setup, modes = ALL_MODES] of cases) {
      for (const mode of modes) {
        const found: string[] = [];
        const read = rowsRead(await explain(db(), make(at), mode, setup?.(at)), found);
        if (process.env.SHOW_READ) console.log(driver, label, name, mode, read);
        expect(read, `${label}, ${name}, ${mode} plan: ${found.join('; ')}`).toBeLessThanOrEqual(BOUND);
      }
    }
  };

  it('has the history the bound is measured against', async () => {
    const { rows } = await db().query<{ n: number }>('SELECT count(*)::integer AS n FROM user_messages WHERE user_id = $1', [MEMBER]);
    expect(rows[0]!.n).toBeGreaterThan(HISTORY);
    // The same statement over the range answers as a range of about 100 should.
    const result = await updateFlagOverRange(db(), request({ flag: 'collapsed' }));
    expect(result).toMatchObject({ foundOldest: false, foundNewest: true, updatedCount: 101 });
    expect(result.ids).toHaveLength(101);
  });

  it('reads the range, not the history, with the default estimates', async () => {
    // Before analysis PostgreSQL estimates every table small. A narrow on
    // messages' columns probes each message for the caller's copy, and one
    // on the caller's flags looks each copy's message up, so neither plan
    // depends on the estimates (PGlite, which never analyses, looks each
    // message up; its driver analyses too, but not here).
    await check('default estimates');
  }, 60_000);

  it('reads the range, not the history, once the tables are analysed', async () => {
    await db().exec('ANALYZE');
    await check('analysed');
  }, 60_000);
});
