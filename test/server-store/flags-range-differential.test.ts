/**
 * The statement of flags for a narrow changed (a narrow that reads only the
 * caller's copies looks each message up on PostgreSQL too), and so did the
 * index it may walk (migration 0008; server/docs/narrow-ranges.md). The answers must not change:
 * random requests (users including the guest, narrows of every operator,
 * negated or not, every anchor kind, sides, flags and ops) run through the
 * statement before the change (support/flags-range-before.ts) and through
 * today's, each in a transaction rolled back, on the same data, on both
 * databases; the statement's answer and the caller's flags afterwards are
 * compared.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeParams, updateFlagOverRange, type EditableFlag, type RangeUpdate } from '../../server/domain/flags.js';
import { narrowCondition, type NarrowTerm } from '../../server/domain/narrow.js';
import { isGuest } from '../../server/domain/roles.js';
import { seedDemoIfEmpty } from '../../server/seed/demo.js';
import { CHANNEL, USER, USERS } from '../../server/seed/demo-data.js';
import type { Db, DbHandle } from '../../server/store/db.js';
import { insertMessage } from '../../server/store/messages.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { updateFlagOverRangeBefore } from './support/flags-range-before.js';

const MESSAGES = 240;
const RUNS = 150;

let server: ThrowawayPostgres;
const handles: Record<string, DbHandle> = {};
let ids = { first: 0, last: 0 };

/** Messages in every kind of place, copies with flags spread by a fixed rule, subscriptions left (two of them to channels their owner may then no longer read). */
async function fill(db: Db): Promise<{ first: number; last: number }> {
  const places = [
    { channelId: CHANNEL.general, topic: 'alpha' },
    { channelId: CHANNEL.general, topic: 'beta' },
    { channelId: CHANNEL.engineering, topic: 'deploys' },
    { channelId: CHANNEL.design, topic: 'mocks' },
    { channelId: CHANNEL.announcements, topic: 'news' },
    { directTo: [USER.dana] },
    { directTo: [USER.dana, USER.eli] },
  ];
  const senders = [USER.ada, USER.ben, USER.chen, USER.dana];
  let first = 0;
  let last = 0;
  for (let i = 0; i < MESSAGES; i++) {
    const to = places[(i * 7) % places.length]!;
    last = await insertMessage(db, { senderId: senders[i % senders.length]!, to, content: `m${i}`, renderedContent: `<p>m${i}</p>` });
    if (i === 0) first = last;
  }
  await db.exec(`
    UPDATE user_messages SET flags = ARRAY(SELECT f FROM unnest(ARRAY[
      CASE WHEN (message_id * 7 + user_id) % 5 <> 0 OR message_id % 50 < 20 THEN 'read' END,
      CASE WHEN (message_id + user_id) % 11 = 0 THEN 'starred' END,
      CASE WHEN (message_id * 3 + user_id) % 13 = 0 THEN 'mentioned' END,
      CASE WHEN (message_id + user_id * 5) % 17 = 0 THEN 'collapsed' END]) f WHERE f IS NOT NULL);
    UPDATE subscriptions SET active = false WHERE user_id = ${USER.dana} AND channel_id = ${CHANNEL.engineering};
    -- Copies their owners may no longer read: a private channel left, and a public one the guest left.
    UPDATE subscriptions SET active = false WHERE user_id = ${USER.chen} AND channel_id = ${CHANNEL.design};
    UPDATE subscriptions SET active = false WHERE user_id = ${USER.eli} AND channel_id = ${CHANNEL.general}`);
  return { first, last };
}

beforeAll(async () => {
  server = await startPostgres();
  [handles.pglite, handles.postgres] = await Promise.all([openPglite({ dataDir: null, autoAnalyze: false }), openPostgres({ url: server.url })]);
  const filled = await Promise.all(
    Object.values(handles).map(async (db) => {
      await migrate(db);
      await seedDemoIfEmpty(db, { password: 'demo-password', secret: Buffer.alloc(32, 7), videoChatProvider: null });
      return fill(db);
    }),
  );
  expect(filled[0]).toEqual(filled[1]);
  ids = filled[0]!;
  // PostgreSQL with statistics too (its autovacuum would analyse these tables).
  await handles.postgres!.exec('ANALYZE');
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(handles).map((db) => db.close()));
  await server?.stop();
});

const user = fc.constantFrom(...USERS.filter((u) => !u.bot).map((u) => u.id));
const flagTerms = fc.constantFrom<[string, string]>(['is', 'unread'], ['is', 'starred'], ['is', 'mentioned']);
const negatable = (terms: fc.Arbitrary<[string, string]>): fc.Arbitrary<NarrowTerm> =>
  fc.tuple(terms, fc.boolean()).map(([[operator, operand], negated]) => ({ operator, operand, negated }) as NarrowTerm);
