import type { Db } from './db.js';
import type { MessageType, ScheduledMessageRow } from './rows.js';

/** The user's own scheduled message that is not sent yet, locked for the transaction; null otherwise. */
export async function lockOwnPendingScheduledMessage(tx: Db, id: number, senderId: number): Promise<ScheduledMessageRow | null> {
  const { rows } = await tx.query<ScheduledMessageRow>(
    'SELECT * FROM scheduled_messages WHERE id = $1 AND sender_id = $2 AND NOT delivered FOR UPDATE',
    [id, senderId],
  );
  return rows[0] ?? null;
}

export interface ScheduledMessageChanges {
  type: MessageType;
  recipientId: number;
  channelId: number | null;
  topic: string;
  content: string;
  renderedContent: string;
  scheduledAt: number;
}

/** Replaces the message's address, content and time; an edited message is no longer failed. */
export async function saveScheduledMessageEdit(tx: Db, id: number, changes: ScheduledMessageChanges): Promise<void> {
  await tx.query(
    `UPDATE scheduled_messages SET type = $2, recipient_id = $3, channel_id = $4, topic = $5, content = $6,
       rendered_content = $7, scheduled_at = $8, failed = false, failure_message = NULL
     WHERE id = $1`,
    [id, changes.type, changes.recipientId, changes.channelId, changes.topic, changes.content, changes.renderedContent, changes.scheduledAt],
  );
}
