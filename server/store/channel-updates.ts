import type { Db } from './db.js';
import type { ChannelRow } from './rows.js';

/** Locks the channel row for the rest of the transaction; null when absent. */
export async function lockChannel(tx: Db, id: number): Promise<ChannelRow | null> {
  const { rows } = await tx.query<ChannelRow>('SELECT * FROM channels WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ?? null;
}

/** Whether another channel already has this name, compared case-insensitively like the unique index. */
export async function channelNameTaken(db: Db, name: string, exceptId: number): Promise<boolean> {
  const { rows } = await db.query<{ taken: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM channels WHERE lower(name) = lower($1) AND id <> $2) AS taken',
    [name, exceptId],
  );
  return rows[0]!.taken;
}

/** Whether any message of the channel is in a topic other than the empty one. */
export async function channelHasNamedTopics(db: Db, channelId: number): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM messages WHERE channel_id = $1 AND topic <> '') AS found",
    [channelId],
  );
  return rows[0]!.found;
}

/** The plain columns update-stream may set (group settings go through setChannelGroupSetting). */
export type ChannelColumnChanges = Partial<
  Pick<
    ChannelRow,
    | 'name'
    | 'description'
    | 'rendered_description'
    | 'is_private'
    | 'is_web_public'
    | 'history_public_to_subscribers'
    | 'is_default'
    | 'message_retention_days'
    | 'is_archived'
    | 'folder_id'
    | 'topics_policy'
  >
>;

const COLUMNS: readonly (keyof ChannelColumnChanges)[] = [
  'name',
  'description',
  'rendered_description',
  'is_private',
  'is_web_public',
  'history_public_to_subscribers',
  'is_default',
  'message_retention_days',
  'is_archived',
  'folder_id',
  'topics_policy',
];

/** Sets exactly the given columns in one statement, so the table's checks see the final combination. */
export async function updateChannelColumns(tx: Db, channelId: number, changes: ChannelColumnChanges): Promise<void> {
  const columns = COLUMNS.filter((column) => column in changes);
  if (columns.length === 0) return;
  const assignments = columns.map((column, index) => `${column} = $${index + 2}`).join(', ');
  await tx.query(`UPDATE channels SET ${assignments} WHERE id = $1`, [channelId, ...columns.map((column) => changes[column])]);
}
