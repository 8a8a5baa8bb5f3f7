import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../generated/client.js';
import type { UpdateMessageFlagsForNarrowParams } from '../../generated/types.js';
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

const DANA = 5;

describe.each(drivers)('update-message-flags-for-narrow on %s', (driver) => {
  let server: TestServer;
  let designMessageId: number;

  const flagged = async (userId: number, flag: string) =>
    (
      await server.db.query<{ message_id: number }>(
        'SELECT message_id FROM user_messages WHERE user_id = $1 AND $2 = ANY (flags) ORDER BY message_id',
        [userId, flag],
      )
    ).rows.map((row) => row.message_id);
  const setFlags = async (userId: number, flags: string[]) =>
    server.db.query('UPDATE user_messages SET flags = $2 WHERE user_id = $1', [userId, flags]);
  const update = (who: Who, params: Partial<UpdateMessageFlagsForNarrowParams>) =>
    server.client(who).updateMessageFlagsForNarrow({ anchor: 'oldest', num_before: 0, num_after: 1000, narrow: [], op: 'add', flag: 'read', ...params });

  beforeAll(async () => {
    server = await startTestServer(driver);
    designMessageId = await server.db.transaction((tx) =>
      insertMessage(tx, { senderId: 2, to: { channelId: 3, topic: 'mockups' }, content: 'secret', renderedContent: '<p>secret</p>' }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    // Dana has copies of 101-105, all unread and unstarred.
    await setFlags(DANA, []);
  });

  it('marks a topic read (object form), counting only messages whose flag changed', async () => {
    await server.db.query(`UPDATE user_messages SET flags = '{read}' WHERE user_id = $1 AND message_id = 101`, [DANA]);
    const narrow = [
      { operator: 'channel', operand: 'engineering' },
      { operator: 'topic', operand: 'deploys' },
    ] as UpdateMessageFlagsForNarrowParams['narrow'];
    const result = await update('member', { narrow });
    expect(result).toEqual({
      result: 'success',
      msg: '',
      processed_count: 3,
      updated_count: 2,
      first_processed_id: 101,
      last_processed_id: 103,
      found_oldest: true,
      found_newest: true,
    });
    expect(await flagged(DANA, 'read')).toEqual([101, 102, 103]);
    // Again: the same range, nothing changes.
    expect(await update('member', { narrow })).toMatchObject({ processed_count: 3, updated_count: 0 });
    // With is:unread nothing is left to process.
    const unread = await update('member', { narrow: [...narrow, { operator: 'is', operand: 'unread', negated: false }] });
    expect(unread).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true, found_newest: true });
  });

  it('stars with the pair form, by sender ID or email and channel ID or name; removes only what is set', async () => {
    const added = await update('member', { narrow: [['sender', 5], ['channel', 2]], op: 'add', flag: 'starred', anchor: '101', num_before: 50, num_after: 50 });
    expect(added).toMatchObject({ processed_count: 1, updated_count: 1, first_processed_id: 101, last_processed_id: 101 });
    expect(added).not.toHaveProperty('ignored_because_not_subscribed_channels');
    expect(await flagged(DANA, 'starred')).toEqual([101]);
    const removed = await update('member', { narrow: [['sender', 'member@example.com'], ['stream', 'Engineering']], op: 'remove', flag: 'starred' });
    expect(removed).toMatchObject({ processed_count: 1, updated_count: 1 });
    expect(await flagged(DANA, 'starred')).toEqual([]);
    expect(await update('member', { narrow: [], op: 'remove', flag: 'starred' })).toMatchObject({ processed_count: 5, updated_count: 0 });
    expect(await update('member', { narrow: [], op: 'add', flag: 'collapsed' })).toMatchObject({ processed_count: 5, updated_count: 5 });
    expect(await flagged(DANA, 'collapsed')).toEqual([101, 102, 103, 104, 105]);
  });

  it('takes the range around an ID anchor, with or without the anchor', async () => {
    expect(await update('member', { anchor: '103', num_before: 1, num_after: 1 })).toMatchObject({
      processed_count: 3,
      first_processed_id: 102,
      last_processed_id: 104,
      found_oldest: false,
      found_newest: false,
    });
    expect(await flagged(DANA, 'read')).toEqual([102, 103, 104]);
    await setFlags(DANA, []);
    expect(await update('member', { anchor: '103', include_anchor: false, num_before: 1, num_after: 1 })).toMatchObject({ processed_count: 2, updated_count: 2 });
    expect(await flagged(DANA, 'read')).toEqual([102, 104]);
    // An anchor between messages, and one past every message.
    expect(await update('member', { anchor: '0', num_before: 5, num_after: 2, flag: 'starred' })).toMatchObject({
      first_processed_id: 101,
      last_processed_id: 102,
      found_oldest: true,
      found_newest: false,
    });
    expect(await update('member', { anchor: '99999999999999', num_before: 2, num_after: 5, flag: 'starred' })).toMatchObject({
      first_processed_id: 104,
      last_processed_id: 105,
      found_oldest: false,
      found_newest: true,
    });
  });

  it('resolves newest, oldest and first_unread', async () => {
    expect(await update('member', { anchor: 'newest', num_before: 1, num_after: 0, flag: 'starred' })).toMatchObject({
      processed_count: 2,
      first_processed_id: 104,
      last_processed_id: 105,
      found_oldest: false,
      found_newest: true,
    });
    expect(await update('member', { anchor: 'oldest', num_before: 0, num_after: 0, flag: 'collapsed' })).toMatchObject({
      processed_count: 1,
      first_processed_id: 101,
      found_oldest: true,
      found_newest: false,
    });
    await server.db.query(`UPDATE user_messages SET flags = '{read}' WHERE user_id = $1 AND message_id IN (101, 102)`, [DANA]);
    expect(await update('member', { anchor: 'first_unread', num_before: 0, num_after: 0 })).toMatchObject({ first_processed_id: 103, updated_count: 1 });
    // With nothing unread, first_unread is the newest message.
    await setFlags(DANA, ['read']);
    expect(await update('member', { anchor: 'first_unread', num_before: 0, num_after: 0, flag: 'starred' })).toMatchObject({
      first_processed_id: 105,
      last_processed_id: 105,
      found_newest: true,
    });
  });

  it('reads the empty topic under its display name, (no topic) and ""', async () => {
    for (const topic of ['general chat', '(no topic)', '']) {
      await setFlags(DANA, []);
      const result = await update('member', { narrow: [['channel', 'general'], ['topic', topic]] });
      expect(result).toMatchObject({ processed_count: 1, first_processed_id: 104 });
    }
  });

  it('filters direct messages, mentions, message IDs and negated terms', async () => {
    const range = async (narrow: UpdateMessageFlagsForNarrowParams['narrow']) => {
      const result = await update('member', { narrow, flag: 'starred' });
      await setFlags(DANA, []);
      return [result.first_processed_id, result.last_processed_id, result.processed_count];
    };
    expect(await range([['is', 'dm']])).toEqual([105, 105, 1]);
    expect(await range([['dm', 'admin@example.com']])).toEqual([105, 105, 1]);
    expect(await range([['dm', [3]]])).toEqual([105, 105, 1]);
    expect(await range([['dm', [4]]])).toEqual([null, null, 0]);
    expect(await range([['is', 'mentioned']])).toEqual([null, null, 0]);
    expect(await range([['id', 104]])).toEqual([104, 104, 1]);
    expect(await range([['id', '103']])).toEqual([103, 103, 1]);
    expect(await range([{ operator: 'is', operand: 'dm', negated: true }])).toEqual([101, 104, 4]);
    // A channel filter, negated, keeps direct messages.
    expect(await range([{ operator: 'channel', operand: 2, negated: true }])).toEqual([104, 105, 2]);
    await server.db.query(`UPDATE user_messages SET flags = '{starred}' WHERE user_id = $1 AND message_id = 102`, [DANA]);
    expect(await update('member', { narrow: [['is', 'starred']], flag: 'read' })).toMatchObject({ processed_count: 1, first_processed_id: 102 });
  });

  it('refuses flags it does not change, and unknown operators and operands', async () => {
    const cases: [Partial<UpdateMessageFlagsForNarrowParams>, string | RegExp][] = [
      [{ flag: 'pinned' }, 'Invalid flag: pinned'],
      [{ flag: 'mentioned' }, 'Flag not editable: mentioned'],
      [{ anchor: 'latest' }, /anchor/],
      [{ narrow: [['has', 'link']] as unknown as UpdateMessageFlagsForNarrowParams['narrow'] }, /narrow.*must be one of "channel"/],
      [{ narrow: [['channel', 'nowhere']] }, 'Invalid narrow operand: unknown channel nowhere'],
      [{ narrow: [['channel', 99]] }, 'Invalid narrow operand: unknown channel 99'],
      [{ narrow: [['sender', 'nobody@example.com']] }, 'Invalid narrow operand: unknown user nobody@example.com'],
      [{ narrow: [['sender', 4_000_000_000]] }, 'Invalid narrow operand: unknown user 4000000000'],
      [{ narrow: [['is', 'followed']] }, "Invalid narrow operand: unknown 'is' operand followed"],
      [{ narrow: [['topic', 5]] }, /topic takes a topic name/],
      [{ narrow: [['id', 'abc']] }, /id takes a message ID/],
    ];
    for (const [params, message] of cases) {
      const error = await failure(update('member', params));
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.msg).toMatch(message);
    }
    expect(await flagged(DANA, 'read')).toEqual([]);
  });

  it('removing read skips and lists channels the caller is not subscribed to', async () => {
    await setFlags(DANA, ['read']);
    await server.db.query('UPDATE subscriptions SET active = false WHERE user_id = $1 AND channel_id = 2', [DANA]);
    try {
      const result = await update('member', { op: 'remove', flag: 'read' });
      expect(result).toMatchObject({ processed_count: 5, updated_count: 2, ignored_because_not_subscribed_channels: [2] });
      expect(await flagged(DANA, 'read')).toEqual([101, 102, 103]);
      // Other flags and adding read are not affected.
      expect(await update('member', { op: 'add', flag: 'read' })).not.toHaveProperty('ignored_because_not_subscribed_channels');
      expect(await update('member', { op: 'remove', flag: 'read', narrow: [['channel', 'general']] })).toMatchObject({
        updated_count: 1,
        ignored_because_not_subscribed_channels: [],
      });
    } finally {
      await server.db.query('UPDATE subscriptions SET active = true WHERE user_id = $1 AND channel_id = 2', [DANA]);
    }
  });

  it('processes only messages the caller may read (guest, private channel left)', async () => {
    const ELI = 6;
    const CHEN = 4;
    // A stale copy in a public channel the guest is not subscribed to does not count.
    await server.db.query(`INSERT INTO user_messages (user_id, message_id) VALUES ($1, 101) ON CONFLICT DO NOTHING`, [ELI]);
    await setFlags(ELI, []);
    expect(await update('guest', { flag: 'starred' })).toMatchObject({ processed_count: 1, first_processed_id: 104 });
    expect(await flagged(ELI, 'starred')).toEqual([104]);

    await setFlags(CHEN, []);
    const withDesign = await update('moderator', { flag: 'starred', narrow: [['channel', 'design']] });
    expect(withDesign).toMatchObject({ processed_count: 1, first_processed_id: designMessageId });
    await server.db.query('UPDATE subscriptions SET active = false WHERE user_id = $1 AND channel_id = 3', [CHEN]);
    try {
      expect(await update('moderator', { flag: 'starred', op: 'remove', narrow: [['channel', 'design']] })).toMatchObject({ processed_count: 0 });
      expect(await flagged(CHEN, 'starred')).toContain(designMessageId);
    } finally {
      await server.db.query('UPDATE subscriptions SET active = true WHERE user_id = $1 AND channel_id = 3', [CHEN]);
    }
    // Members never see the private channel's message.
    expect(await update('member', { flag: 'starred', narrow: [['channel', 3]] })).toMatchObject({ processed_count: 0 });
  });

  it('lowers num_before and num_after to 5000 each', async () => {
    const { rows } = await server.db.query<{ id: number }>(
      `INSERT INTO messages (sender_id, type, recipient_id, channel_id, topic, content, rendered_content, sent_at)
       SELECT 3, 'stream', r.id, 1, 'bulk', 'x', '<p>x</p>', 0 FROM recipients r, generate_series(1, 5002) WHERE r.channel_id = 1
       RETURNING id`,
    );
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    await server.db.query('INSERT INTO user_messages (user_id, message_id) SELECT $1, unnest($2::integer[])', [DANA, ids]);
    try {
      const narrow: UpdateMessageFlagsForNarrowParams['narrow'] = [['topic', 'bulk']];
      expect(await update('member', { narrow, anchor: 'oldest', num_after: 1_000_000 })).toMatchObject({
        processed_count: 5001,
        updated_count: 5001,
        first_processed_id: ids[0],
        last_processed_id: ids[5000],
        found_newest: false,
      });
      expect(await update('member', { narrow, anchor: 'newest', num_before: 1_000_000, num_after: 0, op: 'remove' })).toMatchObject({
        processed_count: 5001,
        first_processed_id: ids[1],
        found_oldest: false,
      });
    } finally {
      await server.db.query('DELETE FROM messages WHERE id = ANY ($1::integer[])', [ids]);
    }
  });

  it('works for every role on its own messages', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      const result = await update(who, { flag: 'starred', narrow: [['channel', 'general']] });
      expect(result.processed_count).toBe(1);
      expect(result.first_processed_id).toBe(104);
    }
  });
});
