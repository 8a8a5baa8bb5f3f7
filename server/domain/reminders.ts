/** Reminder delivery: the notification bot's direct message to the user who asked. */
import type { Db } from '../store/db.js';
import { getChannel } from '../store/channels.js';
import { getMessage } from '../store/messages.js';
import { getRealm } from '../store/realm.js';
import { claimDueReminders, markReminderDelivered } from '../store/reminders.js';
import type { ReminderRow } from '../store/rows.js';
import { messageLink, quote, sendBotMessage } from './notifications.js';

/**
 * The bot's message. A note may be of any length, so the whole message is
 * cut to the organization's `max_message_length` (in code points), the
 * limit every message is held to.
 */
export function reminderContent(link: string, note: string, maxLength: number): string {
  const text = `You asked to be reminded about [this message](${link}).`;
  const content = note.trim() === '' ? text : `${text}\n\nNote:\n\n${quote(note)}`;
  const codePoints = [...content];
  return codePoints.length > maxLength ? codePoints.slice(0, maxLength).join('') : content;
}

async function deliver(tx: Db, reminder: ReminderRow, now: number): Promise<number> {
  // The reminder is deleted with its message (ON DELETE CASCADE), so the message exists.
  const message = (await getMessage(tx, reminder.message_id))!;
  const channel = message.channel_id === null ? null : await getChannel(tx, message.channel_id);
  const link = await messageLink(tx, message, channel);
  const realm = await getRealm(tx);
  if (!realm) throw new Error('the organization does not exist');
  return sendBotMessage(tx, { directTo: [reminder.user_id] }, reminderContent(link, reminder.note, realm.max_message_length), now);
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
