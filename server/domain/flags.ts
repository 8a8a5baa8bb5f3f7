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
import { setFlag } from '../store/messages.js';
import type { MessageFlag } from '../store/rows.js';
import { MAX_ID, SqlParams } from './narrow.js';

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

export interface RangeRequest {
  /** SQL over `m` and `um`, with its parameters in `params` (from rangeParams, then narrow.ts). */
  condition: string;
  params: SqlParams;
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
}

export interface Range {
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
}

/**
 * The candidate rows: the caller's copies ($1 is the caller) it may read.
 * Web-public channels: everyone; other public channels: non-guests ($2);
 * private channels and guests: an active subscription; direct messages: the
 * participants (who are exactly those with a copy).
 */
const ACCESSIBLE = `
  FROM user_messages um JOIN messages m ON m.id = um.message_id
  LEFT JOIN channels c ON c.id = m.channel_id
  LEFT JOIN subscriptions s ON s.channel_id = m.channel_id AND s.user_id = $1
  WHERE um.user_id = $1
    AND (m.type = 'private' OR c.is_web_public OR (NOT c.is_private AND NOT $2) OR COALESCE(s.active, false))`;

/** Ids of candidate rows matching the narrow and `extra` (which may add parameters), in `order`. */
async function select(
  db: Db,
  request: RangeRequest,
  extra: (params: SqlParams) => string,
  order: 'ASC' | 'DESC',
  limit: number,
): Promise<number[]> {
  const params = new SqlParams(request.params.values);
  const sql = `SELECT m.id ${ACCESSIBLE} AND (${request.condition}) AND ${extra(params)}
    ORDER BY m.id ${order} LIMIT ${params.add(limit)}`;
  return (await db.query<{ id: number }>(sql, params.values)).rows.map((row) => row.id);
}

async function anchorId(db: Db, request: RangeRequest): Promise<number | null> {
  const anchor = request.anchor;
  if (typeof anchor === 'object') return anchor.id;
  if (anchor === 'first_unread') {
    const [unread] = await select(db, request, () => `NOT ('read' = ANY (um.flags))`, 'ASC', 1);
    if (unread !== undefined) return unread;
  }
  const [edge] = await select(db, request, () => 'true', anchor === 'oldest' ? 'ASC' : 'DESC', 1);
  return edge ?? null;
}

/**
 * The range of matching messages around the anchor, oldest first. A keyword
 * anchor resolves to a message (the oldest, newest or first unread match),
 * which is then the range's anchor like an explicit ID.
 */
export async function findRange(db: Db, request: RangeRequest): Promise<Range> {
  const anchor = await anchorId(db, request);
  if (anchor === null) return { ids: [], foundOldest: true, foundNewest: true };
  // One extra row on each side tells whether that side was exhausted.
  const before = await select(db, request, (p) => `m.id < ${p.add(anchor)}`, 'DESC', request.numBefore + 1);
  const after = await select(db, request, (p) => `m.id > ${p.add(anchor)}`, 'ASC', request.numAfter + 1);
  const self = request.includeAnchor ? await select(db, request, (p) => `m.id = ${p.add(anchor)}`, 'ASC', 1) : [];
  return {
    ids: [...before.slice(0, request.numBefore).reverse(), ...self, ...after.slice(0, request.numAfter)],
    foundOldest: before.length <= request.numBefore,
    foundNewest: after.length <= request.numAfter,
  };
}

/**
 * Splits messages into those in channels the user is actively subscribed to
 * (and direct messages) and the ids of the other channels, ascending.
 */
export async function splitBySubscription(
  db: Db,
  userId: number,
  messageIds: readonly number[],
): Promise<{ subscribedIds: number[]; otherChannels: number[] }> {
  const { rows } = await db.query<{ id: number; channel_id: number | null; subscribed: boolean }>(
    `SELECT m.id, m.channel_id,
       m.channel_id IS NULL OR EXISTS (
         SELECT 1 FROM subscriptions s WHERE s.user_id = $1 AND s.channel_id = m.channel_id AND s.active
       ) AS subscribed
     FROM messages m WHERE m.id = ANY ($2::integer[]) ORDER BY m.id`,
    [userId, messageIds],
  );
  const others = new Set(rows.filter((row) => !row.subscribed).map((row) => row.channel_id!));
  return {
    subscribedIds: rows.filter((row) => row.subscribed).map((row) => row.id),
    otherChannels: [...others].sort((a, b) => a - b),
  };
}

/** Sets or clears the flag on the messages; returns how many actually changed. */
export async function applyFlag(db: Db, userId: number, messageIds: readonly number[], flag: EditableFlag, present: boolean): Promise<number> {
  return messageIds.length === 0 ? 0 : setFlag(db, userId, messageIds, flag, present);
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
