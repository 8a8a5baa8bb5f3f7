import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../generated/client.js';
import { renderMarkdown, topicLinks } from '../../server/domain/markdown.js';
import { checkTopicAllowed, topicForResponse, topicFromRequest } from '../../server/domain/topics.js';
import { CHANNEL, USER } from '../../server/seed/demo-data.js';
import { applyMessageEdit, insertMessage, setFlag } from '../../server/store/messages.js';
import { drivers, startTestServer, type TestServer } from '../support/server.js';

const ISSUES = [{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/lakeside/app/issues/{id}' }];

describe('markdown rendering', () => {
  it('escapes raw HTML and links linkifier matches outside code and links', () => {
    expect(renderMarkdown('<script>x</script> **#7** `#8` [#9](https://a.example) x#10', { linkifiers: ISSUES })).toBe(
      '<p>&lt;script&gt;x&lt;/script&gt; <strong><a href="https://github.com/lakeside/app/issues/7">#7</a></strong> <code>#8</code> <a href="https://a.example">#9</a> x#10</p>',
    );
  });

  it('applies linkifiers in order, the first winning an overlap, and skips a pattern that does not compile', () => {
    const linkifiers = [
      { pattern: 'ABC-(?P<n>[0-9]+)', url_template: 'https://t.example/{n}' },
      { pattern: '(?P<word>[A-Z]+)-1', url_template: 'https://w.example/{word}' },
      { pattern: '([', url_template: 'https://broken.example' },
    ];
    expect(renderMarkdown('ABC-1 XY-1', { linkifiers })).toBe(
      '<p><a href="https://t.example/1">ABC-1</a> <a href="https://w.example/XY">XY-1</a></p>',
    );
    expect(topicLinks('ABC-12 and XY-1', linkifiers)).toEqual([
      { text: 'ABC-12', url: 'https://t.example/12' },
      { text: 'XY-1', url: 'https://w.example/XY' },
    ]);
  });
});

describe('empty topic', () => {
  const realm = { empty_topic_display_name: 'general chat', topics_policy: 'allow_empty_topic' as const };
  it('shows and reads the display name, and (no topic) only where allowed', () => {
    expect(topicForResponse('', realm, false)).toBe('general chat');
    expect(topicForResponse('', realm, true)).toBe('');
    expect(topicForResponse('x', realm, false)).toBe('x');
    expect(topicFromRequest(' general chat ', realm, { noTopicAlias: false })).toBe('');
    expect(topicFromRequest('(no topic)', realm, { noTopicAlias: false })).toBe('(no topic)');
    expect(topicFromRequest('(no topic)', realm, { noTopicAlias: true })).toBe('');
  });

  it('follows the channel topics policy, inherit taking the organization one', () => {
    const refuses = (topic: string, policy: 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only', realmPolicy: 'allow_empty_topic' | 'disable_empty_topic') => {
      try {
        checkTopicAllowed(topic, { topics_policy: policy }, { ...realm, topics_policy: realmPolicy });
        return false;
      } catch {
        return true;
      }
    };
    expect(refuses('', 'inherit', 'allow_empty_topic')).toBe(false);
    expect(refuses('', 'inherit', 'disable_empty_topic')).toBe(true);
    expect(refuses('', 'allow_empty_topic', 'disable_empty_topic')).toBe(false);
    expect(refuses('', 'disable_empty_topic', 'allow_empty_topic')).toBe(true);
    expect(refuses('named', 'empty_topic_only', 'allow_empty_topic')).toBe(true);
    expect(refuses('', 'empty_topic_only', 'disable_empty_topic')).toBe(false);
    expect(refuses('named', 'disable_empty_topic', 'disable_empty_topic')).toBe(false);
  });
});

describe.each(drivers)('get-message on %s', (driver) => {
  let server: TestServer;
  // Messages made here: a resolved-only one, one moved to another channel, one in a private channel.
  let resolved: number;
  let movedChannel: number;
  let inDesign: number;
  beforeAll(async () => {
    server = await startTestServer(driver);
    const db = server.db;
    resolved = await insertMessage(db, { senderId: USER.dana, to: { channelId: CHANNEL.engineering, topic: 'ci' }, content: 'Fixed', renderedContent: '<p>Fixed</p>', sentAt: 1000 });
    await applyMessageEdit(db, resolved, { userId: USER.dana, at: 1100, topic: '✔ ci', isMove: false });
    await applyMessageEdit(db, resolved, { userId: USER.dana, at: 1200, topic: 'ci', isMove: false });
    movedChannel = await insertMessage(db, { senderId: USER.dana, to: { channelId: CHANNEL.engineering, topic: 'misc' }, content: 'Moving', renderedContent: '<p>Moving</p>', sentAt: 2000 });
    await applyMessageEdit(db, movedChannel, { userId: USER.chen, at: 2100, channelId: CHANNEL.general, topic: '' });
    await setFlag(db, USER.dana, [movedChannel], 'stream_wildcard_mentioned', true);
    inDesign = await insertMessage(db, { senderId: USER.ada, to: { channelId: CHANNEL.design, topic: 'mocks' }, content: 'New mocks', renderedContent: '<p>New mocks</p>' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const invalid = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('expected an error'),
      (error: unknown) => {
        expect(isApiError(error, 'BAD_REQUEST')).toBe(true);
        expect((error as { msg: string }).msg).toBe('Invalid message(s)');
      },
    );

  it('returns an edited channel message with every field of the record', async () => {
    const { message, raw_content } = await server.client('member').getMessage({ message_id: 101 });
    expect(raw_content).toBe('Deploy of **v2.3** is done. See #42.');
    expect(message).toMatchObject({
      id: 101,
      type: 'stream',
      sender_id: USER.dana,
      sender_email: 'member@example.com',
      sender_full_name: 'Dana Kim',
      sender_realm_str: 'lakeside',
      client: 'website',
      content: '<p>Deploy of <strong>v2.3</strong> is done. See <a href="https://github.com/lakeside/app/issues/42">#42</a>.</p>',
      content_type: 'text/html',
      display_recipient: 'engineering',
      stream_id: CHANNEL.engineering,
      subject: 'deploys',
      topic_links: [],
      is_me_message: false,
      submessages: [],
      flags: ['read'],
    });
    // The Gravatar of the sender's API email, never of its real address.
    const hash = createHash('md5').update('member@example.com').digest('hex');
    expect(message.avatar_url).toBe(`https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1`);
    const { rows } = await server.db.query<{ recipient_id: number }>('SELECT recipient_id FROM messages WHERE id = 101');
    expect(message.recipient_id).toBe(rows[0]!.recipient_id);
    expect(message.reactions).toEqual([
      { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: USER.ben },
      { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: USER.chen },
    ]);
    expect(message.last_edit_timestamp).toBe(message.edit_history![0]!.timestamp);
    expect(message.last_edit_timestamp).toBeGreaterThan(message.timestamp);
    expect(message).not.toHaveProperty('last_moved_timestamp');
    expect(message.edit_history).toEqual([
      {
        user_id: USER.dana,
        timestamp: message.last_edit_timestamp,
        prev_content: 'Deploy of v2.3 is done.',
        prev_rendered_content: '<p>Deploy of v2.3 is done.</p>',
      },
    ]);
  });

  it('returns raw markdown when apply_markdown is false', async () => {
    const { message } = await server.client('member').getMessage({ message_id: 101, apply_markdown: false });
    expect(message.content).toBe('Deploy of **v2.3** is done. See #42.');
    expect(message.content_type).toBe('text/x-markdown');
  });

  it('shows a topic move as last_moved_timestamp without last_edit_timestamp', async () => {
    const { message } = await server.client('member').getMessage({ message_id: 103 });
    expect(message).not.toHaveProperty('last_edit_timestamp');
    expect(message.last_moved_timestamp).toBeGreaterThan(message.timestamp);
    expect(message.edit_history).toEqual([{ user_id: USER.chen, timestamp: message.last_moved_timestamp, prev_topic: 'ci', topic: 'deploys' }]);
    // Dana was subscribed when Chen sent it, but has not read it.
    expect(message.flags).toEqual([]);
  });

  it('leaves out both timestamps for a message whose only topic changes resolved and unresolved it', async () => {
    const { message } = await server.client('member').getMessage({ message_id: resolved });
    expect(message).not.toHaveProperty('last_edit_timestamp');
    expect(message).not.toHaveProperty('last_moved_timestamp');
    expect(message.edit_history).toEqual([
      { user_id: USER.dana, timestamp: 1200, prev_topic: '✔ ci', topic: 'ci' },
      { user_id: USER.dana, timestamp: 1100, prev_topic: 'ci', topic: '✔ ci' },
    ]);
  });

  it('reports a move to another channel with prev_stream and stream, and the empty topic by its display name', async () => {
    const { message } = await server.client('member').getMessage({ message_id: movedChannel });
    expect(message).toMatchObject({ stream_id: CHANNEL.general, display_recipient: 'general', subject: 'general chat', last_moved_timestamp: 2100 });
    expect(message.edit_history).toEqual([
      { user_id: USER.chen, timestamp: 2100, prev_stream: CHANNEL.engineering, stream: CHANNEL.general, prev_topic: 'misc', topic: 'general chat' },
    ]);
    expect(message.flags).toEqual(['read', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
    const raw = await server.client('member').getMessage({ message_id: movedChannel, allow_empty_topic_name: true });
    expect(raw.message.subject).toBe('');
    expect(raw.message.edit_history![0]!.topic).toBe('');
  });

  it('leaves out edit fields for a message never edited or moved', async () => {
    const { message } = await server.client('member').getMessage({ message_id: 102 });
    for (const field of ['last_edit_timestamp', 'last_moved_timestamp', 'edit_history']) expect(message).not.toHaveProperty(field);
    expect(message.reactions).toEqual([]);
  });

  it('shows the empty topic as the display name unless allow_empty_topic_name', async () => {
    const client = server.client('guest');
    expect((await client.getMessage({ message_id: 104 })).message.subject).toBe('general chat');
    expect((await client.getMessage({ message_id: 104, allow_empty_topic_name: true })).message.subject).toBe('');
  });

  it('returns a direct message with its participants and no stream_id', async () => {
    const { message } = await server.client('member').getMessage({ message_id: 105 });
    expect(message).toMatchObject({
      type: 'private',
      subject: '',
      topic_links: [],
      display_recipient: [
        { id: USER.ben, email: 'admin@example.com', full_name: 'Ben Alvarez', is_mirror_dummy: false },
        { id: USER.dana, email: 'member@example.com', full_name: 'Dana Kim', is_mirror_dummy: false },
      ],
    });
    expect(message).not.toHaveProperty('stream_id');
    // The subject stays empty even for clients without empty-topic support.
    expect((await server.client('admin').getMessage({ message_id: 105, allow_empty_topic_name: false })).message.subject).toBe('');
  });

  it('answers a direct message of others, and a missing message, identically', async () => {
    for (const who of ['owner', 'moderator', 'guest'] as const) await invalid(server.client(who).getMessage({ message_id: 105 }));
    await invalid(server.client('member').getMessage({ message_id: 999_999 }));
  });

  it('hides channels a guest is not subscribed to', async () => {
    await invalid(server.client('guest').getMessage({ message_id: 101 }));
  });

  it('hides a private channel from non-subscribers, administrators included', async () => {
    for (const who of ['admin', 'member', 'guest'] as const) await invalid(server.client(who).getMessage({ message_id: inDesign }));
    const { message } = await server.client('moderator').getMessage({ message_id: inDesign });
    expect(message).toMatchObject({ display_recipient: 'design', flags: [] });
  });

  it('shows a web-public message to a non-subscriber as read and historical', async () => {
    const id = await insertMessage(server.db, { senderId: USER.ben, to: { channelId: CHANNEL.announcements, topic: 'news' }, content: 'Hi', renderedContent: '<p>Hi</p>' });
    expect((await server.client('bot').getMessage({ message_id: id })).message.flags).toEqual(['read', 'historical']);
    expect((await server.client('guest').getMessage({ message_id: id })).message.flags).toEqual([]);
  });

  it('links linkifier matches and URLs in the topic', async () => {
    const id = await insertMessage(server.db, {
      senderId: USER.dana,
      to: { channelId: CHANNEL.engineering, topic: 'bug #77 see https://example.com/x' },
      content: 'x',
      renderedContent: '<p>x</p>',
    });
    const { message } = await server.client('member').getMessage({ message_id: id });
    expect(message.topic_links).toEqual([
      { text: '#77', url: 'https://github.com/lakeside/app/issues/77' },
      { text: 'https://example.com/x', url: 'https://example.com/x' },
    ]);
  });

  it('leaves out edit_history when the organization disallows it, keeping the timestamps', async () => {
    await server.db.query('UPDATE realm SET allow_edit_history = false');
    try {
      const { message } = await server.client('member').getMessage({ message_id: 101 });
      expect(message).not.toHaveProperty('edit_history');
      expect(message.last_edit_timestamp).toBeGreaterThan(message.timestamp);
    } finally {
      await server.db.query('UPDATE realm SET allow_edit_history = true');
    }
  });
});
