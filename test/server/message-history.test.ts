import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../generated/client.js';
import { htmlDiff } from '../../server/domain/messages.js';
import { CHANNEL, USER } from '../../server/seed/demo-data.js';
import { applyMessageEdit, insertMessage } from '../../server/store/messages.js';
import { drivers, startTestServer, type TestServer } from '../support/server.js';

describe('htmlDiff', () => {
  it('keeps the nesting when a change opens or closes a tag without the other', () => {
    expect(htmlDiff('<p>a b c</p>', '<p>a <em>b</em> c d</p>')).toBe('<p>a <em>b</em> c<ins> d</ins></p>');
    expect(htmlDiff('<p>x <em>old words</em></p>', '<p>x new</p>')).toBe('<p>x <del><em>old words</em></del><ins>new</ins></p>');
  });

  it('marks inserted and deleted words without splitting tags', () => {
    expect(htmlDiff('<p>Deploy of <strong>v2.3</strong> is done.</p>', '<p>Deploy of <strong>v2.4</strong> is done. See <a href="x">#1</a>.</p>')).toBe(
      '<p>Deploy of <strong><del>v2.3</del><ins>v2.4</ins></strong> is done.<ins> See <a href="x">#1</a>.</ins></p>',
    );
  });
});

describe.each(drivers)('get-message-history on %s', (driver) => {
  let server: TestServer;
  let multi: number;
  beforeAll(async () => {
    server = await startTestServer(driver);
    // Sent in the empty topic, then content edited, then moved to another channel and topic.
    multi = await insertMessage(server.db, { senderId: USER.dana, to: { channelId: CHANNEL.engineering, topic: '' }, content: 'one', renderedContent: '<p>one</p>', sentAt: 1000 });
    await applyMessageEdit(server.db, multi, { userId: USER.dana, at: 1100, content: { content: 'one two', renderedContent: '<p>one two</p>' } });
    await applyMessageEdit(server.db, multi, { userId: USER.ben, at: 1200, channelId: CHANNEL.general, topic: 'later' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const invalid = (promise: Promise<unknown>, msg = 'Invalid message(s)') =>
    promise.then(
      () => expect.unreachable('expected an error'),
      (error: unknown) => {
        expect(isApiError(error, 'BAD_REQUEST')).toBe(true);
        expect((error as { msg: string }).msg).toBe(msg);
      },
    );

  it('gives a content edit with prev_content and an HTML diff', async () => {
    const { message_history } = await server.client('member').getMessageHistory({ message_id: 101 });
    expect(message_history).toHaveLength(2);
    expect(Object.keys(message_history[0]!).sort()).toEqual(['content', 'rendered_content', 'timestamp', 'topic', 'user_id']);
    expect(message_history[0]).toMatchObject({ topic: 'deploys', content: 'Deploy of v2.3 is done.', rendered_content: '<p>Deploy of v2.3 is done.</p>', user_id: USER.dana });
    expect(message_history[1]).toMatchObject({
      topic: 'deploys',
      content: 'Deploy of **v2.3** is done. See #42.',
      user_id: USER.dana,
      prev_content: 'Deploy of v2.3 is done.',
      prev_rendered_content: '<p>Deploy of v2.3 is done.</p>',
      content_html_diff:
        '<p>Deploy of <strong>v2.3</strong> is done.<ins> See <a href="https://github.com/lakeside/app/issues/42">#42</a>.</ins></p>',
    });
    expect(message_history[1]).not.toHaveProperty('prev_topic');
    expect(message_history[1]!.timestamp).toBeGreaterThan(message_history[0]!.timestamp);
  });

  it('gives a topic move with prev_topic only', async () => {
    const { message_history } = await server.client('moderator').getMessageHistory({ message_id: 103 });
    expect(message_history.map((snapshot) => snapshot.topic)).toEqual(['ci', 'deploys']);
    expect(Object.keys(message_history[1]!).sort()).toEqual(['content', 'prev_topic', 'rendered_content', 'timestamp', 'topic', 'user_id']);
    expect(message_history[1]!.prev_topic).toBe('ci');
  });

  it('has a single snapshot for a message never edited, and for direct messages', async () => {
    const { message_history } = await server.client('member').getMessageHistory({ message_id: 102 });
    expect(message_history).toEqual([
      expect.objectContaining({ topic: 'deploys', content: 'Thanks! Rolling back the cache change.', user_id: USER.ben }),
    ]);
    const direct = await server.client('admin').getMessageHistory({ message_id: 105, allow_empty_topic_name: true });
    expect(direct.message_history).toHaveLength(1);
    expect(direct.message_history[0]!.topic).toBe('');
  });

  it('replays several edits oldest first, naming channel changes and the empty topic', async () => {
    const { message_history } = await server.client('member').getMessageHistory({ message_id: multi });
    expect(message_history).toEqual([
      { topic: 'general chat', content: 'one', rendered_content: '<p>one</p>', timestamp: 1000, user_id: USER.dana },
      {
        topic: 'general chat',
        content: 'one two',
        rendered_content: '<p>one two</p>',
        timestamp: 1100,
        user_id: USER.dana,
        prev_content: 'one',
        prev_rendered_content: '<p>one</p>',
        content_html_diff: '<p>one<ins> two</ins></p>',
      },
      {
        topic: 'later',
        content: 'one two',
        rendered_content: '<p>one two</p>',
        timestamp: 1200,
        user_id: USER.ben,
        prev_topic: 'general chat',
        prev_stream: CHANNEL.engineering,
        stream: CHANNEL.general,
      },
    ]);
    const raw = await server.client('member').getMessageHistory({ message_id: multi, allow_empty_topic_name: true });
    expect(raw.message_history.map((snapshot) => [snapshot.topic, snapshot.prev_topic])).toEqual([
      ['', undefined],
      ['', undefined],
      ['later', ''],
    ]);
  });

  it('answers invisible and missing messages identically', async () => {
    await invalid(server.client('guest').getMessageHistory({ message_id: 101 }));
    await invalid(server.client('moderator').getMessageHistory({ message_id: 105 }));
    await invalid(server.client('member').getMessageHistory({ message_id: 999_999 }));
    const inDesign = await insertMessage(server.db, { senderId: USER.ada, to: { channelId: CHANNEL.design, topic: 'x' }, content: 'x', renderedContent: '<p>x</p>' });
    await invalid(server.client('admin').getMessageHistory({ message_id: inDesign }));
    expect((await server.client('owner').getMessageHistory({ message_id: inDesign })).message_history).toHaveLength(1);
  });

  it('refuses when the organization disallows edit history, but hides invisible messages first', async () => {
    await server.db.query('UPDATE realm SET allow_edit_history = false');
    try {
      await invalid(server.client('member').getMessageHistory({ message_id: 101 }), 'Message edit history is disabled in this organization');
      await invalid(server.client('guest').getMessageHistory({ message_id: 101 }));
    } finally {
      await server.db.query('UPDATE realm SET allow_edit_history = true');
    }
  });
});
