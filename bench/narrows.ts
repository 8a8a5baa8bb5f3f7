/**
 * The narrows clients send to POST /messages/flags/narrow (issue 22), for the
 * `narrows` section: the request bodies, the data they run over, and the
 * database time of each one's statement.
 *
 * Data: the demo organization plus a history of channel messages in
 * general (a copy for each of its subscribers). The member (Dana) has read
 * all of them but the middle one; her demo copies, the oldest, stay unread.
 * So `is:unread` and `first_unread` find a few unread messages far apart in
 * a long read history, the case where a walk of all users' copies, or of
 * all messages, between them reads the whole history. The shapes that
 * look at unread messages set `starred`, so repeated requests keep the
 * unread set they are measured on; after the first request no shape
 * changes a row.
 */
import type { Db, DbHandle } from '../server/store/db.js';
import { CHANNEL, USER } from '../server/seed/demo-data.js';

export interface NarrowShape {
  name: string;
  body: Record<string, string>;
}

const unread = JSON.stringify([{ operator: 'is', operand: 'unread' }]);
const general = JSON.stringify([{ operator: 'channel', operand: 'general' }]);

export const NARROW_SHAPES: NarrowShape[] = [
  { name: 'last 100 marked read', body: { anchor: 'newest', num_before: '99', num_after: '0', narrow: '[]', op: 'add', flag: 'read' } },
  { name: 'is:unread from the oldest', body: { anchor: 'oldest', num_before: '0', num_after: '100', narrow: unread, op: 'add', flag: 'starred' } },
  { name: '50 around the first unread', body: { anchor: 'first_unread', num_before: '50', num_after: '50', narrow: '[]', op: 'add', flag: 'starred' } },
  { name: 'one channel, last 100 read', body: { anchor: 'newest', num_before: '99', num_after: '0', narrow: general, op: 'add', flag: 'read' } },
  { name: 'is:unread at newest', body: { anchor: 'newest', num_before: '100', num_after: '0', narrow: unread, op: 'add', flag: 'starred' } },
];

export const MEMBER = USER.dana;

/**
 * Adds `history` messages to general, one copy per active subscriber, read
 * by the member only. Then the statistics a server would have: PostgreSQL's
 * autovacuum analyses the changed tables within a minute (done here at
 * once); PGlite's driver analyses them a moment after the change when they
 * pass its threshold (server/docs/pglite-statistics.md: at 100,000 messages, not at demo size),
 * which the caller waits for.
 */
export async function addHistory(db: DbHandle, history: number): Promise<void> {
  await db.exec(`
    INSERT INTO messages (sender_id, type, recipient_id, channel_id, topic, content, rendered_content, sent_at)
    SELECT ${USER.ben}, 'stream', r.id, r.channel_id, 'topic ' || (g % 20), 'History ' || g, '<p>History ' || g || '</p>', 1700000000 + g
    FROM generate_series(1, ${history}) g, recipients r WHERE r.channel_id = ${CHANNEL.general};
    INSERT INTO user_messages (user_id, message_id, flags)
    SELECT s.user_id, m.id, CASE WHEN s.user_id = ${MEMBER} AND m.content <> 'History ${Math.ceil(history / 2)}' THEN '{read}'::text[] ELSE '{}' END
    FROM messages m JOIN subscriptions s ON s.channel_id = m.channel_id AND s.active
    WHERE m.content LIKE 'History %'`);
  if (db.driver === 'postgres') await db.exec('ANALYZE');
}

/** PGlite: the delay after a change before its driver checks whether tables need analysing, and the wait for it here (ms). */
export const PGLITE_ANALYZE_DELAY_MS = 100;
export const PGLITE_ANALYZE_WAIT_MS = 5_000;

/** The narrow statement a request sent (the last statement it ran), captured by `recorder`. */
export interface Captured {
  sql: string;
  params: readonly unknown[];
}

// The cases empty `seen` before each request they capture; under load the server stops recording here rather than keep every statement.
const MAX_RECORDED = 1_000;

/** A Db that records each statement on its way to `inner` (at most MAX_RECORDED of them until `seen` is emptied). */
export function recording<T extends Db>(inner: T, seen: Captured[]): T {
  const wrap = (db: Db): Db => ({
    ...db,
    query: (sql, params) => {
      if (seen.length < MAX_RECORDED) seen.push({ sql, params: params ?? [] });
      return db.query(sql, params);
    },
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
  });
  return { ...inner, ...wrap(inner) };
}

const literal = (value: unknown): string => {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
  return `'${String(value).replace(/'/g, "''")}'`;
};

/**
 * Database time of a statement as the server runs it: prepared, executed
 * WARM_EXECUTIONS times (so PostgreSQL's plan cache has chosen between a
 * custom and a generic plan, as on a pooled connection), then EXPLAIN
 * ANALYZE of six more executions, the first not timed; the median of the
 * other five's planning plus execution time (ms).
 * In a transaction rolled back, on the handle's own connection.
 */
export async function databaseTimeMs(db: DbHandle, statement: Captured): Promise<number> {
  const times: number[] = [];
  await db
    .transaction(async (tx) => {
      await tx.query(`PREPARE narrow_time AS ${statement.sql}`);
      const execute = `EXECUTE narrow_time(${statement.params.map(literal).join(', ')})`;
      for (let i = 0; i < WARM_EXECUTIONS; i++) await tx.query(execute);
      // One EXPLAIN ANALYZE not timed: PGlite's first one in a process costs several times the rest.
      await tx.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${execute}`);
      for (let i = 0; i < 5; i++) {
        const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${execute}`);
        const json = rows[0]!['QUERY PLAN'];
        const plan = (typeof json === 'string' ? JSON.parse(json) : json)[0] as { 'Planning Time'?: number; 'Execution Time': number };
        times.push((plan['Planning Time'] ?? 0) + plan['Execution Time']);
      }
      await tx.query('DEALLOCATE narrow_time');
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  times.sort((a, b) => a - b);
  return times[2]!;
}

class RolledBack extends Error {}

/**
 * Executions before the timed ones: at least six, for PostgreSQL's plan
 * cache; more, because PGlite (PostgreSQL compiled to WebAssembly) runs a
 * statement's code paths several times slower than later for the
 * first few dozen executions in a process.
 */
const WARM_EXECUTIONS = 40;
