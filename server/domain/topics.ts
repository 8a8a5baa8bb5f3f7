/**
 * The empty topic: a valid topic for channel messages, shown to clients that
 * do not handle it as the organization's display name, and read back from
 * that name (and, where an operation says so, from `(no topic)`).
 */
import { ApiError } from '../errors.js';
import type { ChannelRow, RealmRow, TopicsPolicy } from '../store/rows.js';

type RealmTopics = Pick<RealmRow, 'empty_topic_display_name' | 'topics_policy'>;

/** The legacy spelling of the empty topic some operations accept. */
export const NO_TOPIC_ALIAS = '(no topic)';

/** The topic as a response shows it. */
export function topicForResponse(topic: string, realm: RealmTopics, allowEmptyTopicName: boolean): string {
  return topic === '' && !allowEmptyTopicName ? realm.empty_topic_display_name : topic;
}

/** The stored topic a request names: trimmed, with the display name (and `(no topic)` when allowed) read as "". */
export function topicFromRequest(value: string, realm: RealmTopics, options: { noTopicAlias: boolean }): string {
  const topic = value.trim();
  if (topic === realm.empty_topic_display_name) return '';
  if (options.noTopicAlias && topic === NO_TOPIC_ALIAS) return '';
  return topic;
}

/** The channel's policy with `inherit` resolved: named topics, and the empty topic as the organization says. */
export function effectiveTopicsPolicy(channel: Pick<ChannelRow, 'topics_policy'>, realm: RealmTopics): Exclude<TopicsPolicy, 'inherit'> {
  return channel.topics_policy === 'inherit' ? realm.topics_policy : channel.topics_policy;
}

export function isEmptyTopicAllowed(channel: Pick<ChannelRow, 'topics_policy'>, realm: RealmTopics): boolean {
  return effectiveTopicsPolicy(channel, realm) !== 'disable_empty_topic';
}

export function areNamedTopicsAllowed(channel: Pick<ChannelRow, 'topics_policy'>, realm: RealmTopics): boolean {
  return effectiveTopicsPolicy(channel, realm) !== 'empty_topic_only';
}

/** Refuses a topic (as stored, after topicFromRequest) that the channel's policy does not accept. */
export function checkTopicAllowed(topic: string, channel: Pick<ChannelRow, 'topics_policy'>, realm: RealmTopics): void {
  if (topic === '' && !isEmptyTopicAllowed(channel, realm)) {
    throw new ApiError('BAD_REQUEST', `Sending messages to the ${realm.empty_topic_display_name} topic is not allowed in this channel`);
  }
  if (topic !== '' && !areNamedTopicsAllowed(channel, realm)) {
    throw new ApiError('BAD_REQUEST', `Only the ${realm.empty_topic_display_name} topic is allowed in this channel`);
  }
}
