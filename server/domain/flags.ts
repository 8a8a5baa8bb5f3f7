/**
 * Personal message flags over a range of a narrow, found like a message
 * fetch: the anchor, up to `numBefore` older and `numAfter` newer matches.
 *
 * Flags live on the caller's user_messages rows, so the range holds the
 * messages the caller has a copy of, restricted to those it may still read
 * (the rules of access.ts, as SQL: a copy in a private channel it has left
 * no longer counts).
 */
import { ApiError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { MessageFlag } from '../store/rows.js';
import { MAX_ID, readsMessages, SqlParams } from './narrow.js';

/** The flags a user sets; the others are the server's. */
export const EDITABLE_FLAGS = ['read', 'starred', 'collapsed'] as const satisfies readonly MessageFlag[];
export type EditableFlag = (typeof EDITABLE_FLAGS)[number];
const SERVER_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical'];

/** The spec's cap on each side of the range. */
export const MAX_SIDE = 5000;

export function editableFlag(flag: string): EditableFlag {
  if ((EDITABLE_FLAGS as readonly string[]).includes(flag)) return flag as EditableFlag;
  if (SERVER_FLAGS.includes(flag)) throw new ApiError('BAD_REQUEST', `Flag not editable: ${flag}`);
  throw new ApiError('BAD_REQUEST', `Invalid flag: ${flag}`);
}

export type Anchor = { id: number } | 'newest' | 'oldest' | 'first_unread';

export function parseAnchor(text: string): Anchor {
  if (text === 'newest' || text === 'oldest' || text === 'first_unread') return text;
  // Past the largest id, an ID anchor means "after everything".
  if (/^[0-9]+$/.test(text)) return { id: Math.min(Number(text), MAX_ID) };
  throw new ApiError('BAD_REQUEST', `Invalid anchor: ${text}`);
}

/** The parameters of a range query for this caller; add the narrow's after them. */
export function rangeParams(userId: number, isGuest: boolean): SqlParams {
  return new SqlParams([userId, isGuest]);
}

export interface RangeUpdate {
  /** SQL over `m` and `um`, with its parameters in `params` (from rangeParams, then narrow.ts). */
  condition: string;
  params: SqlParams;
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  flag: EditableFlag;
  /** Set (true) or clear the flag. */
  present: boolean;
  /** Leave messages of channels the caller is not actively subscribed to alone, and list those channels. */
  skipUnsubscribed: boolean;
}

export interface RangeUpdateResult {
  /** The range, oldest first. */
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
  /** Rows whose flag actually changed. */
  updatedCount: number;
  /** With skipUnsubscribed: the channels left alone, ascending. */
  otherChannels: number[];
}

/**
 * The channels whose messages the caller ($1) may read, and whether it is
 * actively subscribed to each: web-public channels for everyone, other
 * public channels for non-guests ($2), private channels and, for guests, any
 * channel through an active subscription (so every channel it is actively
 * subscribed to is here). Read once per statement (a few rows), so each
 * candidate message is checked by lookup.
 */
const READABLE_CHANNELS = `readable AS MATERIALIZED (
    SELECT c.id, COALESCE(s.active, false) AS subscribed
    FROM channels c LEFT JOIN subscriptions s ON s.channel_id = c.id AND s.user_id = $1
    WHERE c.is_web_public OR (NOT c.is_private AND NOT $2) OR COALESCE(s.active, false))`;

/**
 * How `copies` walks the caller's copies and their messages:
 * - `lookup`: the caller's copies in order, each copy's message found by its
 *   key (a LATERAL sub-query with OFFSET 0 cannot be joined any other way),
 *   a plan bounded by construction, whatever the estimates.
 * - `probe`: messages in order, each probed for the caller's copy by
 *   user_messages' primary key (the same construction, the other way
 *   round), for conditions on messages' columns.
 * - `join`: both joined, the bound repeated on both keys so that a merge
 *   join stops at the anchor on both sides; on small tables a join is
 *   cheaper than a lookup per row.
 */
export type Walk = 'lookup' | 'probe' | 'join';

/**
 * The caller's copies it may read (READABLE_CHANNELS, in the same
 * statement; direct messages, which have no channel: the participants, who
 * are exactly those with a copy) that match `condition` and `bound`, in ID
 * order, at most `limit`, as `columns` of `m` (messages).
 *
 * Written so that it reads about as many rows as it returns, not the
 * caller's history:
 * - The walk is ordered and bounded on a key (`um.message_id`: user_messages'
 *   primary key, or the partial index of unread copies when the condition
 *   asks for them; `m.id` for a probe).
 * - A `limit` other than a number is a sub-select, so the planner plans to
 *   stop early rather than for all the rows it expects (without
 *   statistics it expects about the limit, and would read and sort
 *   everything past the anchor).
 */
function copies(condition: string, columns: string, bound: (column: string) => string, order: 'ASC' | 'DESC', limit: string, walk: Walk): string {
  const readable = '(m.channel_id IS NULL OR m.channel_id IN (SELECT id FROM readable))';
  const first = /^[0-9]+$/.test(limit) ? limit : `(SELECT ${limit})`;
  if (walk === 'join')
    return `SELECT ${columns}
    FROM user_messages um JOIN messages m ON m.id = um.message_id
    WHERE um.user_id = $1 AND ${readable} AND (${condition}) AND ${bound('um.message_id')} AND ${bound('m.id')}
    ORDER BY um.message_id ${order} LIMIT ${first}`;
  // Every column of user_messages a narrow's condition reads (narrow.ts).
  if (walk === 'probe')
    return `SELECT ${columns}
    FROM messages m CROSS JOIN LATERAL (
      SELECT um.message_id, um.flags FROM user_messages um
      WHERE um.user_id = $1 AND um.message_id = m.id OFFSET 0) um
    WHERE ${readable} AND (${condition}) AND ${bound('m.id')}
    ORDER BY m.id ${order} LIMIT ${first}`;
  // Every column of messages a narrow's condition reads (narrow.ts).
  return `SELECT ${columns}
    FROM user_messages um CROSS JOIN LATERAL (
      SELECT m.id, m.channel_id, m.sender_id, m.recipient_id, m.type, m.topic FROM messages m
      WHERE m.id = um.message_id AND ${readable} OFFSET 0) m
    WHERE um.user_id = $1 AND (${condition}) AND ${bound('um.message_id')}
    ORDER BY um.message_id ${order} LIMIT ${first}`;
}

/** A request's value that the range statement takes as a parameter, after the narrow's. */
type Slot = 'flag' | 'anchor' | 'numBefore' | 'numAfter';

/** Numbers the statement's own parameters, after the `first` of the narrow, and records which value each takes. */
class Slots {
  readonly order: Slot[] = [];
  constructor(private readonly first: number) {}
  add(slot: Slot): string {
    this.order.push(slot);
    return `$${this.first + this.order.length}`;
  }
}

interface RangeStatement {
  sql: string;
  /** The values of its parameters after the narrow's, in order. */
  slots: readonly Slot[];
}

/**
 * Statements by what their text depends on. The same text object each time
 * also spares the driver hashing a few kilobytes of new string per request
 * to find its prepared statement (about 5 µs). Narrows put their values in
 * parameters, so the texts are as many as the shapes of narrow clients
 * send; past MAX_STATEMENTS the map starts again.
 */
const STATEMENTS = new Map<string, RangeStatement>();
const MAX_STATEMENTS = 500;

/**
 * Finds the range of matching messages around the anchor and sets or clears
 * the flag on it, in one statement (so atomically). A keyword anchor
 * resolves to a message (the oldest, newest or first unread match), which is
 * then the range's anchor like an explicit ID; one extra row on each side
 * tells whether that side was exhausted. Only rows whose flag changes are
 * written. On PostgreSQL those rows are locked in ID order before they
 * change: the range is listed newest-first before the anchor and
 * oldest-first after it, so two requests over overlapping ranges could
 * otherwise lock the same rows in opposite orders and deadlock. A row that
 * already has the wanted state in the statement's snapshot is neither
 * locked nor written (as with a plain UPDATE ... WHERE), so a request that
 * changes nothing writes nothing and waits for no other; a row another
 * request changes while this one waits for its lock is checked again once
 * locked (READ COMMITTED re-evaluates the condition on the row's newest
 * version), so each change is counted once.
 */
export async function updateFlagOverRange(db: Db, request: RangeUpdate): Promise<RangeUpdateResult> {
  const statement = rangeStatement(db.driver, request);
  const values = [...request.params.values];
  for (const slot of statement.slots) values.push(slot === 'anchor' ? (request.anchor as { id: number }).id : request[slot]);
  const { rows } = await db.query<{
    ids: number[] | null;
    before_count: number;
    after_count: number;
    other_channels: number[] | null;
    updated_count: number;
  }>(statement.sql, values);
  const row = rows[0]!;
  return {
    ids: row.ids ?? [],
    foundOldest: row.before_count <= request.numBefore,
    foundNewest: row.after_count <= request.numAfter,
    updatedCount: row.updated_count,
    otherChannels: row.other_channels ?? [],
  };
}

/** The statement for a request's shape, built once per shape (STATEMENTS). */
function rangeStatement(driver: Db['driver'], request: RangeUpdate): RangeStatement {
  const { condition, anchor } = request;
  const key = `${driver} ${request.params.values.length} ${typeof anchor === 'object' ? 'id' : anchor} ${+request.includeAnchor}${+request.skipUnsubscribed}${+request.present} ${condition}`;
  let statement = STATEMENTS.get(key);
  if (statement) return statement;
  if (STATEMENTS.size >= MAX_STATEMENTS) STATEMENTS.clear();
  const p = new Slots(request.params.values.length);
  // How the range is walked (server/docs/narrow-ranges.md):
  // - a narrow that reads only the caller's copies (is:unread, is:starred,
  //   is:mentioned) walks them and looks each message up: matching copies
  //   may be rare and far apart, and a join would walk every message
  //   between them;
  // - a narrow on messages' columns (a channel, a topic, a sender) walks
  //   messages, through an index on that column where there is one
  //   (messages_channel_idx), and probes each for the caller's copy: a walk
  //   of the caller's copies would pass every copy outside the narrow, a
  //   join estimated on small tables can be a nested loop comparing every
  //   pair of rows, and a lookup per copy a scan of messages per copy;
  // - no narrow at all joins the two keys (PostgreSQL merges them).
  // These plans hold whatever the estimates, so both databases walk the same
  // way (PGlite has estimates only once its driver analyses,
  // server/docs/pglite-statistics.md).
  const walk: Walk = condition === 'true' ? 'join' : readsMessages(condition) ? 'probe' : 'lookup';
  // A keyword's anchor walks as the range does, and stops at the first
  // match; with no narrow it looks the caller's newest or oldest copy up
  // (a join could walk the messages from the end of the table until it met
  // the caller's first copy). first_unread walks the caller's unread copies.
  const anchorWalk: Walk = walk === 'probe' ? 'probe' : 'lookup';
  const flag = p.add('flag');
  const skip = request.skipUnsubscribed;
  // The range's rows carry the caller's flags (and, with skipUnsubscribed,
  // their channel), so neither the copies nor the messages are read twice:
  // only the rows whose flag changes are looked up again, to lock them.
  const columns = skip ? 'm.id, um.flags, m.channel_id' : 'm.id, um.flags';
  const sides = { condition, columns, includeAnchor: request.includeAnchor, params: p };
  const { ctes, beforeCount, afterCount } = edgeAnchor(anchor, walk)
    ? fromEnd(anchor, { ...sides, walk: anchorWalk })
    : aroundAnchor(anchorSql(anchor, condition, anchorWalk, p), { ...sides, walk });
  // Only the rows whose flag changes.
  const changes = request.present ? `NOT (${flag}::text = ANY (flags))` : `${flag}::text = ANY (flags)`;
  // The rows whose flag changes as of the statement's snapshot; with
  // skipUnsubscribed, not those of channels the caller is not actively
  // subscribed to.
  const target = `SELECT id FROM range WHERE ${changes}${skip ? ` AND (channel_id IS NULL OR channel_id IN (SELECT id FROM readable WHERE subscribed))` : ''}`;
  const set = request.present ? `array_append(flags, ${flag}::text)` : `array_remove(flags, ${flag}::text)`;
  // PGlite runs one statement at a time, so only PostgreSQL's concurrent
  // connections need the rows locked in order first (on PGlite the extra
  // pass cost about half again the statement's time).
  const lockInOrder = driver === 'postgres';
  const sql = `WITH ${READABLE_CHANNELS},
    ${ctes},
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
      ${beforeCount} AS before_count,
      ${afterCount} AS after_count,
      ${skip ? `(SELECT array_agg(DISTINCT channel_id ORDER BY channel_id) FROM range WHERE channel_id NOT IN (SELECT id FROM readable WHERE subscribed))` : 'NULL::integer[]'} AS other_channels,
      (SELECT count(*)::integer FROM changed) AS updated_count`;
  statement = { sql, slots: p.order };
  STATEMENTS.set(key, statement);
  return statement;
}

/** How the range is read: the statement's CTEs up to `range` (the matches, as `columns`), and how many matches lie before and after the anchor, up to one more than each side asks for. */
interface Sides {
  ctes: string;
  beforeCount: string;
  afterCount: string;
}

interface SideRequest {
  condition: string;
  columns: string;
  walk: Walk;
  includeAnchor: boolean;
  /** Where the sides add their parameters. */
  params: Slots;
}

/** The anchor as SQL: an ID (a parameter) or the match a keyword names. */
function anchorSql(anchor: Anchor, condition: string, walk: Walk, p: Slots): string {
  if (typeof anchor === 'object') return `${p.add('anchor')}::integer`;
  if (anchor === 'first_unread')
    return `COALESCE((${copies(condition, 'm.id', () => `NOT ('read' = ANY (um.flags))`, 'ASC', '1', 'lookup')}), (${copies(condition, 'm.id', () => 'true', 'DESC', '1', walk)}))`;
  return `(${copies(condition, 'm.id', () => 'true', anchor === 'oldest' ? 'ASC' : 'DESC', '1', walk)})`;
}

/**
 * Whether the range is read by one walk from an end (fromEnd): for newest
 * and oldest, unless there is no narrow, where the range joins copies and
 * messages from the anchor (a lookup per copy from an end costs several
 * times the join) and the anchor is looked up on its own.
 */
function edgeAnchor(anchor: Anchor, walk: Walk): anchor is 'newest' | 'oldest' {
  return (anchor === 'newest' || anchor === 'oldest') && walk !== 'join';
}

/**
 * The anchor, then a scan before it and one after it, each ordered, bounded
 * by the anchor and one row longer than its side (to tell whether the side
 * was exhausted). The anchor itself, when included, comes from the scan
 * after it, which then starts at the anchor and reads one row more.
 */
function aroundAnchor(anchor: string, r: SideRequest): Sides {
  const numBefore = r.params.add('numBefore');
  const numAfter = r.params.add('numAfter');
  const afterFrom = (column: string) => `${column} ${r.includeAnchor ? '>=' : '>'} (SELECT id FROM anchor)`;
  const afterLimit = r.includeAnchor ? `${numAfter}::integer + 2` : `${numAfter}::integer + 1`;
  const self = r.includeAnchor
    ? `
      UNION ALL (SELECT * FROM after WHERE id = (SELECT id FROM anchor))`
    : '';
  return {
    ctes: `anchor AS MATERIALIZED (SELECT ${anchor} AS id),
    before AS MATERIALIZED (${copies(r.condition, r.columns, (column) => `${column} < (SELECT id FROM anchor)`, 'DESC', `${numBefore}::integer + 1`, r.walk)}),
    after AS MATERIALIZED (${copies(r.condition, r.columns, afterFrom, 'ASC', afterLimit, r.walk)}),
    range AS MATERIALIZED (
      (SELECT * FROM before ORDER BY id DESC LIMIT ${numBefore}::integer)${self}
      UNION ALL (SELECT * FROM after WHERE id > (SELECT id FROM anchor) ORDER BY id ASC LIMIT ${numAfter}::integer))`,
    beforeCount: '(SELECT count(*)::integer FROM before)',
    afterCount: '(SELECT count(*)::integer FROM after WHERE id > (SELECT id FROM anchor))',
  };
}

/**
 * newest (oldest) is the first match of a walk from that end, and nothing
 * lies beyond it. So one walk, as long as the anchor plus one row more than
 * the other side asks for, holds the anchor, the range and whether that
 * side was exhausted: a statement with one walk and no anchor of its own
 * (about a tenth less database time than aroundAnchor for the same range).
 */
function fromEnd(anchor: 'newest' | 'oldest', r: SideRequest): Sides {
  // The other side: the only one that can hold matches.
  const side = r.params.add(anchor === 'newest' ? 'numBefore' : 'numAfter');
  // Past the anchor when it is left out.
  const range = r.includeAnchor ? `LIMIT ${side}::integer + 1` : `OFFSET 1 LIMIT ${side}::integer`;
  // Every row of the walk but the anchor lies on the other side.
  const counted = '(SELECT greatest(count(*) - 1, 0)::integer FROM ends)';
  return {
    ctes: `ends AS MATERIALIZED (${copies(r.condition, r.columns, () => 'true', anchor === 'newest' ? 'DESC' : 'ASC', `${side}::integer + 2`, r.walk)}),
    range AS MATERIALIZED (SELECT * FROM ends ORDER BY id ${anchor === 'newest' ? 'DESC' : 'ASC'} ${range})`,
    beforeCount: anchor === 'newest' ? counted : '0',
    afterCount: anchor === 'oldest' ? counted : '0',
  };
}

/** Marks the user's unread messages in one topic of a channel read (topic compared case-insensitively); returns how many. */
export async function markTopicRead(db: Db, userId: number, channelId: number, topic: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE user_messages um SET flags = array_append(um.flags, 'read')
     FROM messages m
     WHERE m.id = um.message_id AND um.user_id = $1 AND m.channel_id = $2 AND lower(m.topic) = lower($3)
       AND NOT ('read' = ANY (um.flags))`,
    [userId, channelId, topic],
  );
  return rowCount;
}
