// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { getAccessibleMessageOrThrow } from '../domain/access.js';
import { isStorableId } from '../domain/narrow.js';
import { reportContent, reportTopic } from '../domain/reports.js';
import { messageLink, sendBotMessage } from '../domain/notifications.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { getChannel } from '../store/channels.js';
import { getRealm } from '../store/realm.js';
import { getUserById } from '../store/users.js';

/**
 * POST /messages/{message_id}/report: Report a message
 *
 * Parameters:
 * - `message_id` (integer, path, required)
 * - `report_type` (ReportType, body, required)
 * - `description` (string, body, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const reportMessage: Handlers['reportMessage'] = async (params, ctx) => {
  const { db, now } = services(ctx.request);
  const realm = (await getRealm(db))!;
  const moderationChannel = realm.moderation_request_channel_id === null ? null : await getChannel(db, realm.moderation_request_channel_id);
  if (!moderationChannel) throw new ApiError('BAD_REQUEST', 'Message reporting is not enabled in this organization');
  if (!isStorableId(params.message_id)) throw new ApiError('BAD_REQUEST', 'Invalid message(s)');
  const message = await getAccessibleMessageOrThrow(db, ctx.user, params.message_id);
  const reportType = realm.server_report_message_types.find((type) => type.key === params.report_type);
  if (!reportType) throw new ApiError('BAD_REQUEST', `Invalid report type: ${params.report_type}`);
  const description = params.description?.trim() ?? '';
  if (reportType.key === 'other' && description === '') {
    throw new ApiError('BAD_REQUEST', 'A description is required for reports of type other');
  }
  const sender = (await getUserById(db, message.sender_id))!;
  const channel = message.channel_id === null ? null : await getChannel(db, message.channel_id);
  const content = reportContent({
    reporter: ctx.user,
    sender,
    link: await messageLink(db, message, channel),
    typeName: reportType.name,
    description,
  });
  await db.transaction((tx) =>
    sendBotMessage(tx, { channelId: moderationChannel.id, topic: reportTopic(sender, moderationChannel, realm) }, content, now()),
  );
  return {};
};