const term: fc.Arbitrary<NarrowTerm> = negatable(
    fc.oneof(
      fc.constantFrom<[string, string]>(['is', 'unread'], ['is', 'starred'], ['is', 'mentioned'], ['is', 'dm']),
      fc.constantFrom<[string, string]>(['channel', 'general'], ['channel', 'engineering'], ['channel', 'design'], ['topic', 'alpha'], ['topic', 'deploys']),
      fc.constantFrom<[string, string]>(['sender', 'owner@example.com'], ['sender', 'member@example.com'], ['dm', 'member@example.com'], ['dm', 'guest@example.com']),
    ),
);
const anchor = fc.oneof(
  fc.constantFrom('newest' as const, 'oldest' as const, 'first_unread' as const),
  fc.integer({ min: -5, max: MESSAGES + 5 }).map((offset) => ({ id: Math.max(1, ids.first + offset) })),
);
const side = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 1, 5000) });
const requestShape = fc.record({
  userId: user,
  // Narrows on the caller's flags alone (the statements that changed) as often as any other.
  narrow: fc.oneof(fc.array(negatable(flagTerms), { minLength: 1, maxLength: 2 }), fc.array(term, { maxLength: 2 })),
  anchor,
  includeAnchor: fc.boolean(),
  numBefore: side,
  numAfter: side,
  flag: fc.constantFrom<EditableFlag>('read', 'starred', 'collapsed'),
  present: fc.boolean(),
});

/** The statement a builder sends for `request`, not run. */
async function statementOf(db: Db, build: (db: Db, request: RangeUpdate) => Promise<unknown>, request: RangeUpdate) {
  const sent = { sql: '', params: [] as readonly unknown[] };
  const recorder: Db = {
    driver: db.driver,
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      sent.sql = sql;
      sent.params = params ?? [];
      return { rows: [{ ids: [], before_count: 0, after_count: 0, other_channels: null, updated_count: 0 }] as T[], rowCount: 1 };
    },
    exec: () => Promise.reject(new Error('not used')),
    transaction: () => Promise.reject(new Error('not used')),
  };
  await build(recorder, request);
  return sent;
}

class RolledBack extends Error {
  constructor(readonly outcome: unknown) {
    super('rolled back');
  }
}

/** The statement's answer and the caller's flags after it, with every change rolled back. */
async function outcome(db: DbHandle, statement: { sql: string; params: readonly unknown[] }, userId: number): Promise<unknown> {
  try {
    await db.transaction(async (tx) => {
      const { rows } = await tx.query(statement.sql, statement.params);
      const flags = await tx.query('SELECT message_id, flags FROM user_messages WHERE user_id = $1 ORDER BY message_id', [userId]);
      throw new RolledBack({ answer: rows, flags: flags.rows });
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.outcome;
    throw error;
  }
  throw new Error('the transaction was not rolled back');
}

describe.each(['pglite', 'postgres'])('flags for a narrow on %s: the statement before server/docs/narrow-ranges.md and today\'s', (driver) => {
  it('give the same answers and leave the same flags', async () => {
    const db = handles[driver]!;
    let differentStatements = 0;
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(requestShape, async (shape) => {
        const caller = USERS.find((u) => u.id === shape.userId)!;
        const params = rangeParams(caller.id, isGuest({ role: caller.role }));
        const condition = await narrowCondition({ db, userId: caller.id, topicName: (topic) => topic }, shape.narrow, params);
        const request: RangeUpdate = {
          condition,
          params,
          anchor: shape.anchor,
          includeAnchor: shape.includeAnchor,
          numBefore: shape.numBefore,
          numAfter: shape.numAfter,
          flag: shape.flag,
          present: shape.present,
          skipUnsubscribed: shape.flag === 'read' && !shape.present,
        };
        const before = await statementOf(db, updateFlagOverRangeBefore, request);
        const now = await statementOf(db, updateFlagOverRange, request);
        if (before.sql !== now.sql) differentStatements++;
        const old = await outcome(db, before, caller.id);
        expect(await outcome(db, now, caller.id)).toEqual(old);
        if (((old as { answer: { ids: number[] | null }[] }).answer[0]!.ids ?? []).length > 0) nonEmpty++;
      }),
      { numRuns: RUNS },
    );
    // The comparison covers requests whose range holds messages, and on PostgreSQL statements that changed.
    expect(nonEmpty).toBeGreaterThan(RUNS / 3);
    if (driver === 'postgres') expect(differentStatements).toBeGreaterThan(RUNS / 4);
  }, 240_000);
});
