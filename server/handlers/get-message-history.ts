// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { ApiError } from '../errors.js';
import { getAccessibleMessageOrThrow } from '../domain/access.js';
import { historySnapshots } from '../domain/messages.js';
import { services } from '../services.js';
import { messageEdits } from '../store/messages.js';
import { getRealm } from '../store/realm.js';

/**
 * GET /messages/{message_id}/history: Get a message's edit history
 *
 * Parameters:
 * - `message_id` (integer, path, required)
 * - `allow_empty_topic_name` (boolean, query, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const getMessageHistory: Handlers['getMessageHistory'] = async (params, ctx) => {
  const { db } = services(ctx.request);
  const message = await getAccessibleMessageOrThrow(db, ctx.user, params.message_id);
  const realm = (await getRealm(db))!;
  // Checked after access, so a hidden message still reads as missing rather than revealing it exists.
  if (!realm.allow_edit_history) throw new ApiError('BAD_REQUEST', 'Message edit history is disabled in this organization');
  const edits = await messageEdits(db, message.id);
  return { message_history: historySnapshots(message, edits, realm, params.allow_empty_topic_name ?? false) };
};
