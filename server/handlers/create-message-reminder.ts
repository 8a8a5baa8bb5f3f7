// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { getAccessibleMessageOrThrow } from '../domain/access.js';
import { isStorableId } from '../domain/narrow.js';
import { checkDeliveryTime } from '../domain/scheduled-messages.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { insertReminder } from '../store/reminders.js';

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
  const { db, now } = services(ctx.request);
  if (params.message_id === undefined) throw new ApiError('BAD_REQUEST', "Missing 'message_id' argument");
  if (params.scheduled_delivery_timestamp === undefined) throw new ApiError('BAD_REQUEST', "Missing 'scheduled_delivery_timestamp' argument");
  if (!isStorableId(params.message_id)) throw new ApiError('BAD_REQUEST', 'Invalid message(s)');
  const message = await getAccessibleMessageOrThrow(db, ctx.user, params.message_id);
  checkDeliveryTime(params.scheduled_delivery_timestamp, now());
  const reminderId = await insertReminder(db, {
    userId: ctx.user.id,
    messageId: message.id,
    scheduledAt: params.scheduled_delivery_timestamp,
    note: params.note ?? '',
  });
  return { reminder_id: reminderId };
};
