import { SharedCache } from './cache.js';
import { nowSeconds, type Db } from './db.js';
import type { ChannelFolderRow, ChannelRow, TopicsPolicy } from './rows.js';

export async function getChannel(db: Db, id: number): Promise<ChannelRow | null> {
  const { rows } = await db.query<ChannelRow>('SELECT * FROM channels WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function getChannelByName(db: Db, name: string): Promise<ChannelRow | null> {
  const { rows } = await db.query<ChannelRow>('SELECT * FROM channels WHERE lower(name) = lower($1)', [name]);
  return rows[0] ?? null;
}

/** The id of the channel with this id or name (case-insensitively), or null when none has it; from the shared cache where it serves `db`. */
export async function findChannelId(db: Db, named: number | string): Promise<number | null> {
  const cached = SharedCache.of(db)?.channelId(db, named);
  if (cached) return cached;
  const channel = typeof named === 'number' ? await getChannel(db, named) : await getChannelByName(db, named);
  return channel?.id ?? null;
}

export async function getChannelFolder(db: Db, id: number): Promise<ChannelFolderRow | null> {
  const { rows } = await db.query<ChannelFolderRow>('SELECT * FROM channel_folders WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function isSubscribed(db: Db, userId: number, channelId: number): Promise<boolean> {
  const { rows } = await db.query<{ subscribed: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = $1 AND channel_id = $2 AND active) AS subscribed',
    [userId, channelId],
  );
  return rows[0]!.subscribed;
}

/** Active subscribers, ascending. */
export async function subscriberIds(db: Db, channelId: number): Promise<number[]> {
  const { rows } = await db.query<{ user_id: number }>(
    'SELECT user_id FROM subscriptions WHERE channel_id = $1 AND active ORDER BY user_id',
    [channelId],
  );
  return rows.map((row) => row.user_id);
}

export async function subscribe(db: Db, userId: number, channelId: number, at: number = nowSeconds()): Promise<void> {
  await db.query(
    `INSERT INTO subscriptions (user_id, channel_id, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, channel_id) DO UPDATE SET active = true`,
    [userId, channelId, at],
  );
}

export interface NewChannel {
  id?: number;
  name: string;
  description?: string;
  renderedDescription?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefault?: boolean;
  messageRetentionDays?: number | null;
  isArchived?: boolean;
  folderId?: number | null;
  topicsPolicy?: TopicsPolicy;
  creatorId?: number | null;
  /** Group ids (from storeGroupSettingValue) for all seven settings. */
  groups: {
    canAddSubscribers: number;
    canRemoveSubscribers: number;
    canAdminister: number;
    canDeleteAnyMessage: number;
    canDeleteOwnMessage: number;
    canSendMessage: number;
    canCreateTopic: number;
  };
}

/** Inserts the channel and its recipient row; returns the channel id. */
export async function insertChannel(tx: Db, channel: NewChannel): Promise<number> {
  const isPrivate = channel.isPrivate ?? false;
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO channels (id, name, description, rendered_description, is_private, is_web_public,
       history_public_to_subscribers, is_default, message_retention_days, is_archived, folder_id, topics_policy,
       creator_id, created_at, can_add_subscribers_group_id, can_remove_subscribers_group_id,
       can_administer_channel_group_id, can_delete_any_message_group_id, can_delete_own_message_group_id,
       can_send_message_group_id, can_create_topic_group_id)
     VALUES (COALESCE($1, nextval(pg_get_serial_sequence('channels', 'id'))), $2, $3, $4, $5, $6, $7, $8, $9, $10,
       $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
     RETURNING id`,
    [
      channel.id ?? null,
      channel.name,
      channel.description ?? '',
      channel.renderedDescription ?? '',
      isPrivate,
      channel.isWebPublic ?? false,
      channel.historyPublicToSubscribers ?? !isPrivate,
      channel.isDefault ?? false,
      channel.messageRetentionDays ?? null,
      channel.isArchived ?? false,
      channel.folderId ?? null,
      channel.topicsPolicy ?? 'inherit',
      channel.creatorId ?? null,
      nowSeconds(),
      channel.groups.canAddSubscribers,
      channel.groups.canRemoveSubscribers,
      channel.groups.canAdminister,
      channel.groups.canDeleteAnyMessage,
      channel.groups.canDeleteOwnMessage,
      channel.groups.canSendMessage,
      channel.groups.canCreateTopic,
    ],
  );
  const id = rows[0]!.id;
  await tx.query(`INSERT INTO recipients (type, channel_id) VALUES ('stream', $1)`, [id]);
  return id;
}

export interface ChannelFolderChanges {
  name?: string;
  description?: string;
  renderedDescription?: string;
  isArchived?: boolean;
}

/** Locks the folder row for the rest of the transaction; null when absent. */
export async function lockChannelFolder(tx: Db, id: number): Promise<ChannelFolderRow | null> {
  const { rows } = await tx.query<ChannelFolderRow>('SELECT * FROM channel_folders WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ?? null;
}

/** Whether another folder already has this name, compared case-insensitively like the unique index. */
export async function channelFolderNameTaken(db: Db, name: string, exceptId: number): Promise<boolean> {
  const { rows } = await db.query<{ taken: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM channel_folders WHERE lower(name) = lower($1) AND id <> $2) AS taken',
    [name, exceptId],
  );
  return rows[0]!.taken;
}

/** Sets the given columns; the others keep their values. */
export async function updateChannelFolder(tx: Db, id: number, changes: ChannelFolderChanges): Promise<void> {
  await tx.query(
    `UPDATE channel_folders SET name = COALESCE($2, name), description = COALESCE($3, description),
       rendered_description = COALESCE($4, rendered_description), is_archived = COALESCE($5, is_archived)
     WHERE id = $1`,
    [id, changes.name ?? null, changes.description ?? null, changes.renderedDescription ?? null, changes.isArchived ?? null],
  );
}
