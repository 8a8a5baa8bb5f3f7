// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /users/me/status: Update own status
 *
 * Parameters:
 * - `status_text` (string, body, optional)
 * - `emoji_name` (string, body, optional)
 * - `emoji_code` (string, body, optional)
 * - `reaction_type` (ReactionType, body, optional)
 * - `away` (boolean, body, optional, deprecated)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateStatus: Handlers['updateStatus'] = async (params, ctx) => {
  return {};
};
