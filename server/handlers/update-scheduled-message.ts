// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * PATCH /scheduled_messages/{scheduled_message_id}: Edit a scheduled message
 *
 * Parameters:
 * - `scheduled_message_id` (integer, path, required)
 * - `type` (ScheduledMessageType, body, optional)
 * - `to` (integer | integer[], body, optional, JSON-encoded)
 * - `content` (string, body, optional)
 * - `topic` (string, body, optional)
 * - `scheduled_delivery_timestamp` (integer, body, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateScheduledMessage: Handlers['updateScheduledMessage'] = async (params, ctx) => {
  return {};
};
