/**
 * Concurrent writes through the real HTTP API on both databases: flags over
 * overlapping ranges from several users, the same reaction removed many
 * times at once, failed logins against the limit, and invitations sent at
 * the same time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../generated/client.js';
import type { UpdateMessageFlagsForNarrowParams, UpdateMessageFlagsForNarrowResponse } from '../../generated/types.js';
import { CHANNEL, USER } from '../../server/seed/demo-data.js';
import { updateFlagOverRange } from '../../server/domain/flags.js';
import { SqlParams } from '../../server/domain/narrow.js';
import { addReaction, insertMessage } from '../../server/store/messages.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const TOPIC = 'flags under load';
const MESSAGES = 30;
// Everyone here is subscribed to general, so each has a copy of every message.
const FLAGGERS: Who[] = ['owner', 'admin', 'moderator', 'member', 'bot'];

type Flag = 'starred' | 'read' | 'collapsed';
interface FlagRequest {
  who: Who;
  op: 'add' | 'remove';
  flag: Flag;
  /** Indexes into the topic's ids: the anchor and how many on each side. */
  at: number;
  before: number;
  after: number;
}

/** The request's range of the topic's ids, as the server must find it. */
function expectedRange(ids: number[], request: FlagRequest): number[] {
  return ids.slice(Math.max(0, request.at - request.before), request.at + request.after + 1);
}

