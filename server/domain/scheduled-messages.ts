/**
 * Checks for the parts of a scheduled message: where it goes (a channel and
 * topic, or a set of users), its content and its delivery time.
 */
import { ApiError } from '../errors.js';
import { getChannel } from '../store/channels.js';
import type { Db } from '../store/db.js';
import { isUserInGroup } from '../store/groups.js';
import type { ChannelRow, MessageType, RealmRow, UserRow } from '../store/rows.js';
import { getUsersByIds } from '../store/users.js';
import { canAccessChannelContent } from './access.js';
import { isStorableId } from './narrow.js';
import { checkTopicAllowed, topicFromRequest } from './topics.js';

type To = number | number[];

/** `direct` and `private` are direct messages; `channel` and `stream` channel messages. */
export function messageTypeOf(type: 'direct' | 'private' | 'channel' | 'stream'): MessageType {
  return type === 'direct' || type === 'private' ? 'private' : 'stream';
}

export function channelIdOf(to: To): number {
  const ids = typeof to === 'number' ? [to] : to;
  if (ids.length !== 1) throw new ApiError('BAD_REQUEST', "A channel message needs exactly one channel ID in 'to'");
  return ids[0]!;
}

/** A channel the user may post to; one it cannot see is answered like a missing one. */
export async function postableChannel(db: Db, user: UserRow, channelId: number): Promise<ChannelRow> {
  const channel = isStorableId(channelId) ? await getChannel(db, channelId) : null;
  if (!channel || !(await canAccessChannelContent(db, user, channel))) {
    throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID ${channelId} does not exist`, { stream_id: channelId });
  }
  if (channel.is_archived) throw new ApiError('BAD_REQUEST', `Channel '${channel.name}' is archived`);
  if (!(await isUserInGroup(db, user.id, channel.can_send_message_group_id))) {
    throw new ApiError('BAD_REQUEST', `You do not have permission to post in channel '${channel.name}'`);
  }
  return channel;
}

/** The direct-message recipients named by `to`: existing, active users. */
export async function directRecipients(db: Db, to: To): Promise<number[]> {
  const ids = [...new Set(typeof to === 'number' ? [to] : to)];
  if (ids.length === 0) throw new ApiError('BAD_REQUEST', 'Message must have recipients');
  const users = await getUsersByIds(db, ids.filter(isStorableId));
  for (const id of ids) {
    const user = users.find((candidate) => candidate.id === id);
    if (!user) throw new ApiError('BAD_REQUEST', `Invalid user ID ${id}`);
    if (!user.is_active) throw new ApiError('BAD_REQUEST', `User ${id} is deactivated`);
  }
  return ids;
}

/** The stored topic for a requested one, checked against the realm's length limit and the channel's policy. */
export function channelTopic(requested: string, channel: ChannelRow, realm: RealmRow): string {
  const topic = topicFromRequest(requested, realm, { noTopicAlias: true });
  if ([...topic].length > realm.max_topic_length) {
    throw new ApiError('BAD_REQUEST', `Topic is too long (at most ${realm.max_topic_length} characters)`);
  }
  checkTopicAllowed(topic, channel, realm);
  return topic;
}

export function checkContent(content: string, realm: RealmRow): void {
  if (content.trim() === '') throw new ApiError('BAD_REQUEST', 'Message must not be empty');
  if ([...content].length > realm.max_message_length) {
    throw new ApiError('BAD_REQUEST', `Message is too long (at most ${realm.max_message_length} characters)`);
  }
}

export function checkDeliveryTime(timestamp: number, now: number): void {
  if (!Number.isSafeInteger(timestamp)) throw new ApiError('BAD_REQUEST', 'Invalid scheduled_delivery_timestamp');
  if (timestamp <= now) throw new ApiError('BAD_REQUEST', 'Scheduled delivery time must be in the future');
}
