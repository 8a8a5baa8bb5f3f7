import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, DbHandle } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { claimDueReminders, insertReminder, markReminderDelivered } from '../../server/store/reminders.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

let server: ThrowawayPostgres;
let postgres: DbHandle;
let pglite: DbHandle;

async function prepare(db: DbHandle): Promise<void> {
  await migrate(db);
  // The smallest world a reminder needs: a user, a channel and one message.
  await db.exec(`
    INSERT INTO user_groups (id, name, is_system_group, can_manage_group_id, can_add_members_group_id, can_remove_members_group_id, created_at)
      VALUES (1, 'role:everyone', true, 1, 1, 1, 0);
    INSERT INTO users (id, email, delivery_email, full_name, date_joined, api_key_hash, api_key_sealed)
      VALUES (1, 'a@example.com', 'a@example.com', 'A', 0, repeat('0', 64), 'x');
    INSERT INTO channels (id, name, created_at, can_add_subscribers_group_id, can_remove_subscribers_group_id,
      can_administer_channel_group_id, can_delete_any_message_group_id, can_delete_own_message_group_id,
      can_send_message_group_id, can_create_topic_group_id) VALUES (1, 'c', 0, 1, 1, 1, 1, 1, 1, 1);
    INSERT INTO recipients (id, type, channel_id) VALUES (1, 'stream', 1);
    INSERT INTO messages (id, sender_id, type, recipient_id, channel_id, content, rendered_content, sent_at)
      VALUES (1, 1, 'stream', 1, 1, 'm', '<p>m</p>', 0);
  `);
  for (let i = 0; i < 6; i++) await insertReminder(db, { userId: 1, messageId: 1, scheduledAt: 100 + i });
  await insertReminder(db, { userId: 1, messageId: 1, scheduledAt: 10_000 });
}

beforeAll(async () => {
  server = await startPostgres();
  [postgres, pglite] = await Promise.all([openPostgres({ url: server.url }), openPglite({ dataDir: null, checkHandleUse: true })]);
  await Promise.all([prepare(postgres), prepare(pglite)]);
});

afterAll(async () => {
  await Promise.all([postgres?.close(), pglite?.close()]);
  await server?.stop();
});

describe('reminder claiming', () => {
  it('on PostgreSQL, two connections claiming at once never take the same reminder', async () => {
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstClaimed!: (ids: number[]) => void;
    const firstReady = new Promise<number[]>((resolve) => (firstClaimed = resolve));

    // The first process claims three and keeps its transaction open while the second claims.
    const first = postgres.transaction(async (tx) => {
      const claimed = await claimDueReminders(tx, 'process-a', 3, 1000);
      firstClaimed(claimed.map((r) => r.id));
      await firstHolds;
      for (const reminder of claimed) await markReminderDelivered(tx, reminder.id, null, 1000);
      return claimed.map((r) => r.id);
    });
    const firstIds = await firstReady;
    const secondIds = await postgres.transaction(async (tx: Db) => {
      const claimed = await claimDueReminders(tx, 'process-b', 10, 1000);
      for (const reminder of claimed) await markReminderDelivered(tx, reminder.id, null, 1000);
      return claimed.map((r) => r.id);
    });
    releaseFirst();
    expect(await first).toEqual(firstIds);
    expect(firstIds).toEqual([1, 2, 3]);
    expect(secondIds).toEqual([4, 5, 6]);

    const { rows } = await postgres.query<{ id: number; claimed_by: string }>(
      'SELECT id, claimed_by FROM reminders WHERE delivered_at IS NOT NULL ORDER BY id',
    );
    expect(rows.map((row) => `${row.id}:${row.claimed_by}`)).toEqual(['1:process-a', '2:process-a', '3:process-a', '4:process-b', '5:process-b', '6:process-b']);
    // Nothing due is left; the future reminder stays untouched.
    expect(await postgres.transaction((tx) => claimDueReminders(tx, 'process-c', 10, 1000))).toEqual([]);
  });

  it('on PostgreSQL, a claim rolled back (crash before delivery) is claimed again', async () => {
    await expect(
      postgres.transaction(async (tx) => {
        expect((await claimDueReminders(tx, 'crashing', 10, 20_000)).map((r) => r.id)).toEqual([7]);
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    const again = await postgres.transaction((tx) => claimDueReminders(tx, 'process-d', 10, 20_000));
    expect(again.map((r) => [r.id, r.claimed_by])).toEqual([[7, 'process-d']]);
  });

  it('on PGlite, concurrent claims are serialised and split the due reminders', async () => {
    const claim = (name: string) =>
      pglite.transaction(async (tx) => {
        const claimed = await claimDueReminders(tx, name, 4, 1000);
        for (const reminder of claimed) await markReminderDelivered(tx, reminder.id, null, 1000);
        return claimed.map((r) => r.id);
      });
    const [a, b] = await Promise.all([claim('a'), claim('b')]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
  });
});
