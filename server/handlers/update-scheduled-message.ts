// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { renderMarkdown } from '../domain/markdown.js';
import { isStorableId } from '../domain/narrow.js';
import {
  channelIdOf,
  channelTopic,
  checkContent,
  checkDeliveryTime,
  directRecipients,
  messageTypeOf,
  postableChannel,
} from '../domain/scheduled-messages.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { getChannel } from '../store/channels.js';
import { getRealm, listLinkifiers } from '../store/realm.js';
import { channelRecipientId, directRecipientId } from '../store/recipients.js';
import { lockOwnPendingScheduledMessage, saveScheduledMessageEdit } from '../store/scheduled-messages.js';

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
  const { db, now } = services(ctx.request);
  const user = ctx.user;
  return db.transaction(async (tx) => {
    const realm = (await getRealm(tx))!;
    const scheduled = isStorableId(params.scheduled_message_id)
      ? await lockOwnPendingScheduledMessage(tx, params.scheduled_message_id, user.id)
      : null;
    if (!scheduled) throw new ApiError('BAD_REQUEST', 'Scheduled message does not exist');
    const scheduledAt = params.scheduled_delivery_timestamp;
    if (scheduled.failed && scheduledAt === undefined) {
      throw new ApiError('BAD_REQUEST', 'A new scheduled_delivery_timestamp is required to edit a failed scheduled message');
    }
    if (scheduledAt !== undefined) checkDeliveryTime(scheduledAt, now());

    const type = params.type === undefined ? scheduled.type : messageTypeOf(params.type);
    if (type !== scheduled.type && params.to === undefined) {
      throw new ApiError('BAD_REQUEST', 'Recipient required when updating type of scheduled message');
    }
    if (type !== scheduled.type && type === 'stream' && params.topic === undefined) {
      throw new ApiError('BAD_REQUEST', 'Topic required when updating scheduled message type to channel');
    }

    let address = { recipientId: scheduled.recipient_id, channelId: scheduled.channel_id, topic: scheduled.topic };
    if (type === 'stream') {
      const channel =
        params.to === undefined ? (await getChannel(tx, scheduled.channel_id!))! : await postableChannel(tx, user, channelIdOf(params.to));
      // A topic that stays is checked again only when the channel changes (its policy may differ).
      const topic =
        params.topic !== undefined ? channelTopic(params.topic, channel, realm) : channel.id !== scheduled.channel_id ? channelTopic(scheduled.topic, channel, realm) : scheduled.topic;
      address = { recipientId: (await channelRecipientId(tx, channel.id))!, channelId: channel.id, topic };
    } else if (params.to !== undefined) {
      // The sender is one of the conversation's participants, as when sending.
      const recipients = await directRecipients(tx, params.to);
      address = { recipientId: await directRecipientId(tx, [...recipients, user.id]), channelId: null, topic: '' };
    }

    let content = { content: scheduled.content, renderedContent: scheduled.rendered_content };
    if (params.content !== undefined) {
      checkContent(params.content, realm);
      content = { content: params.content, renderedContent: renderMarkdown(params.content, { linkifiers: await listLinkifiers(tx) }) };
    }

    await saveScheduledMessageEdit(tx, scheduled.id, {
      type,
      ...address,
      ...content,
      scheduledAt: scheduledAt ?? scheduled.scheduled_at,
    });
    return {};
  });
};
