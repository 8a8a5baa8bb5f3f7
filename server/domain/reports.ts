/** The moderators' notification for a reported message. */
import type { ChannelRow, RealmRow, UserRow } from '../store/rows.js';
import { escapeMarkdown, quote } from './notifications.js';
import { areNamedTopicsAllowed } from './topics.js';

export interface Report {
  reporter: Pick<UserRow, 'id' | 'full_name'>;
  sender: Pick<UserRow, 'id' | 'full_name'>;
  /** Link to the reported message (messageLink). */
  link: string;
  /** Display name of the report type. */
  typeName: string;
  description: string;
}

/** Reports about one user share a topic named after them, unless the channel takes only the empty topic. */
export function reportTopic(sender: Pick<UserRow, 'full_name'>, channel: Pick<ChannelRow, 'topics_policy'>, realm: RealmRow): string {
  if (!areNamedTopicsAllowed(channel, realm)) return '';
  return [...`Reports: ${sender.full_name}`].slice(0, realm.max_topic_length).join('').trim();
}

export function reportContent(report: Report): string {
  const lines = [
    `${escapeMarkdown(report.reporter.full_name)} (user ${report.reporter.id}) reported [this message](${report.link}) ` +
      `sent by ${escapeMarkdown(report.sender.full_name)} (user ${report.sender.id}).`,
    '',
    `Reason: **${escapeMarkdown(report.typeName)}**`,
  ];
  if (report.description !== '') lines.push('', 'Description:', '', quote(report.description));
  return lines.join('\n');
}
