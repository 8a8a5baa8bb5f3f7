import { SharedCache } from './cache.js';
import { nowSeconds, type Db } from './db.js';
import { subscriberIds } from './channels.js';
import { channelRecipientId, directRecipientId } from './recipients.js';
import type { MessageEditRow, MessageFlag, MessageRow, ReactionRow, ReactionType, SubmessageRow } from './rows.js';

export async function getMessage(db: Db, id: number): Promise<MessageRow | null> {
  const { rows } = await db.query<MessageRow>('SELECT * FROM messages WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export type MessageAddress = { channelId: number; topic: string } | { directTo: readonly number[] };

export interface NewMessage {
  id?: number;
  senderId: number;
  to: MessageAddress;
  content: string;
  renderedContent: string;
  client?: string;
  sentAt?: number;
  isMeMessage?: boolean;
}

/**
 * Inserts a message and a user_messages row for each receiver (channel
 * subscribers, or the conversation's participants, plus the sender, whose
 * copy is already read). Returns the message id.
 */
export async function insertMessage(tx: Db, message: NewMessage): Promise<number> {
  let recipientId: number;
  let channelId: number | null = null;
  let topic = '';
  let receivers: number[];
  if ('channelId' in message.to) {
    const found = await channelRecipientId(tx, message.to.channelId);
    if (found === null) throw new Error(`no channel ${message.to.channelId}`);
    recipientId = found;
    channelId = message.to.channelId;
    topic = message.to.topic;
    receivers = await subscriberIds(tx, channelId);
  } else {
    receivers = [...new Set([...message.to.directTo, message.senderId])];
    recipientId = await directRecipientId(tx, receivers);
  }
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO messages (id, sender_id, type, recipient_id, channel_id, topic, content, rendered_content, client,
       sent_at, is_me_message)
     VALUES (COALESCE($1, nextval(pg_get_serial_sequence('messages', 'id'))), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING id`,
    [
      message.id ?? null,
      message.senderId,
      channelId === null ? 'private' : 'stream',
      recipientId,
      channelId,
      topic,
      message.content,
      message.renderedContent,
      message.client ?? 'API',
      message.sentAt ?? nowSeconds(),
      message.isMeMessage ?? false,
    ],
  );
  const id = rows[0]!.id;
  await tx.query(
    `INSERT INTO user_messages (user_id, message_id, flags)
     SELECT receiver, $1, CASE WHEN receiver = $2 THEN ARRAY['read'] ELSE '{}'::text[] END
     FROM unnest($3::integer[]) AS receiver
     ON CONFLICT DO NOTHING`,
    [id, message.senderId, [...new Set([...receivers, message.senderId])]],
  );
  return id;
}

export interface MessageEdit {
  userId: number | null;
  at?: number;
  content?: { content: string; renderedContent: string };
  /** Moves the message to another channel (the topic stays unless also given). */
  channelId?: number;
  topic?: string;
  /** False for a topic change that only resolves or unresolves it, which is not a move. */
  isMove?: boolean;
}

/** Applies an edit or move and records it in the message's history. */
export async function applyMessageEdit(tx: Db, messageId: number, edit: MessageEdit): Promise<void> {
  const { rows } = await tx.query<MessageRow>('SELECT * FROM messages WHERE id = $1 FOR UPDATE', [messageId]);
  const message = rows[0];
  if (!message) throw new Error(`no message ${messageId}`);
  const at = edit.at ?? nowSeconds();
  const content = edit.content && edit.content.content !== message.content ? edit.content : undefined;
  const channelId = edit.channelId !== undefined && edit.channelId !== message.channel_id ? edit.channelId : undefined;
  const topic = edit.topic !== undefined && edit.topic !== message.topic ? edit.topic : undefined;
  if (!content && channelId === undefined && topic === undefined) return;
  if ((channelId !== undefined || topic !== undefined) && message.type !== 'stream') {
    throw new Error('only channel messages can change channel or topic');
  }
  const recipientId = channelId === undefined ? message.recipient_id : await channelRecipientId(tx, channelId);
  if (recipientId === null) throw new Error(`no channel ${channelId}`);
  const moved = (channelId !== undefined || topic !== undefined) && edit.isMove !== false;
  await tx.query(
    `UPDATE messages SET content = $2, rendered_content = $3, channel_id = $4, recipient_id = $5, topic = $6,
       last_edit_at = CASE WHEN $7 THEN $9 ELSE last_edit_at END,
       last_moved_at = CASE WHEN $8 THEN $9 ELSE last_moved_at END
     WHERE id = $1`,
    [
      messageId,
      content?.content ?? message.content,
      content?.renderedContent ?? message.rendered_content,
      channelId ?? message.channel_id,
      recipientId,
      topic ?? message.topic,
      content !== undefined,
      moved,
      at,
    ],
  );
  await tx.query(
    `INSERT INTO message_edits (message_id, user_id, edited_at, prev_content, prev_rendered_content, new_content,
       new_rendered_content, prev_channel_id, new_channel_id, prev_topic, new_topic)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      messageId,
      edit.userId,
      at,
      content ? message.content : null,
      content ? message.rendered_content : null,
      content?.content ?? null,
      content?.renderedContent ?? null,
      channelId === undefined ? null : message.channel_id,
      channelId ?? null,
      topic === undefined ? null : message.topic,
      topic ?? null,
    ],
  );
}

/** Oldest first. */
export async function messageEdits(db: Db, messageId: number): Promise<MessageEditRow[]> {
  const { rows } = await db.query<MessageEditRow>('SELECT * FROM message_edits WHERE message_id = $1 ORDER BY id', [messageId]);
  return rows;
}

/** Oldest first. */
export async function messageReactions(db: Db, messageId: number): Promise<ReactionRow[]> {
  const { rows } = await db.query<ReactionRow>('SELECT * FROM reactions WHERE message_id = $1 ORDER BY id', [messageId]);
  return rows;
}

export async function addReaction(
  db: Db,
  reaction: { messageId: number; userId: number; emojiName: string; emojiCode: string; reactionType: ReactionType; at?: number },
): Promise<void> {
  await db.query(
    `INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [reaction.messageId, reaction.userId, reaction.emojiName, reaction.emojiCode, reaction.reactionType, reaction.at ?? nowSeconds()],
  );
}

export async function messageSubmessages(db: Db, messageId: number): Promise<SubmessageRow[]> {
  const { rows } = await db.query<SubmessageRow>('SELECT * FROM submessages WHERE message_id = $1 ORDER BY id', [messageId]);
  return rows;
}

/** The user's stored flags on the message, or null when the user has no copy of it. */
export async function userMessageFlags(db: Db, userId: number, messageId: number): Promise<MessageFlag[] | null> {
  const { rows } = await db.query<{ flags: MessageFlag[] }>(
    'SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2',
    [userId, messageId],
  );
  return rows[0]?.flags ?? null;
}

/** Adds or removes one flag on the given messages of a user; returns how many rows changed. */
export async function setFlag(db: Db, userId: number, messageIds: readonly number[], flag: MessageFlag, present: boolean): Promise<number> {
  const { rowCount } = present
    ? await db.query(
        `UPDATE user_messages SET flags = array_append(flags, $3)
         WHERE user_id = $1 AND message_id = ANY ($2::integer[]) AND NOT ($3 = ANY (flags))`,
        [userId, messageIds, flag],
      )
    : await db.query(
        `UPDATE user_messages SET flags = array_remove(flags, $3)
         WHERE user_id = $1 AND message_id = ANY ($2::integer[]) AND $3 = ANY (flags)`,
        [userId, messageIds, flag],
      );
  return rowCount;
}

/** Id of the newest message the user has a copy of, or null before the first. */
export async function lastReceivedMessageId(db: Db, userId: number): Promise<number | null> {
  const { rows } = await db.query<{ id: number | null }>('SELECT max(message_id) AS id FROM user_messages WHERE user_id = $1', [userId]);
  return rows[0]!.id;
}

/** A message with everything one caller's view of it needs, read in one statement (GET /messages/{id}). */
export interface MessageForViewer extends Omit<MessageRow, 'last_edit_at' | 'last_moved_at'> {
  sender_email: string;
  sender_full_name: string;
  sender_avatar_version: number;
  /** Null for direct messages. */
  channel: { name: string; is_web_public: boolean; is_private: boolean; history_public_to_subscribers: boolean } | null;
  /**
   * The caller's subscription to the message's channel, if any. Read only
   * where access depends on it (canAccessViewedMessage): a channel that is
   * not web-public and is private or viewed by a guest; null elsewhere.
   */
  subscription: { active: boolean; created_at: number } | null;
  /** The caller's flags, or null when it has no copy. */
  flags: MessageFlag[] | null;
  /** Direct messages: the participants, by id. */
  participants: { id: number; email: string; full_name: string }[] | null;
  /** Oldest first. */
  edits: MessageEditRow[];
  /** Oldest first. */
  reactions: Pick<ReactionRow, 'emoji_name' | 'emoji_code' | 'reaction_type' | 'user_id'>[];
  submessages: SubmessageRow[];
}

// Every lookup is by key. The participants are joined member by member through users' primary key
// (OFFSET 0 keeps the planner from turning that into a hash join over all users, its choice on the
// default estimates PGlite plans with, as it never runs ANALYZE), in recipient_members' key order.
// The subscription is read only when access depends on it, saving a lookup for most views.
/**
 * The statement of `messageForViewer`, over SQL expressions for the viewer's
 * id, the message id and whether the viewer is a guest: parameters on its
 * own, the authenticating statement's user row inside it (credentials.ts).
 */
export function messageForViewerSql(viewerId: string, messageId: string, viewerIsGuest: string): string {
  return `
  SELECT m.id, m.sender_id, m.type, m.recipient_id, m.channel_id, m.topic, m.content, m.rendered_content, m.client,
    m.sent_at, m.is_me_message,
    u.email AS sender_email, u.full_name AS sender_full_name, u.avatar_version AS sender_avatar_version,
    CASE WHEN c.id IS NOT NULL THEN json_build_object('name', c.name, 'is_web_public', c.is_web_public,
      'is_private', c.is_private, 'history_public_to_subscribers', c.history_public_to_subscribers) END AS channel,
    CASE WHEN NOT c.is_web_public AND (c.is_private OR ${viewerIsGuest}) THEN (
      SELECT json_build_object('active', s.active, 'created_at', s.created_at)
      FROM subscriptions s WHERE s.user_id = ${viewerId} AND s.channel_id = m.channel_id) END AS subscription,
    um.flags,
    CASE WHEN m.type = 'private' THEN COALESCE((
      SELECT json_agg(json_build_object('id', rm.user_id, 'email', p.email, 'full_name', p.full_name) ORDER BY rm.user_id)
      FROM recipient_members rm
      CROSS JOIN LATERAL (SELECT p.email, p.full_name FROM users p WHERE p.id = rm.user_id OFFSET 0) p
      WHERE rm.recipient_id = m.recipient_id), '[]') END AS participants,
    COALESCE((SELECT json_agg(e ORDER BY e.id) FROM message_edits e WHERE e.message_id = m.id), '[]') AS edits,
    COALESCE((SELECT json_agg(json_build_object('emoji_name', r.emoji_name, 'emoji_code', r.emoji_code,
      'reaction_type', r.reaction_type, 'user_id', r.user_id) ORDER BY r.id) FROM reactions r WHERE r.message_id = m.id), '[]') AS reactions,
    COALESCE((SELECT json_agg(sm ORDER BY sm.id) FROM submessages sm WHERE sm.message_id = m.id), '[]') AS submessages
  FROM messages m
  JOIN users u ON u.id = m.sender_id
  LEFT JOIN channels c ON c.id = m.channel_id
  LEFT JOIN user_messages um ON um.user_id = ${viewerId} AND um.message_id = m.id
  WHERE m.id = ${messageId}`;
}

const MESSAGE_FOR_VIEWER = messageForViewerSql('$1', '$2', '$3::boolean');

/** What `messageForViewer` reads that is the same for every viewer: all but the caller's flags and subscription. */
export type MessageView = Omit<MessageForViewer, 'flags' | 'subscription'>;

// With a kept view, the caller's part: the flags, and the subscription where access depends on it (as in the full statement).
const VIEWER_FLAGS_AND_SUBSCRIPTION = `SELECT (SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2) AS flags,
  (SELECT json_build_object('active', s.active, 'created_at', s.created_at)
   FROM subscriptions s WHERE s.user_id = $1 AND s.channel_id = $3) AS subscription`;

/**
 * The message as `viewer` sees it (`isGuest`: whether the viewer's role is
 * guest), or null when there is no such message. On a database whose changes
 * the cache follows (PGlite), the part every viewer shares is kept per
 * message, and a kept message costs one statement by key for the caller's part.
 */
export async function messageForViewer(
  db: Db,
  viewer: { id: number; isGuest: boolean },
  messageId: number,
): Promise<MessageForViewer | null> {
  const cache = SharedCache.of(db);
  const view = cache?.messageView(db, messageId);
  if (view) {
    const channel = view.channel;
    if (channel && !channel.is_web_public && (channel.is_private || viewer.isGuest)) {
      const { rows } = await db.query<Pick<MessageForViewer, 'flags' | 'subscription'>>(VIEWER_FLAGS_AND_SUBSCRIPTION, [
        viewer.id,
        messageId,
        view.channel_id,
      ]);
      return { ...view, flags: rows[0]!.flags, subscription: rows[0]!.subscription };
    }
    return { ...view, flags: await userMessageFlags(db, viewer.id, messageId), subscription: null };
  }
  const ticket = cache?.messageTicket(db);
  const { rows } = await db.query<MessageForViewer>(MESSAGE_FOR_VIEWER, [viewer.id, messageId, viewer.isGuest]);
  const row = rows[0];
  if (!row) return null;
  if (ticket !== undefined) {
    const { flags, subscription, ...shared } = row;
    cache!.keepMessageView(db, ticket, shared);
    return { ...shared, flags, subscription };
  }
  return row;
}
