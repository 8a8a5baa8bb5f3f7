// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { clientName, presenceResponse, reportPresence, serverTimestamp } from '../domain/presence.js';
import { services } from '../services.js';

/**
 * POST /users/me/presence: Update own presence
 *
 * Parameters:
 * - `status` (string, body, required)
 * - `last_update_id` (integer, body, optional)
 * - `history_limit_days` (integer, body, optional)
 * - `ping_only` (boolean, body, optional)
 * - `new_user_input` (boolean, body, optional)
 * - `slim_presence` (boolean, body, optional, deprecated)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updatePresence: Handlers['updatePresence'] = async (params, ctx) => {
  const found = services(ctx.request);
  const now = found.now();
  await reportPresence(found.db, ctx.user, clientName(ctx.request), params, now);
  if (params.ping_only) return { presence_last_update_id: params.last_update_id ?? -1 };
  return presenceResponse(found, ctx.user, params, serverTimestamp(now));
};
