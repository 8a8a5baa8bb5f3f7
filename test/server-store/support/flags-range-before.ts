/**
 * The statement of updateFlagOverRange as it was before server/docs/narrow-ranges.md
 * (commit e99fdbb of server/domain/flags.ts, its doc comments shortened),
 * kept only so that test/server-store/flags-range-differential.test.ts can
 * run it beside today's on the same requests and compare the answers.
 */
import type { RangeUpdate, RangeUpdateResult } from '../../../server/domain/flags.js';
import { SqlParams } from '../../../server/domain/narrow.js';
import type { Db } from '../../../server/store/db.js';

const READABLE_CHANNELS = `readable AS MATERIALIZED (
    SELECT c.id, COALESCE(s.active, false) AS subscribed
    FROM channels c LEFT JOIN subscriptions s ON s.channel_id = c.id AND s.user_id = $1
    WHERE c.is_web_public OR (NOT c.is_private AND NOT $2) OR COALESCE(s.active, false))`;

function copies(condition: string, columns: string, bound: (column: string) => string, order: 'ASC' | 'DESC', limit: string, lookup: boolean): string {
  const readable = '(m.channel_id IS NULL OR m.channel_id IN (SELECT id FROM readable))';
  const first = /^[0-9]+$/.test(limit) ? limit : `(SELECT ${limit})`;
  if (!lookup)
    return `SELECT ${columns}
    FROM user_messages um JOIN messages m ON m.id = um.message_id
    WHERE um.user_id = $1 AND ${readable} AND (${condition}) AND ${bound('um.message_id')} AND ${bound('m.id')}
    ORDER BY um.message_id ${order} LIMIT ${first}`;
  // Every column of messages a narrow's condition reads (narrow.ts).
  return `SELECT ${columns}
    FROM user_messages um CROSS JOIN LATERAL (
      SELECT m.id, m.channel_id, m.sender_id, m.recipient_id, m.type, m.topic FROM messages m
      WHERE m.id = um.message_id AND ${readable} OFFSET 0) m
    WHERE um.user_id = $1 AND (${condition}) AND ${bound('um.message_id')}
    ORDER BY um.message_id ${order} LIMIT ${first}`;
}

export async function updateFlagOverRangeBefore(db: Db, request: RangeUpdate): Promise<RangeUpdateResult> {
  const p = new SqlParams(request.params.values);
  const condition = request.condition;
  const anchor = request.anchor;
  // A keyword's anchor looks its messages up (it stops at the first match):
  // a join could walk the messages from the end of the table until it met
  // the caller's first match, which for a sparse narrow (is:unread after a
  // long read history) is the whole table.
  const anchorSql =
    typeof anchor === 'object'
      ? `${p.add(anchor.id)}::integer`
      : anchor === 'first_unread'
        ? `COALESCE((${copies(condition, 'm.id', () => `NOT ('read' = ANY (um.flags))`, 'ASC', '1', true)}), (${copies(condition, 'm.id', () => 'true', 'DESC', '1', true)}))`
        : `(${copies(condition, 'm.id', () => 'true', anchor === 'oldest' ? 'ASC' : 'DESC', '1', true)})`;
  const numBefore = p.add(request.numBefore);
  const numAfter = p.add(request.numAfter);
  const flag = p.add(request.flag);
  const skip = request.skipUnsubscribed;
  // The range's rows carry their channel, so the messages are read once.
  const columns = skip ? 'm.id, m.channel_id' : 'm.id';
  // The anchor itself, when included, comes from the scan after it: that scan starts at the anchor and reads one row more.
  const self = request.includeAnchor
    ? `
      UNION ALL (SELECT * FROM after WHERE id = (SELECT id FROM anchor))`
    : '';
  const afterFrom = (column: string) => `${column} ${request.includeAnchor ? '>=' : '>'} (SELECT id FROM anchor)`;
  const afterLimit = request.includeAnchor ? `${numAfter}::integer + 2` : `${numAfter}::integer + 1`;
  // With skipUnsubscribed, the range's messages in channels the caller is not actively subscribed to stay as they are.
  const target = skip ? `SELECT id FROM range WHERE channel_id IS NULL OR channel_id IN (SELECT id FROM readable WHERE subscribed)` : 'SELECT id FROM range';
  // Only the rows whose flag changes.
  const changes = request.present ? `NOT (${flag}::text = ANY (flags))` : `${flag}::text = ANY (flags)`;
  const set = request.present ? `array_append(flags, ${flag}::text)` : `array_remove(flags, ${flag}::text)`;
  // PGlite runs one statement at a time, so only PostgreSQL's concurrent
  // connections need the rows locked in order first (on PGlite the extra
  // pass cost about half again the statement's time).
  const lockInOrder = db.driver === 'postgres';
  // PGlite plans a statement when first used and replans it only after an
  // analysis, which small tables never get (server/docs/pglite-statistics.md): a narrowed range
  // looks up each copy's message, a plan that stays bounded as the tables
  // grow (a join, planned on small tables, hashes the whole table). PostgreSQL's analysed plans join; on small analysed
  // tables it would turn the lookups into a scan of messages per copy.
  const lookUp = condition !== 'true' && db.driver === 'pglite';
  const sql = `WITH ${READABLE_CHANNELS},
    anchor AS MATERIALIZED (SELECT ${anchorSql} AS id),
    before AS MATERIALIZED (${copies(condition, columns, (column) => `${column} < (SELECT id FROM anchor)`, 'DESC', `${numBefore}::integer + 1`, lookUp)}),
    after AS MATERIALIZED (${copies(condition, columns, afterFrom, 'ASC', afterLimit, lookUp)}),
    range AS MATERIALIZED (
      (SELECT * FROM before ORDER BY id DESC LIMIT ${numBefore}::integer)${self}
      UNION ALL (SELECT * FROM after WHERE id > (SELECT id FROM anchor) ORDER BY id ASC LIMIT ${numAfter}::integer)),
    ${
      lockInOrder
        ? `locked AS MATERIALIZED (
      SELECT message_id FROM user_messages
      WHERE user_id = $1 AND message_id IN (${target}) AND ${changes}
      ORDER BY message_id FOR UPDATE),`
        : ''
    }
    changed AS (
      UPDATE user_messages SET flags = ${set}
      WHERE user_id = $1 AND message_id IN (${lockInOrder ? 'SELECT message_id FROM locked' : target}) AND ${changes}
      RETURNING 1)
    SELECT (SELECT array_agg(id ORDER BY id) FROM range) AS ids,
      (SELECT count(*)::integer FROM before) AS before_count,
      (SELECT count(*)::integer FROM after WHERE id > (SELECT id FROM anchor)) AS after_count,
      ${skip ? `(SELECT array_agg(DISTINCT channel_id ORDER BY channel_id) FROM range WHERE channel_id NOT IN (SELECT id FROM readable WHERE subscribed))` : 'NULL::integer[]'} AS other_channels,
      (SELECT count(*)::integer FROM changed) AS updated_count`;
  const { rows } = await db.query<{
    ids: number[] | null;
    before_count: number;
    after_count: number;
    other_channels: number[] | null;
    updated_count: number;
  }>(sql, p.values);
  const row = rows[0]!;
  return {
    ids: row.ids ?? [],
    foundOldest: row.before_count <= request.numBefore,
    foundNewest: row.after_count <= request.numAfter,
    updatedCount: row.updated_count,
    otherChannels: row.other_channels ?? [],
  };
}

