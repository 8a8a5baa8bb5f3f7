import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../generated/client.js';
import { insertMessage } from '../../server/store/messages.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const failure = (promise: Promise<unknown>): Promise<ApiError> =>
  promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: unknown) => {
      if (!isApiError(error)) throw error;
      return error;
    },
  );

interface Posted {
  id: number;
  sender_id: number;
  topic: string;
  content: string;
  rendered_content: string;
  sent_at: number;
}

describe.each(drivers)('report-message on %s', (driver) => {
  let server: TestServer;
  let designMessageId: number;
  const lastReport = async () =>
    (await server.db.query<Posted>('SELECT * FROM messages WHERE channel_id = 5 ORDER BY id DESC LIMIT 1')).rows[0];
  const reportCount = async () => (await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM messages WHERE channel_id = 5')).rows[0]!.n;

  beforeAll(async () => {
    server = await startTestServer(driver);
    designMessageId = await server.db.transaction((tx) =>
      insertMessage(tx, { senderId: 2, to: { channelId: 3, topic: 'mockups' }, content: 'secret', renderedContent: '<p>secret</p>' }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('posts the report into the moderation channel as the notification bot', async () => {
    server.setNow(2_000_000_000);
    await server.client('member').reportMessage({ message_id: 102, report_type: 'spam' });
    const posted = (await lastReport())!;
    expect(posted).toMatchObject({ sender_id: 1, topic: 'Reports: Ben Alvarez', sent_at: 2_000_000_000 });
    expect(posted.content).toContain('Dana Kim (user 5) reported [this message](');
    expect(posted.content).toContain('/#narrow/channel/2-engineering/topic/deploys/near/102');
    expect(posted.content).toContain('sent by Ben Alvarez (user 3)');
    expect(posted.content).toContain('Reason: **Spam**');
    expect(posted.rendered_content).toContain('<a href="/#narrow/channel/2-engineering/topic/deploys/near/102">this message</a>');
    // The moderators get it unread; the bot's own copy is read.
    const { rows } = await server.db.query<{ user_id: number; read: boolean }>(
      `SELECT user_id, 'read' = ANY (flags) AS read FROM user_messages WHERE message_id = $1 ORDER BY user_id`,
      [posted.id],
    );
    expect(rows).toEqual([
      { user_id: 1, read: true },
      { user_id: 2, read: false },
      { user_id: 3, read: false },
      { user_id: 4, read: false },
    ]);
  });

  it('needs a description for type other, and shows it quoted', async () => {
    for (const description of [undefined, '', '   ']) {
      const error = await failure(server.client('member').reportMessage({ message_id: 102, report_type: 'other', ...(description !== undefined && { description }) }));
      expect([error.code, error.msg]).toEqual(['BAD_REQUEST', 'A description is required for reports of type other']);
    }
    await server.client('member').reportMessage({ message_id: 102, report_type: 'other', description: 'Shares a **customer**\nsecond line' });
    const posted = (await lastReport())!;
    expect(posted.content).toContain('Reason: **Other reason**');
    expect(posted.content).toContain('> Shares a **customer**\n> second line');
    expect(posted.rendered_content).toContain('<blockquote>');
  });

  it('limits the description to 1000 code points', async () => {
    await server.client('member').reportMessage({ message_id: 102, report_type: 'norms', description: '😀'.repeat(1000) });
    expect((await lastReport())!.content).toContain('😀'.repeat(1000));
    const error = await failure(server.client('member').reportMessage({ message_id: 102, report_type: 'norms', description: 'x'.repeat(1001) }));
    expect(error.code).toBe('BAD_REQUEST');
  });

  it('refuses a report type the organization does not offer', async () => {
    const before = await reportCount();
    const error = await failure(server.client('member').reportMessage({ message_id: 102, report_type: 'rude' }));
    expect([error.code, error.msg]).toEqual(['BAD_REQUEST', 'Invalid report type: rude']);
    expect(await reportCount()).toBe(before);
  });

  it('refuses a missing or invisible message with Invalid message(s)', async () => {
    const before = await reportCount();
    const cases: [Who, number][] = [['member', 99_999], ['member', 99_999_999_999], ['guest', 101], ['member', designMessageId], ['guest', 105]];
    for (const [who, messageId] of cases) {
      const error = await failure(server.client(who).reportMessage({ message_id: messageId, report_type: 'spam' }));
      expect([error.code, error.msg]).toEqual(['BAD_REQUEST', 'Invalid message(s)']);
    }
    expect(await reportCount()).toBe(before);
  });

  it('lets every role report a message it can read', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      const before = await reportCount();
      await server.client(who).reportMessage({ message_id: 104, report_type: 'harassment' });
      expect(await reportCount()).toBe(before + 1);
      expect((await lastReport())!.content).toContain('/#narrow/channel/1-general/topic//near/104');
    }
  });

  it('posts to the empty topic of a moderation channel that takes only that topic', async () => {
    await server.db.query(`UPDATE channels SET topics_policy = 'empty_topic_only' WHERE id = 5`);
    try {
      await server.client('member').reportMessage({ message_id: 105, report_type: 'spam' });
      const posted = (await lastReport())!;
      expect(posted.topic).toBe('');
      expect(posted.content).toContain('/#narrow/dm/3,5/near/105');
    } finally {
      await server.db.query(`UPDATE channels SET topics_policy = 'inherit' WHERE id = 5`);
    }
  });

  it('fails when no moderation request channel is configured', async () => {
    await server.db.query('UPDATE realm SET moderation_request_channel_id = NULL');
    try {
      const before = await reportCount();
      const error = await failure(server.client('member').reportMessage({ message_id: 102, report_type: 'spam' }));
      expect([error.code, error.msg]).toEqual(['BAD_REQUEST', 'Message reporting is not enabled in this organization']);
      expect(await reportCount()).toBe(before);
    } finally {
      await server.db.query('UPDATE realm SET moderation_request_channel_id = 5');
    }
  });
});
