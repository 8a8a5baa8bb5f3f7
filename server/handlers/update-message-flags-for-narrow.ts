// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { editableFlag, MAX_SIDE, parseAnchor, rangeParams, updateFlagOverRange } from '../domain/flags.js';
import { narrowCondition } from '../domain/narrow.js';
import { isGuest } from '../domain/roles.js';
import { topicFromRequest } from '../domain/topics.js';
import { services } from '../services.js';

/**
 * POST /messages/flags/narrow: Update personal message flags for a narrow
 *
 * Parameters:
 * - `anchor` (string, body, required)
 * - `include_anchor` (boolean, body, optional)
 * - `num_before` (integer, body, required)
 * - `num_after` (integer, body, required)
 * - `narrow` (NarrowTerm[], body, required, JSON-encoded)
 * - `op` (MessageFlagOp, body, required)
 * - `flag` (string, body, required)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateMessageFlagsForNarrow: Handlers['updateMessageFlagsForNarrow'] = async (params, ctx) => {
  const flag = editableFlag(params.flag);
  const anchor = parseAnchor(params.anchor);
  const { db, cache } = services(ctx.request);
  const user = ctx.user;
  const realm = (await cache.realm(db))!;
  const present = params.op === 'add';
  // Removing `read` leaves messages of channels the caller is not subscribed to alone.
  const skipUnsubscribed = flag === 'read' && !present;
  const sql = rangeParams(user.id, isGuest(user));
  const topicName = (topic: string) => topicFromRequest(topic, realm, { noTopicAlias: true });
  const condition = await narrowCondition({ db, userId: user.id, topicName }, params.narrow ?? [], sql);
  // One statement finds the range and updates it.
  const range = await updateFlagOverRange(db, {
    condition,
    params: sql,
    anchor,
    includeAnchor: params.include_anchor ?? true,
    numBefore: Math.min(params.num_before, MAX_SIDE),
    numAfter: Math.min(params.num_after, MAX_SIDE),
    flag,
    present,
    skipUnsubscribed,
  });
  return {
    processed_count: range.ids.length,
    updated_count: range.updatedCount,
    first_processed_id: range.ids[0] ?? null,
    last_processed_id: range.ids.at(-1) ?? null,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
    ...(skipUnsubscribed && { ignored_because_not_subscribed_channels: range.otherChannels }),
  };
};
