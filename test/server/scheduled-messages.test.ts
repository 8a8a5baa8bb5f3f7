import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../generated/client.js';
import type { UpdateScheduledMessageParams } from '../../generated/types.js';
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

interface Scheduled {
  type: string;
  channel_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_at: number;
  failed: boolean;
  failure_message: string | null;
  members: number[] | null;
}

const NOW = 2_000_000_000;
const ORIGINAL_AT = NOW + 86_400;

describe.each(drivers)('update-scheduled-message on %s', (driver) => {
  let server: TestServer;
  const scheduled = async (id = 21) =>
    (
      await server.db.query<Scheduled>(
        `SELECT s.*, (SELECT array_agg(user_id ORDER BY user_id) FROM recipient_members WHERE recipient_id = s.recipient_id) AS members
         FROM scheduled_messages s WHERE s.id = $1`,
        [id],
      )
    ).rows[0]!;
  const edit = (params: Omit<UpdateScheduledMessageParams, 'scheduled_message_id'>, who: Who = 'member', id = 21) =>
    server.client(who).updateScheduledMessage({ scheduled_message_id: id, ...params });
  const refused = async (params: Omit<UpdateScheduledMessageParams, 'scheduled_message_id'>, code: string, msg: string, who: Who = 'member', id = 21) => {
    const before = await scheduled();
    const error = await failure(edit(params, who, id));
    expect([error.code, error.msg]).toEqual([code, msg]);
    expect(await scheduled()).toEqual(before);
    return error;
  };

  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    server.setNow(NOW);
    await server.db.query(
      `UPDATE scheduled_messages SET type = 'stream', channel_id = 2, recipient_id = (SELECT id FROM recipients WHERE channel_id = 2),
         topic = 'deploys', content = 'Deploy freeze starts tomorrow at 18:00 UTC.',
         rendered_content = '<p>Deploy freeze starts tomorrow at 18:00 UTC.</p>', scheduled_at = $1, failed = false,
         failure_message = NULL, delivered = false WHERE id = 21`,
      [ORIGINAL_AT],
    );
    await server.db.query(`UPDATE channels SET topics_policy = 'inherit' WHERE id = 2`);
  });

  it('changes content (rendered again) and delivery time, leaving the rest', async () => {
    await edit({ content: 'Deploy of **v2.4** starts in 10 minutes. See #42.', scheduled_delivery_timestamp: NOW + 600 });
    expect(await scheduled()).toMatchObject({
      type: 'stream',
      channel_id: 2,
      topic: 'deploys',
      content: 'Deploy of **v2.4** starts in 10 minutes. See #42.',
      rendered_content: '<p>Deploy of <strong>v2.4</strong> starts in 10 minutes. See <a href="https://github.com/lakeside/app/issues/42">#42</a>.</p>',
      scheduled_at: NOW + 600,
    });
  });

  it('turns a channel message into a direct message and back', async () => {
    await edit({ type: 'direct', to: [3] });
    expect(await scheduled()).toMatchObject({ type: 'private', channel_id: null, topic: '', members: [3, 5] });
    await edit({ type: 'private', to: 4 });
    expect(await scheduled()).toMatchObject({ type: 'private', members: [4, 5] });
    await edit({ to: [3, 4] });
    expect(await scheduled()).toMatchObject({ type: 'private', members: [3, 4, 5] });
    // A topic is ignored for direct messages.
    await edit({ topic: 'ignored' });
    expect((await scheduled()).topic).toBe('');
    await refused({ type: 'channel', to: 1 }, 'BAD_REQUEST', 'Topic required when updating scheduled message type to channel');
    await edit({ type: 'stream', to: 1, topic: 'lunch' });
    expect(await scheduled()).toMatchObject({ type: 'stream', channel_id: 1, topic: 'lunch', members: null });
  });

  it('moves a channel message to another channel, keeping its topic; the same type needs no to', async () => {
    await edit({ to: 1 });
    expect(await scheduled()).toMatchObject({ channel_id: 1, topic: 'deploys' });
    await edit({ type: 'channel', topic: 'other' });
    expect(await scheduled()).toMatchObject({ channel_id: 1, topic: 'other' });
  });

  it('requires to when the type changes', async () => {
    await refused({ type: 'direct' }, 'BAD_REQUEST', 'Recipient required when updating type of scheduled message');
  });

  it('reads (no topic) and the display name as the empty topic', async () => {
    for (const topic of ['(no topic)', 'general chat', '', '  ']) {
      await edit({ topic: 'named' });
      await edit({ topic });
      expect((await scheduled()).topic).toBe('');
    }
  });

  it('enforces the topic length and the channel topics policy', async () => {
    await edit({ topic: 'x'.repeat(60) });
    await refused({ topic: 'x'.repeat(61) }, 'BAD_REQUEST', 'Topic is too long (at most 60 characters)');
    await server.db.query(`UPDATE channels SET topics_policy = 'disable_empty_topic' WHERE id = 2`);
    await refused({ topic: '(no topic)' }, 'BAD_REQUEST', 'Sending messages to the general chat topic is not allowed in this channel');
    await refused({ topic: 'general chat' }, 'BAD_REQUEST', 'Sending messages to the general chat topic is not allowed in this channel');
    await server.db.query(`UPDATE channels SET topics_policy = 'empty_topic_only' WHERE id = 2`);
    await refused({ topic: 'named' }, 'BAD_REQUEST', 'Only the general chat topic is allowed in this channel');
    await edit({ topic: '' });
    expect((await scheduled()).topic).toBe('');
    // Moving a named topic into such a channel is refused too.
    await server.db.query(`UPDATE scheduled_messages SET channel_id = 1, recipient_id = (SELECT id FROM recipients WHERE channel_id = 1), topic = 'named' WHERE id = 21`);
    await refused({ to: 2 }, 'BAD_REQUEST', 'Only the general chat topic is allowed in this channel');
  });

  it('answers STREAM_DOES_NOT_EXIST for a missing or inaccessible channel', async () => {
    const missing = await refused({ to: 99 }, 'STREAM_DOES_NOT_EXIST', 'Channel with ID 99 does not exist');
    expect(missing.body).toMatchObject({ stream_id: 99 });
    const hidden = await refused({ to: 3 }, 'STREAM_DOES_NOT_EXIST', 'Channel with ID 3 does not exist');
    expect(hidden.body).toMatchObject({ stream_id: 3 });
    await refused({ type: 'stream', to: [1, 2] }, 'BAD_REQUEST', "A channel message needs exactly one channel ID in 'to'");
  });

  it('refuses invalid direct-message recipients', async () => {
    await refused({ type: 'direct', to: [3, 42] }, 'BAD_REQUEST', 'Invalid user ID 42');
    await refused({ type: 'direct', to: [] }, 'BAD_REQUEST', 'Message must have recipients');
  });

  it('checks content and delivery time', async () => {
    await refused({ content: 'x'.repeat(10_001) }, 'BAD_REQUEST', 'Message is too long (at most 10000 characters)');
    await refused({ content: '  ' }, 'BAD_REQUEST', 'Message must not be empty');
    await refused({ scheduled_delivery_timestamp: NOW }, 'BAD_REQUEST', 'Scheduled delivery time must be in the future');
    await refused({ scheduled_delivery_timestamp: NOW - 10 }, 'BAD_REQUEST', 'Scheduled delivery time must be in the future');
  });

  it('edits only the caller’s own unsent scheduled message', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'guest', 'bot'] as const) {
      await refused({ content: 'hijack' }, 'BAD_REQUEST', 'Scheduled message does not exist', who);
    }
    await refused({ content: 'x' }, 'BAD_REQUEST', 'Scheduled message does not exist', 'member', 9999);
    await refused({ content: 'x' }, 'BAD_REQUEST', 'Scheduled message does not exist', 'member', 99_999_999_999);
    await server.db.query('UPDATE scheduled_messages SET delivered = true WHERE id = 21');
    await refused({ content: 'x' }, 'BAD_REQUEST', 'Scheduled message does not exist');
  });

  it('a failed message needs a new time, and is no longer failed after the edit', async () => {
    await server.db.query(`UPDATE scheduled_messages SET failed = true, failure_message = 'Channel archived' WHERE id = 21`);
    await refused({ content: 'retry' }, 'BAD_REQUEST', 'A new scheduled_delivery_timestamp is required to edit a failed scheduled message');
    await edit({ content: 'retry', scheduled_delivery_timestamp: NOW + 60 });
    expect(await scheduled()).toMatchObject({ failed: false, failure_message: null, content: 'retry', scheduled_at: NOW + 60 });
  });
});
