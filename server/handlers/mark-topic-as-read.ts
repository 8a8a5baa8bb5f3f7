// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { canAccessChannelContent } from '../domain/access.js';
import { markTopicRead } from '../domain/flags.js';
import { isStorableId } from '../domain/narrow.js';
import { topicFromRequest } from '../domain/topics.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { getChannel } from '../store/channels.js';
import { getRealm } from '../store/realm.js';

/**
 * POST /mark_topic_as_read: Mark messages in a topic as read
 *
 * Parameters:
 * - `stream_id` (integer, body, required)
 * - `topic_name` (string, body, required)
 *
 * @deprecated
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const markTopicAsRead: Handlers['markTopicAsRead'] = async (params, ctx) => {
  const { db } = services(ctx.request);
  const channel = isStorableId(params.stream_id) ? await getChannel(db, params.stream_id) : null;
  // A channel the caller may not read is answered like a missing one.
  if (!channel || !(await canAccessChannelContent(db, ctx.user, channel))) throw new ApiError('BAD_REQUEST', 'Invalid channel ID');
  const realm = (await getRealm(db))!;
  await markTopicRead(db, ctx.user.id, channel.id, topicFromRequest(params.topic_name, realm, { noTopicAlias: false }));
  return {};
};
