import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../generated/client.js';
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

describe.each(drivers)('mark-topic-as-read on %s', (driver) => {
  let server: TestServer;
  const read = async (userId: number) =>
    (
      await server.db.query<{ message_id: number }>(`SELECT message_id FROM user_messages WHERE user_id = $1 AND 'read' = ANY (flags) ORDER BY message_id`, [userId])
    ).rows.map((row) => row.message_id);

  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.query(`UPDATE user_messages SET flags = '{}'`);
  });

  it("marks the caller's messages of the topic read, and only those", async () => {
    await server.client('member').markTopicAsRead({ stream_id: 2, topic_name: 'deploys' });
    expect(await read(5)).toEqual([101, 102, 103]);
    expect(await read(3)).toEqual([]);
  });

  it('compares topics case-insensitively', async () => {
    await server.client('admin').markTopicAsRead({ stream_id: 2, topic_name: 'DEPLOYS' });
    expect(await read(3)).toEqual([101, 102, 103]);
  });

  it('reads the empty topic as "" or by its display name', async () => {
    for (const topic of ['', 'general chat']) {
      await server.db.query(`UPDATE user_messages SET flags = '{}'`);
      await server.client('member').markTopicAsRead({ stream_id: 1, topic_name: topic });
      expect(await read(5)).toEqual([104]);
    }
  });

  it('accepts a topic without messages', async () => {
    await expect(server.client('member').markTopicAsRead({ stream_id: 2, topic_name: 'nothing here' })).resolves.toMatchObject({ result: 'success' });
    expect(await read(5)).toEqual([]);
  });

  it('works for every role in a channel it can read', async () => {
    const cases: [Who, number][] = [['owner', 2], ['admin', 3], ['moderator', 4], ['member', 5], ['guest', 6], ['bot', 7]];
    for (const [who, userId] of cases) {
      await server.client(who).markTopicAsRead({ stream_id: 1, topic_name: '' });
      expect(await read(userId)).toContain(104);
    }
  });

  it('refuses an unknown or inaccessible channel with Invalid channel ID', async () => {
    const cases: [Who, number][] = [
      ['member', 999],
      ['member', 99_999_999_999],
      ['guest', 2], // public, guest not subscribed
      ['member', 3], // private, not subscribed
    ];
    for (const [who, streamId] of cases) {
      const error = await failure(server.client(who).markTopicAsRead({ stream_id: streamId, topic_name: 'deploys' }));
      expect([error.code, error.msg]).toEqual(['BAD_REQUEST', 'Invalid channel ID']);
    }
    // A guest may read a web-public channel.
    await expect(server.client('guest').markTopicAsRead({ stream_id: 4, topic_name: 'news' })).resolves.toMatchObject({ result: 'success' });
  });
});
