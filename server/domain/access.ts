/**
 * Who may see a channel and its messages. Decisions where the seed is silent:
 *
 * - Web-public channels are readable by every user of the organization,
 *   guests included: anyone on the internet can read them anyway.
 * - Other public channels: every non-guest. Guests see only the channels
 *   they are subscribed to (plus the web-public ones).
 * - Private channels: content (messages) needs an active subscription. With
 *   history public to subscribers a subscriber reads the whole history;
 *   otherwise only messages it received (it has a copy) or that were sent
 *   after it subscribed.
 * - Metadata of a private channel (name, settings) is visible to its
 *   subscribers, organization administrators, channel administrators
 *   (can_administer_channel_group) and those who may add subscribers, none
 *   of whom need to be subscribed.
 * - Direct messages: only their participants.
 *
 * A message the caller cannot see is answered exactly like a missing one.
 */
import { ApiError } from '../errors.js';
import { getChannel } from '../store/channels.js';
import type { Db } from '../store/db.js';
import { isUserInGroup } from '../store/groups.js';
import { getMessage, type MessageForViewer } from '../store/messages.js';
import type { ChannelRow, MessageRow, UserRow } from '../store/rows.js';
import { isAdmin, isGuest } from './roles.js';

type Caller = Pick<UserRow, 'id' | 'role'>;

interface Subscription {
  active: boolean;
  created_at: number;
}

async function subscription(db: Db, userId: number, channelId: number): Promise<Subscription | null> {
  const { rows } = await db.query<Subscription>(
    'SELECT active, created_at FROM subscriptions WHERE user_id = $1 AND channel_id = $2',
    [userId, channelId],
  );
  return rows[0] ?? null;
}

async function isSubscribedNow(db: Db, user: Caller, channel: ChannelRow): Promise<boolean> {
  return (await subscription(db, user.id, channel.id))?.active ?? false;
}

/** Whether the user administers this channel through its own setting (organization administrators aside). */
export async function isChannelAdministrator(db: Db, user: Caller, channel: ChannelRow): Promise<boolean> {
  return isUserInGroup(db, user.id, channel.can_administer_channel_group_id);
}

/** Administrators of the organization administer every channel; others through can_administer_channel_group. */
export async function canAdministerChannel(db: Db, user: Caller, channel: ChannelRow): Promise<boolean> {
  return isAdmin(user) || (await isChannelAdministrator(db, user, channel));
}

/** Whether the user may read the channel's messages (for a private channel: as a subscriber). */
export async function canAccessChannelContent(db: Db, user: Caller, channel: ChannelRow): Promise<boolean> {
  if (channel.is_web_public) return true;
  if (!channel.is_private && !isGuest(user)) return true;
  return isSubscribedNow(db, user, channel);
}

/** Whether the user may see that the channel exists and read its settings. */
export async function canAccessChannelMetadata(db: Db, user: Caller, channel: ChannelRow): Promise<boolean> {
  if (await canAccessChannelContent(db, user, channel)) return true;
  if (isGuest(user)) return false;
  if (!channel.is_private) return true;
  return (
    isAdmin(user) ||
    (await isChannelAdministrator(db, user, channel)) ||
    (await isUserInGroup(db, user.id, channel.can_add_subscribers_group_id))
  );
}

async function hasCopy(db: Db, userId: number, messageId: number): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM user_messages WHERE user_id = $1 AND message_id = $2) AS found',
    [userId, messageId],
  );
  return rows[0]!.found;
}

async function isParticipant(db: Db, userId: number, recipientId: number): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM recipient_members WHERE recipient_id = $1 AND user_id = $2) AS found',
    [recipientId, userId],
  );
  return rows[0]!.found;
}

/** Whether the user may read this message (see the rules at the top of the file). */
export async function canAccessMessage(db: Db, user: Caller, message: MessageRow): Promise<boolean> {
  if (message.type === 'private') return isParticipant(db, user.id, message.recipient_id);
  const channel = await getChannel(db, message.channel_id!);
  if (!channel) return false;
  if (channel.is_web_public) return true;
  if (!channel.is_private && !isGuest(user)) return true;
  const sub = await subscription(db, user.id, channel.id);
  if (!sub?.active) return false;
  if (channel.history_public_to_subscribers) return true;
  return sub.created_at <= message.sent_at || (await hasCopy(db, user.id, message.id));
}

/**
 * canAccessMessage over what messageForViewer read in one statement (the
 * same rules, no further queries).
 */
export function canAccessViewedMessage(user: Caller, message: MessageForViewer): boolean {
  if (message.type === 'private') return message.participants!.some((participant) => participant.id === user.id);
  const channel = message.channel;
  if (!channel) return false;
  if (channel.is_web_public) return true;
  if (!channel.is_private && !isGuest(user)) return true;
  const sub = message.subscription;
  if (!sub?.active) return false;
  if (channel.history_public_to_subscribers) return true;
  return sub.created_at <= message.sent_at || message.flags !== null;
}

/** The message, if it exists and the user may read it; otherwise the seed's single answer for both cases. */
export async function getAccessibleMessageOrThrow(db: Db, user: Caller, id: number): Promise<MessageRow> {
  const message = await getMessage(db, id);
  if (!message || !(await canAccessMessage(db, user, message))) throw new ApiError('BAD_REQUEST', 'Invalid message(s)');
  return message;
}
