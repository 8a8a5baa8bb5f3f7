// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { getAccessibleMessageOrThrow } from '../domain/access.js';
import { isStorableId } from '../domain/narrow.js';
import { deleteReaction, resolveEmoji } from '../domain/reactions.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';

/**
 * DELETE /messages/{message_id}/reactions: Remove an emoji reaction
 *
 * Parameters:
 * - `message_id` (integer, path, required)
 * - `emoji_name` (string, body, optional)
 * - `emoji_code` (string, body, optional)
 * - `reaction_type` (ReactionType, body, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const removeReaction: Handlers['removeReaction'] = async (params, ctx) => {
  const { db } = services(ctx.request);
  if (!isStorableId(params.message_id)) throw new ApiError('BAD_REQUEST', 'Invalid message(s)');
  const message = await getAccessibleMessageOrThrow(db, ctx.user, params.message_id);
  const emoji = await resolveEmoji(db, params);
  if (!(await deleteReaction(db, message.id, ctx.user.id, emoji))) {
    throw new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist");
  }
  return {};
};