describe.each(drivers)('concurrent writes on %s', (driver) => {
  let server: TestServer;
  let ids: number[];
  beforeAll(async () => {
    server = await startTestServer(driver);
    ids = await server.db.transaction(async (tx) => {
      const inserted: number[] = [];
      for (let i = 0; i < MESSAGES; i++) {
        inserted.push(
          await insertMessage(tx, { senderId: USER.ada, to: { channelId: CHANNEL.general, topic: TOPIC }, content: `m${i}`, renderedContent: `<p>m${i}</p>` }),
        );
      }
      return inserted;
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const userId = (who: Who) => server.logins[who].userId;
  const flagged = async (who: Who, flag: Flag): Promise<number[]> =>
    (
      await server.db.query<{ message_id: number }>(
        'SELECT message_id FROM user_messages WHERE user_id = $1 AND message_id = ANY ($2::integer[]) AND $3 = ANY (flags) ORDER BY message_id',
        [userId(who), ids, flag],
      )
    ).rows.map((row) => row.message_id);

  const send = (request: FlagRequest): Promise<UpdateMessageFlagsForNarrowResponse> =>
    server.client(request.who).updateMessageFlagsForNarrow({
      anchor: String(ids[request.at]),
      num_before: request.before,
      num_after: request.after,
      narrow: [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: TOPIC },
      ] as UpdateMessageFlagsForNarrowParams['narrow'],
      op: request.op,
      flag: request.flag,
    });

  /** Sends all at once; checks each answer's range against the request. */
  async function sendAll(requests: FlagRequest[]): Promise<UpdateMessageFlagsForNarrowResponse[]> {
    const results = await Promise.all(requests.map(send));
    requests.forEach((request, i) => {
      const range = expectedRange(ids, request);
      expect(results[i]).toMatchObject({ processed_count: range.length, first_processed_id: range[0], last_processed_id: range.at(-1) });
      expect(results[i]!.updated_count).toBeLessThanOrEqual(range.length);
    });
    return results;
  }

  const sumUpdated = (requests: FlagRequest[], results: UpdateMessageFlagsForNarrowResponse[], keep: (r: FlagRequest) => boolean) =>
    requests.reduce((sum, request, i) => sum + (keep(request) ? results[i]!.updated_count : 0), 0);

  it('adds flags on overlapping ranges from several users: no lost update, counts equal the transitions', async () => {
    await server.db.query(`UPDATE user_messages SET flags = '{}' WHERE message_id = ANY ($1::integer[])`, [ids]);
    // Per user: two overlapping starred ranges, and read and collapsed over ranges overlapping them, all at once on the same rows.
    const requests: FlagRequest[] = FLAGGERS.flatMap((who, u) => [
      { who, op: 'add', flag: 'starred', at: 5 + u, before: 5, after: 6 },
      { who, op: 'add', flag: 'starred', at: 12 + u, before: 4, after: 7 },
      { who, op: 'add', flag: 'read', at: 10, before: 10, after: 9 + u },
      { who, op: 'add', flag: 'collapsed', at: 8 + 2 * u, before: 3, after: 3 },
    ]);
    expect(requests).toHaveLength(20);
    const results = await sendAll(requests);
    for (const who of FLAGGERS) {
      for (const flag of ['starred', 'read', 'collapsed'] as const) {
        const mine = (r: FlagRequest) => r.who === who && r.flag === flag;
        const union = [...new Set(requests.filter(mine).flatMap((r) => expectedRange(ids, r)))].sort((a, b) => a - b);
        expect(await flagged(who, flag), `${who} ${flag}`).toEqual(union);
        // Every flag started absent, so each message of the union changed exactly once.
        expect(sumUpdated(requests, results, mine), `${who} ${flag}`).toBe(union.length);
      }
    }
  });

  it('adds and removes starred concurrently: the net of the counts is the net change, other flags untouched', async () => {
    const others = Object.fromEntries(await Promise.all(FLAGGERS.map(async (who) => [who, [await flagged(who, 'read'), await flagged(who, 'collapsed')]])));
    for (let round = 0; round < 3; round++) {
      const before = Object.fromEntries(await Promise.all(FLAGGERS.map(async (who) => [who, (await flagged(who, 'starred')).length])));
      const requests: FlagRequest[] = Array.from({ length: 20 }, (_, k) => ({
        who: FLAGGERS[k % FLAGGERS.length]!,
        op: (k + round) % 3 === 0 ? 'remove' : 'add',
        flag: 'starred',
        at: (7 * k + 11 * round) % MESSAGES,
        before: 2 + ((k * 5 + round) % 7),
        after: 2 + ((k * 3 + round) % 8),
      }));
      const results = await sendAll(requests);
      for (const who of FLAGGERS) {
        const added = sumUpdated(requests, results, (r) => r.who === who && r.op === 'add');
        const removed = sumUpdated(requests, results, (r) => r.who === who && r.op === 'remove');
        expect(added - removed, `${who} round ${round}`).toBe((await flagged(who, 'starred')).length - before[who]);
      }
    }
    for (const who of FLAGGERS) expect([await flagged(who, 'read'), await flagged(who, 'collapsed')]).toEqual(others[who]);
    const { rows } = await server.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM user_messages
       WHERE message_id = ANY ($1::integer[]) AND cardinality(flags) <> (SELECT count(DISTINCT f) FROM unnest(flags) AS f)`,
      [ids],
    );
    expect(rows[0]!.n).toBe(0);
  });


  it("one user's overlapping ranges on both sides of their anchors, set and cleared by many statements at once: no deadlock, counts equal the transitions", async () => {
    // A range is listed newest-first before its anchor and oldest-first
    // after it: rows written in that order, or in whatever order a plan
    // picks, by two such statements over the same rows could be locked in
    // opposite orders. Straight through the domain function, ten
    // connections at once, so the statements overlap far more than HTTP
    // requests do.
    const member = userId('member');
    const flags = ['starred', 'read'] as const;
    const count = async () =>
      Object.fromEntries(await Promise.all(flags.map(async (flag) => [flag, (await flagged('member', flag)).length] as const)));
    const before = await count();
    const net = { starred: 0, read: 0 };
    let seed = 17;
    const next = (n: number) => ((seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0), (seed >>> 8) % n);
    const requests = Array.from({ length: 400 }, () => ({
      at: next(MESSAGES),
      numBefore: next(MESSAGES),
      numAfter: next(MESSAGES),
      present: next(2) === 0,
      flag: flags[next(2)]!,
    }));
    const condition = 'm.channel_id = $3 AND lower(m.topic) = lower($4)';
    await Promise.all(
      Array.from({ length: 10 }, async (_, worker) => {
        for (let i = worker; i < requests.length; i += 10) {
          const r = requests[i]!;
          const result = await updateFlagOverRange(server.db, {
            condition,
            params: new SqlParams([member, false, CHANNEL.general, TOPIC]),
            anchor: { id: ids[r.at]! },
            includeAnchor: true,
            numBefore: r.numBefore,
            numAfter: r.numAfter,
            flag: r.flag,
            present: r.present,
            skipUnsubscribed: false,
          });
          expect(result.ids).toEqual(expectedRange(ids, { who: 'member', op: 'add', flag: r.flag, at: r.at, before: r.numBefore, after: r.numAfter }));
          net[r.flag] += r.present ? result.updatedCount : -result.updatedCount;
        }
      }),
    );
    const after = await count();
    for (const flag of flags) expect(net[flag], flag).toBe(after[flag]! - before[flag]!);
  });

  it('removes one reaction requested many times at once exactly once; other users keep theirs until they remove them', async () => {
    const message = ids[0]!;
    const octopus = { emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji' } as const;
    const reactors: Who[] = ['owner', 'member', 'guest'];
    for (let round = 0; round < 3; round++) {
      for (const who of reactors) await addReaction(server.db, { messageId: message, userId: userId(who), ...octopus });
      const removals = Array.from({ length: 10 }, () =>
        server
          .client('member')
          .removeReaction({ message_id: message, emoji_name: 'octopus' })
          .then(
            () => 'removed',
            (error: unknown) => (isApiError(error, 'REACTION_DOES_NOT_EXIST') ? 'missing' : Promise.reject(error)),
          ),
      );
      const outcomes = await Promise.all(removals);
      expect(outcomes.filter((o) => o === 'removed')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'missing')).toHaveLength(9);
      const reactedBy = async () =>
        (await server.db.query<{ user_id: number }>('SELECT user_id FROM reactions WHERE message_id = $1 AND emoji_code = $2 ORDER BY user_id', [message, '1f419'])).rows.map(
          (row) => row.user_id,
        );
      expect(await reactedBy()).toEqual([userId('owner'), userId('guest')]);
      // Different users removing their own reactions at once do not disturb each other.
      await Promise.all(['owner', 'guest'].map((who) => server.client(who as Who).removeReaction({ message_id: message, emoji_code: '1f419', reaction_type: 'unicode_emoji' })));
      expect(await reactedBy()).toEqual([]);
    }
  });

  it('checks at most the login limit of passwords when failed fetch_api_key attempts arrive all at once', async () => {
    server.setNow(2_000_000_000);
    try {
      const limit = server.config.loginFailureLimit;
      const attempts = Array.from({ length: limit + 15 }, (_, k) =>
        server
          .client('member')
          .fetchApiKey({ username: 'moderator@example.com', password: `guess ${k}` })
          .catch((error: unknown) => (isApiError(error) ? error.code : Promise.reject(error))),
      );
      const codes = await Promise.all(attempts);
      expect(codes.filter((code) => code === 'BAD_REQUEST')).toHaveLength(limit);
      expect(codes.filter((code) => code === 'RATE_LIMIT_HIT')).toHaveLength(15);
    } finally {
      server.setNow(Math.floor(Date.now() / 1000));
      await server.db.query('DELETE FROM failed_logins');
    }
  });

  describe('invitations', () => {
    const invitations = async (email: string) =>
      (
        await server.db.query<{ id: number; inviter_id: number; channels: number[] }>(
          `SELECT i.id, i.inviter_id, ARRAY(SELECT channel_id FROM invitation_channels c WHERE c.invitation_id = i.id ORDER BY channel_id) AS channels
           FROM invitations i WHERE lower(i.email) = lower($1) ORDER BY i.id`,
          [email],
        )
      ).rows;

    // A pending invitation does not stop another (inviting again is how a link is re-sent), so the
    // rule is: one invitation per successful request and address, whatever the overlap in time.
    it('stores exactly one invitation per request for the same address sent concurrently, each with its own channels', async () => {
      const inviters: Who[] = ['owner', 'admin', 'moderator', 'member'];
      const requests = Array.from({ length: 12 }, (_, k) => {
        const who = inviters[k % inviters.length]!;
        // The same address twice in one request, differently cased, is one invitation.
        return server.client(who).sendInvites({ invitee_emails: `same-${driver}@example.com, SAME-${driver}@Example.com`, stream_ids: k % 2 ? [CHANNEL.general] : [] });
      });
      await Promise.all(requests);
      const stored = await invitations(`same-${driver}@example.com`);
      expect(stored).toHaveLength(12);
      expect(stored.filter((row) => row.channels.length === 1)).toHaveLength(6);
      expect(stored.every((row) => row.channels.length === 0 || row.channels[0] === CHANNEL.general)).toBe(true);
      const perInviter = inviters.map((who) => stored.filter((row) => row.inviter_id === userId(who)).length);
      expect(perInviter).toEqual([3, 3, 3, 3]);
    });

    it('stores every one of many different addresses invited concurrently', async () => {
      const emails = Array.from({ length: 20 }, (_, k) => `guest${k}-${driver}@example.com`);
      await Promise.all(emails.map((email, k) => server.client(k % 2 ? 'owner' : 'member').sendInvites({ invitee_emails: email, stream_ids: [CHANNEL.general], invite_as: 600 })));
      for (const email of emails) {
        const stored = await invitations(email);
        expect(stored, email).toHaveLength(1);
        expect(stored[0]!.channels).toEqual([CHANNEL.general]);
      }
    });

    it('refuses an address that has an account under any concurrency, storing nothing for it', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, k) => server.client('admin').sendInvites({ invitee_emails: `member@example.com, fresh${k}-${driver}@example.com`, stream_ids: [] })),
      );
      for (const result of results) {
        expect(result.status).toBe('rejected');
        expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'INVITATION_FAILED', sent_invitations: true });
      }
      expect(await invitations('member@example.com')).toEqual([]);
      for (let k = 0; k < 8; k++) expect(await invitations(`fresh${k}-${driver}@example.com`)).toHaveLength(1);
    });
  });
});
