import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../generated/client.js';
import { addReaction, insertMessage } from '../../server/store/messages.js';
import type { ReactionType } from '../../server/store/rows.js';
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

const TADA = { emojiName: 'tada', emojiCode: '1f389', reactionType: 'unicode_emoji' as ReactionType };
const OCTOPUS = { emojiName: 'octopus_ship', emojiCode: '1', reactionType: 'realm_emoji' as ReactionType };
const ZULIP = { emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'zulip_extra_emoji' as ReactionType };
const USER_IDS: Record<Who, number> = { owner: 2, admin: 3, moderator: 4, member: 5, guest: 6, bot: 7 };

describe.each(drivers)('remove-reaction on %s', (driver) => {
  let server: TestServer;
  let designMessageId: number;
  const reactions = async (messageId: number) =>
    (
      await server.db.query<{ user_id: number; emoji_code: string; reaction_type: string }>(
        'SELECT user_id, emoji_code, reaction_type FROM reactions WHERE message_id = $1 ORDER BY id',
        [messageId],
      )
    ).rows.map((row) => `${row.user_id}:${row.reaction_type}:${row.emoji_code}`);
  const react = (messageId: number, userId: number, emoji: typeof TADA) => addReaction(server.db, { messageId, userId, ...emoji });

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
    await server.db.query('DELETE FROM reactions');
    await react(101, 3, TADA);
    await react(101, 4, TADA);
  });

  it('removes the caller’s reaction named by name, by code and type, or by code alone', async () => {
    await server.client('admin').removeReaction({ message_id: 101, emoji_name: 'tada' });
    expect(await reactions(101)).toEqual(['4:unicode_emoji:1f389']);
    await server.client('moderator').removeReaction({ message_id: 101, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' });
    expect(await reactions(101)).toEqual([]);
    await react(101, 3, TADA);
    await server.client('admin').removeReaction({ message_id: 101, emoji_code: '1f389' });
    expect(await reactions(101)).toEqual([]);
  });

  it('uses the code when the name no longer matches it', async () => {
    await server.client('admin').removeReaction({ message_id: 101, emoji_name: 'party_old_name', emoji_code: '1f389', reaction_type: 'unicode_emoji' });
    expect(await reactions(101)).toEqual(['4:unicode_emoji:1f389']);
  });

  it('infers realm_emoji for a custom emoji name and zulip_extra_emoji for zulip', async () => {
    await react(101, 5, OCTOPUS);
    await react(101, 5, ZULIP);
    await server.client('member').removeReaction({ message_id: 101, emoji_name: 'octopus_ship' });
    expect(await reactions(101)).toEqual(['3:unicode_emoji:1f389', '4:unicode_emoji:1f389', '5:zulip_extra_emoji:zulip']);
    await server.client('member').removeReaction({ message_id: 101, emoji_name: 'zulip' });
    expect(await reactions(101)).toEqual(['3:unicode_emoji:1f389', '4:unicode_emoji:1f389']);
  });

  it('answers REACTION_DOES_NOT_EXIST when the caller has no such reaction', async () => {
    for (const params of [{ emoji_name: 'tada' }, { emoji_name: 'octopus_ship' }, { emoji_code: '1f600', reaction_type: 'unicode_emoji' as const }]) {
      const error = await failure(server.client('member').removeReaction({ message_id: 101, ...params }));
      expect([error.code, error.msg]).toEqual(['REACTION_DOES_NOT_EXIST', "Reaction doesn't exist"]);
    }
    expect(await reactions(101)).toHaveLength(2);
  });

  it('refuses an invalid emoji code, an unknown name, and a request naming no emoji', async () => {
    const cases: [Parameters<ReturnType<TestServer['client']>['removeReaction']>[0], string][] = [
      [{ message_id: 101, emoji_code: 'zzzz' }, 'Invalid emoji code'],
      [{ message_id: 101, emoji_code: '1f389', reaction_type: 'realm_emoji' }, 'Invalid emoji code'],
      [{ message_id: 101, emoji_code: '999', reaction_type: 'realm_emoji' }, 'Invalid emoji code'],
      [{ message_id: 101, emoji_code: 'tada', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji code'],
      [{ message_id: 101, emoji_name: 'not_an_emoji' }, "Emoji 'not_an_emoji' does not exist"],
      [{ message_id: 101 }, 'At least one of emoji_name and emoji_code is required'],
    ];
    for (const [params, message] of cases) {
      const error = await failure(server.client('admin').removeReaction(params));
      expect([error.code, error.msg]).toEqual(['BAD_REQUEST', message]);
    }
    expect(await reactions(101)).toHaveLength(2);
  });

  it('refuses a missing or invisible message with Invalid message(s)', async () => {
    await react(designMessageId, 5, TADA);
    const cases: [Who, number][] = [['member', 99_999], ['guest', 101], ['member', designMessageId], ['guest', 105]];
    for (const [who, messageId] of cases) {
      const error = await failure(server.client(who).removeReaction({ message_id: messageId, emoji_name: 'tada' }));
      expect([error.code, error.msg]).toEqual(['BAD_REQUEST', 'Invalid message(s)']);
    }
    expect(await reactions(designMessageId)).toEqual(['5:unicode_emoji:1f389']);
  });

  it('lets every role remove its own reaction on a message it can read', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      await react(104, USER_IDS[who], TADA);
      await server.client(who).removeReaction({ message_id: 104, emoji_name: 'tada' });
    }
    expect(await reactions(104)).toEqual([]);
  });
});
