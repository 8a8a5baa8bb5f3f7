// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /reminders: Create a message reminder
 *
 * Parameters:
 * - `message_id` (integer, body, optional)
 * - `scheduled_delivery_timestamp` (integer, body, optional)
 * - `note` (string, body, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const createMessageReminder: Handlers['createMessageReminder'] = async (params, ctx) => {
  return {
    reminder_id: 31,
  };
};
