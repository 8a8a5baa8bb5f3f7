/**
 * Messages the server itself sends through the notification bot (reminders,
 * message reports), and the links to messages they carry.
 */
import type { Db } from '../store/db.js';
import { insertMessage, type MessageAddress } from '../store/messages.js';
import { listLinkifiers } from '../store/realm.js';
import { recipientMemberIds } from '../store/recipients.js';
import type { ChannelRow, MessageRow } from '../store/rows.js';
import { renderMarkdown } from './markdown.js';

/** The organization's system bot (docs/decisions/0002-example-organization.md). */
export const NOTIFICATION_BOT_ID = 1;

/** Sends `content` (markdown) from the notification bot; returns the new message's id. */
export async function sendBotMessage(tx: Db, to: MessageAddress, content: string, at: number): Promise<number> {
  return insertMessage(tx, {
    senderId: NOTIFICATION_BOT_ID,
    to,
    content,
    renderedContent: renderMarkdown(content, { linkifiers: await listLinkifiers(tx) }),
    client: 'Internal',
    sentAt: at,
  });
}

/** A web-app narrow component: percent-encoding with `.` for `%`, so it survives in a URL fragment. */
function hashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*.]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%', '.');
}

/** The web-app link that opens the conversation around the message. */
export async function messageLink(db: Db, message: MessageRow, channel: Pick<ChannelRow, 'id' | 'name'> | null): Promise<string> {
  if (message.type === 'stream' && channel) {
    const slug = `${channel.id}-${channel.name.replace(/ /g, '-')}`;
    return `/#narrow/channel/${hashComponent(slug)}/topic/${hashComponent(message.topic)}/near/${message.id}`;
  }
  const members = await recipientMemberIds(db, message.recipient_id);
  return `/#narrow/dm/${members.join(',')}/near/${message.id}`;
}

/** Text shown literally by markdown (names, labels). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

/** Quotes text as a markdown block quote, line by line. */
export function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}
