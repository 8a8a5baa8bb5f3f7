// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { statusChange } from '../domain/status.js';
import { services } from '../services.js';
import { updateUserStatus } from '../store/status.js';
import { setPresenceEnabled } from '../store/users.js';

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
  const { db, now } = services(ctx.request);
  const change = await statusChange(db, params);
  await db.transaction(async (tx) => {
    if (change.statusText !== undefined || change.emoji !== undefined) await updateUserStatus(tx, ctx.user.id, change, now());
    // `away` is the old name of the opposite of presence_enabled.
    if (params.away !== undefined) await setPresenceEnabled(tx, ctx.user.id, !params.away);
  });
  return {};
};
