// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

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
  return {};
};
