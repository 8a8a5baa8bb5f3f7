/**
 * A message as one caller sees it (the Message record), and its edit
 * history as snapshots. Both are derived from the message row and its
 * message_edits rows, the single record of every edit and move.
 */
import { diffArrays } from 'diff';
import type { components } from '../../generated/types.js';
import type { MessageForViewer } from '../store/messages.js';
import type { LinkifierRow, MessageEditRow, MessageRow, RealmRow } from '../store/rows.js';
import { avatarUrl } from './users.js';
import { topicLinks } from './markdown.js';
import { topicForResponse } from './topics.js';

type Message = components['schemas']['Message'];
type EditHistoryEntry = components['schemas']['EditHistoryEntry'];
type Snapshot = components['schemas']['MessageHistorySnapshot'];

export interface MessageView {
  applyMarkdown: boolean;
  allowEmptyTopicName: boolean;
}

const RESOLVED_PREFIX = '✔ ';

/** Whether a topic change only marks the topic resolved or unresolved, which is not a move. */
export function isResolveToggle(previous: string, next: string): boolean {
  return next === RESOLVED_PREFIX + previous || previous === RESOLVED_PREFIX + next;
}

function isMove(edit: MessageEditRow): boolean {
  if (edit.prev_channel_id !== null) return true;
  return edit.prev_topic !== null && !isResolveToggle(edit.prev_topic, edit.new_topic!);
}

function latest(edits: MessageEditRow[], matches: (edit: MessageEditRow) => boolean): number | undefined {
  const found = edits.filter(matches);
  return found.length === 0 ? undefined : Math.max(...found.map((edit) => edit.edited_at));
}

/**
 * The caller's flags. A message the caller has no copy of (readable through
 * channel history) shows as read and historical; `wildcard_mentioned` is
 * derived from the two specific wildcard flags.
 */
