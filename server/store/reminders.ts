import { nowSeconds, type Db } from './db.js';
import type { ReminderRow } from './rows.js';

export async function insertReminder(
  db: Db,
  reminder: { id?: number; userId: number; messageId: number; scheduledAt: number; note?: string },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO reminders (id, user_id, message_id, scheduled_at, note, created_at)
     VALUES (COALESCE($1, nextval(pg_get_serial_sequence('reminders', 'id'))), $2, $3, $4, $5, $6) RETURNING id`,
    [reminder.id ?? null, reminder.userId, reminder.messageId, reminder.scheduledAt, reminder.note ?? '', nowSeconds()],
  );
  return rows[0]!.id;
}

/**
 * Locks and marks up to `limit` due, undelivered reminders for this process.
 * Call inside a transaction and deliver them before it commits: rows another
 * process holds are skipped (FOR UPDATE SKIP LOCKED), so no reminder is
 * delivered twice, and a crash before commit releases them for the next run.
 */
export async function claimDueReminders(tx: Db, claimedBy: string, limit: number, now: number = nowSeconds()): Promise<ReminderRow[]> {
  const { rows } = await tx.query<ReminderRow>(
    `UPDATE reminders SET claimed_by = $1, claimed_at = $2
     WHERE id IN (
       SELECT id FROM reminders WHERE delivered_at IS NULL AND scheduled_at <= $2
       ORDER BY scheduled_at, id LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     RETURNING *`,
    [claimedBy, now, limit],
  );
  return rows.sort((a, b) => a.scheduled_at - b.scheduled_at || a.id - b.id);
}

export async function markReminderDelivered(tx: Db, reminderId: number, deliveredMessageId: number | null, at: number = nowSeconds()): Promise<void> {
  await tx.query('UPDATE reminders SET delivered_at = $2, delivered_message_id = $3 WHERE id = $1', [reminderId, at, deliveredMessageId]);
}
