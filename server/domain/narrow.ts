/**
 * Narrows (message filters) as SQL. Operands are resolved against the
 * database first (channel names, emails), then every value reaches the query
 * as a numbered parameter: no user text is ever spliced into SQL.
 *
 * The condition reads the aliases `m` (messages) and `um` (the caller's
 * user_messages row); of `m`, only id, channel_id, sender_id, recipient_id,
 * type and topic (flags.ts looks up just those).
 */
import type { components } from '../../generated/types.js';
import { ApiError } from '../errors.js';
import { findChannelId } from '../store/channels.js';
import type { Db } from '../store/db.js';
import { getUserByEmail, getUsersByIds } from '../store/users.js';

export type NarrowTerm = components['schemas']['NarrowTerm'];
type Operand = components['schemas']['NarrowOperand'];

/** The largest id a table stores (integer columns); larger requested ids name nothing. */
export const MAX_ID = 2_147_483_647;

export function isStorableId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id <= MAX_ID;
}

/** Collects query parameters and hands out their placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];
  constructor(initial: readonly unknown[] = []) {
    this.values.push(...initial);
  }
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export interface NarrowContext {
  db: Db;
  userId: number;
  /** Maps a requested topic name to the stored one (empty-topic aliases). */
  topicName(requested: string): string;
}

const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

function invalidOperand(message: string): ApiError {
  return new ApiError('BAD_REQUEST', `Invalid narrow operand: ${message}`);
}

function describe(operand: Operand): string {
  return typeof operand === 'string' ? operand : JSON.stringify(operand);
}

/** A message ID operand, also accepted as decimal text; null when it is neither. */
function messageIdOperand(operand: Operand): number | null {
  if (typeof operand === 'number') return operand;
  if (typeof operand === 'string' && /^[0-9]+$/.test(operand)) return Number(operand);
  return null;
}

async function channelCondition(ctx: NarrowContext, operand: Operand, params: SqlParams): Promise<string> {
  if (Array.isArray(operand)) throw invalidOperand(`channel takes a name or an ID, not ${describe(operand)}`);
  const channelId = typeof operand === 'number' && !isStorableId(operand) ? null : await findChannelId(ctx.db, operand);
  if (channelId === null) throw invalidOperand(`unknown channel ${describe(operand)}`);
  return `m.channel_id = ${params.add(channelId)}`;
}

async function userIdByOperand(ctx: NarrowContext, operand: string | number): Promise<number> {
  if (typeof operand === 'number') {
    const [user] = isStorableId(operand) ? await getUsersByIds(ctx.db, [operand]) : [];
    if (user) return user.id;
  } else {
    const user = await getUserByEmail(ctx.db, operand.trim());
    if (user) return user.id;
  }
  throw invalidOperand(`unknown user ${operand}`);
}

async function senderCondition(ctx: NarrowContext, operand: Operand, params: SqlParams): Promise<string> {
  if (Array.isArray(operand)) throw invalidOperand(`sender takes an email address or a user ID, not ${describe(operand)}`);
  return `m.sender_id = ${params.add(await userIdByOperand(ctx, operand))}`;
}

/** The conversation among exactly these users and the caller. */
async function dmCondition(ctx: NarrowContext, operand: Operand, params: SqlParams): Promise<string> {
  const listed: (string | number)[] =
    typeof operand === 'string' ? operand.split(',').filter((email) => email.trim() !== '') : typeof operand === 'number' ? [operand] : operand;
  if (listed.length === 0) throw invalidOperand('dm needs at least one user');
  const ids = new Set([ctx.userId]);
  for (const item of listed) ids.add(await userIdByOperand(ctx, item));
  const memberKey = [...ids].sort((a, b) => a - b).join(',');
  return `m.recipient_id = (SELECT id FROM recipients WHERE member_key = ${params.add(memberKey)})`;
}

function isCondition(operand: Operand, params: SqlParams): string {
  switch (operand) {
    case 'unread':
      return `NOT ('read' = ANY (um.flags))`;
    case 'starred':
      return `'starred' = ANY (um.flags)`;
    case 'mentioned':
      return `um.flags && ${params.add(MENTION_FLAGS)}::text[]`;
    case 'dm':
      return `m.type = 'private'`;
    default:
      throw invalidOperand(`unknown 'is' operand ${describe(operand)}`);
  }
}

async function termCondition(ctx: NarrowContext, operator: string, operand: Operand, params: SqlParams): Promise<string> {
  switch (operator) {
    case 'channel':
    case 'stream':
      return channelCondition(ctx, operand, params);
    case 'topic':
      if (typeof operand !== 'string') throw invalidOperand(`topic takes a topic name, not ${describe(operand)}`);
      return `m.type = 'stream' AND lower(m.topic) = lower(${params.add(ctx.topicName(operand))})`;
    case 'sender':
      return senderCondition(ctx, operand, params);
    case 'is':
      return isCondition(operand, params);
    case 'dm':
      return dmCondition(ctx, operand, params);
    case 'id': {
      const id = messageIdOperand(operand);
      if (id === null) throw invalidOperand(`id takes a message ID, not ${describe(operand)}`);
      return isStorableId(id) ? `m.id = ${params.add(id)}` : 'false';
    }
    default:
      // The request decoder already refuses operators outside the spec's list.
      throw new ApiError('BAD_REQUEST', `Invalid narrow operator: ${operator}`);
  }
}

/**
 * Whether a condition from narrowCondition reads messages' columns (`m.`),
 * rather than only the caller's copy (`um.`: is:unread, is:starred,
 * is:mentioned).
 */
export function readsMessages(condition: string): boolean {
  return /(^|[^a-z_.])m\./.test(condition);
}

/** The SQL condition all terms of the narrow must satisfy (`true` for an empty narrow). */
export async function narrowCondition(ctx: NarrowContext, narrow: readonly NarrowTerm[], params: SqlParams): Promise<string> {
  const parts: string[] = [];
  for (const term of narrow) {
    const [operator, operand, negated] = Array.isArray(term) ? [term[0], term[1], false] : [term.operator, term.operand, term.negated === true];
    // A negated term is wrapped in COALESCE: a comparison with NULL (a direct message's channel) is a
    // non-match, so its negation matches. The terms are joined by AND and the whole is a WHERE
    // condition, where NULL already excludes the row, so every other term stands as written: its
    // selectivity is then estimated, and an index on its column can serve it (is:unread is the
    // predicate of the partial index of unread copies, m.channel_id = $n the first column of
    // messages_channel_idx).
    const sql = await termCondition(ctx, operator, operand, params);
    const condition = operator === 'is' || !negated ? `(${sql})` : `COALESCE((${sql}), false)`;
    parts.push(negated ? `NOT ${condition}` : condition);
  }
  return parts.length === 0 ? 'true' : parts.join(' AND ');
}