function flagsFor(stored: readonly string[] | null): string[] {
  const flags: string[] = stored ? [...stored] : ['read', 'historical'];
  if (flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned')) flags.push('wildcard_mentioned');
  return flags;
}

function editHistoryEntry(edit: MessageEditRow, realm: RealmRow, allowEmptyTopicName: boolean): EditHistoryEntry {
  const entry: EditHistoryEntry = { user_id: edit.user_id, timestamp: edit.edited_at };
  if (edit.prev_content !== null) {
    entry.prev_content = edit.prev_content;
    entry.prev_rendered_content = edit.prev_rendered_content!;
  }
  if (edit.prev_channel_id !== null) {
    entry.prev_stream = edit.prev_channel_id;
    entry.stream = edit.new_channel_id!;
  }
  if (edit.prev_topic !== null) {
    entry.prev_topic = topicForResponse(edit.prev_topic, realm, allowEmptyTopicName);
    entry.topic = topicForResponse(edit.new_topic!, realm, allowEmptyTopicName);
  }
  return entry;
}

/**
 * The Message record of the spec, as the caller `messageForViewer` read it
 * for sees it (its flags), from that one row plus the cached organization
 * and linkifiers.
 */
export function messageRecord(
  message: MessageForViewer,
  realm: RealmRow,
  linkifiers: readonly Pick<LinkifierRow, 'pattern' | 'url_template'>[],
  view: MessageView,
): Message {
  const edits = message.edits;
  const isChannel = message.type === 'stream';
  const record: Message = {
    id: message.id,
    type: message.type,
    sender_id: message.sender_id,
    sender_email: message.sender_email,
    sender_full_name: message.sender_full_name,
    sender_realm_str: realm.string_id,
    avatar_url: avatarUrl({ email: message.sender_email, avatar_version: message.sender_avatar_version }),
    client: message.client,
    content: view.applyMarkdown ? message.rendered_content : message.content,
    content_type: view.applyMarkdown ? 'text/html' : 'text/x-markdown',
    display_recipient: isChannel
      ? message.channel!.name
      : message.participants!.map((user) => ({ id: user.id, email: user.email, full_name: user.full_name, is_mirror_dummy: false })),
    recipient_id: message.recipient_id,
    subject: isChannel ? topicForResponse(message.topic, realm, view.allowEmptyTopicName) : '',
    topic_links: isChannel ? topicLinks(message.topic, linkifiers) : [],
    is_me_message: message.is_me_message,
    reactions: message.reactions.map((reaction) => ({
      emoji_name: reaction.emoji_name,
      emoji_code: reaction.emoji_code,
      reaction_type: reaction.reaction_type,
      user_id: reaction.user_id,
    })),
    submessages: message.submessages.map((submessage) => ({
      id: submessage.id,
      message_id: submessage.message_id,
      sender_id: submessage.sender_id,
      msg_type: submessage.msg_type,
      content: submessage.content,
    })),
    timestamp: message.sent_at,
    flags: flagsFor(message.flags),
  };
  if (isChannel) record.stream_id = message.channel_id!;
  const lastEdit = latest(edits, (edit) => edit.prev_content !== null);
  if (lastEdit !== undefined) record.last_edit_timestamp = lastEdit;
  const lastMove = latest(edits, isMove);
  if (lastMove !== undefined) record.last_moved_timestamp = lastMove;
  if (edits.length > 0 && realm.allow_edit_history) {
    record.edit_history = edits.map((edit) => editHistoryEntry(edit, realm, view.allowEmptyTopicName)).reverse();
  }
  return record;
}

interface MessageState {
  topic: string;
  channelId: number | null;
  content: string;
  renderedContent: string;
}

/** Snapshots of the message, oldest first: the original, then the state after each edit. */
export function historySnapshots(message: MessageRow, edits: MessageEditRow[], realm: RealmRow, allowEmptyTopicName: boolean): Snapshot[] {
  // Walk back from the current state to recover the state before each edit.
  const states: MessageState[] = [
    { topic: message.topic, channelId: message.channel_id, content: message.content, renderedContent: message.rendered_content },
  ];
  for (const edit of [...edits].reverse()) {
    const after = states[0]!;
    states.unshift({
      topic: edit.prev_topic ?? after.topic,
      channelId: edit.prev_channel_id ?? after.channelId,
      content: edit.prev_content ?? after.content,
      renderedContent: edit.prev_rendered_content ?? after.renderedContent,
    });
  }
  const topic = (value: string) => topicForResponse(value, realm, allowEmptyTopicName);
  return states.map((state, index) => {
    const snapshot: Snapshot = {
      topic: topic(state.topic),
      content: state.content,
      rendered_content: state.renderedContent,
      timestamp: message.sent_at,
      user_id: message.sender_id,
    };
    const edit = edits[index - 1];
    if (!edit) return snapshot;
    snapshot.timestamp = edit.edited_at;
    snapshot.user_id = edit.user_id;
    if (edit.prev_topic !== null) snapshot.prev_topic = topic(edit.prev_topic);
    if (edit.prev_channel_id !== null) {
      snapshot.prev_stream = edit.prev_channel_id;
      snapshot.stream = edit.new_channel_id!;
    }
    if (edit.prev_content !== null) {
      snapshot.prev_content = edit.prev_content;
      snapshot.prev_rendered_content = edit.prev_rendered_content!;
      snapshot.content_html_diff = htmlDiff(edit.prev_rendered_content!, state.renderedContent);
    }
    return snapshot;
  });
}

// Tags, words and runs of whitespace: tags are never split.
const HTML_TOKENS = /<[^>]*>|[^<\s]+|\s+/g;
const VOID_TAG = /^<(br|hr|img|input|wbr)\b|\/>$/i;

/** Whether every tag the tokens open they also close, so the run can be wrapped as a whole. */
function isBalanced(tokens: string[]): boolean {
  let depth = 0;
  for (const token of tokens) {
    if (!token.startsWith('<') || VOID_TAG.test(token)) continue;
    depth += token.startsWith('</') ? -1 : 1;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * Wraps a changed run. An unbalanced run cannot be wrapped without breaking
 * the nesting, so only its text is marked: inserted tags stay (they are part
 * of the new HTML), deleted ones go.
 */
function markRun(tokens: string[], tag: 'ins' | 'del'): string {
  if (isBalanced(tokens)) return `<${tag}>${tokens.join('')}</${tag}>`;
  return tokens
    .map((token) => (token.startsWith('<') ? (tag === 'ins' ? token : '') : `<${tag}>${token}</${tag}>`))
    .join('')
    .replaceAll(`</${tag}><${tag}>`, '');
}

/** The new HTML with inserted runs in <ins> and deleted runs in <del>, word by word. */
export function htmlDiff(before: string, after: string): string {
  return diffArrays(before.match(HTML_TOKENS) ?? [], after.match(HTML_TOKENS) ?? [])
    .map((change) => {
      if (change.added) return markRun(change.value, 'ins');
      if (change.removed) return markRun(change.value, 'del');
      return change.value.join('');
    })
    .join('');
}
