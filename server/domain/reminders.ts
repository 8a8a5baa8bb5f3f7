/** Reminder delivery: the notification bot's direct message to the user who asked. */
import type { Db } from '../store/db.js';
import { getChannel } from '../store/channels.js';
import { getMessage } from '../store/messages.js';
import { claimDueReminders, markReminderDelivered } from '../store/reminders.js';
import type { ReminderRow } from '../store/rows.js';
import { messageLink, quote, sendBotMessage } from './notifications.js';

export function reminderContent(link: string, note: string): string {
  const text = `You asked to be reminded about [this message](${link}).`;
  return note.trim() === '' ? text : `${text}\n\nNote:\n\n${quote(note)}`;
}

async function deliver(tx: Db, reminder: ReminderRow, now: number): Promise<number> {
  // The reminder is deleted with its message (ON DELETE CASCADE), so the message exists.
  const message = (await getMessage(tx, reminder.message_id))!;
  const channel = message.channel_id === null ? null : await getChannel(tx, message.channel_id);
  const link = await messageLink(tx, message, channel);
  return sendBotMessage(tx, { directTo: [reminder.user_id] }, reminderContent(link, reminder.note), now);
}

/**
 * Claims up to `limit` due reminders and delivers them in one transaction,
 * so a claim and its message commit together (or neither does). A reminder
 * that cannot be delivered is closed without a message rather than retried
 * forever; `onFailure` hears about it. Returns how many were claimed.
 */
export async function deliverDueReminders(
  db: Db,
  claimedBy: string,
  now: number,
  limit: number,
  onFailure: (reminder: ReminderRow, error: unknown) => void,
): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await claimDueReminders(tx, claimedBy, limit, now);
    for (const reminder of due) {
      let messageId: number | null = null;
      try {
        messageId = await tx.transaction((inner) => deliver(inner, reminder, now));
      } catch (error) {
        onFailure(reminder, error);
      }
      await markReminderDelivered(tx, reminder.id, messageId, now);
    }
    return due.length;
  });
}
