import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../generated/client.js';
import { reminderDeliveryJob } from '../../server/jobs/reminder-delivery.js';
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

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface ReminderState {
  delivered_at: number | null;
  delivered_message_id: number | null;
  claimed_by: string | null;
}

describe.each(drivers)('reminders on %s', (driver) => {
  let server: TestServer;
  let designMessageId: number;
  const T = 2_000_000_000;

  const reminder = async (id: number) =>
    (await server.db.query<ReminderState & { user_id: number; message_id: number; scheduled_at: number; note: string }>('SELECT * FROM reminders WHERE id = $1', [id])).rows[0]!;
  /** Bot direct messages to Dana whose content contains `text`. */
  const botMessagesTo = async (userId: number, text: string) =>
    (
      await server.db.query<{ id: number; content: string; rendered_content: string; sent_at: number }>(
        `SELECT m.id, m.content, m.rendered_content, m.sent_at FROM messages m JOIN recipients r ON r.id = m.recipient_id
         WHERE m.sender_id = 1 AND r.member_key = $1 AND m.content LIKE $2 ORDER BY m.id`,
        [`1,${userId}`, `%${text}%`],
      )
    ).rows;

  beforeAll(async () => {
    server = await startTestServer(driver);
    designMessageId = await server.db.transaction((tx) =>
      insertMessage(tx, { senderId: 2, to: { channelId: 3, topic: 'mockups' }, content: 'secret', renderedContent: '<p>secret</p>' }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a reminder for every role on a message it can read, and stores it', async () => {
    server.setNow(T);
    const cases: [Who, number, number][] = [
      ['owner', 101, 2],
      ['admin', 101, 3],
      ['moderator', 101, 4],
      ['member', 101, 5],
      ['guest', 104, 6],
      ['bot', 101, 7],
    ];
    for (const [who, messageId, userId] of cases) {
      const { reminder_id } = await server.client(who).createMessageReminder({ message_id: messageId, scheduled_delivery_timestamp: T + 60, note: `from ${who}` });
      expect(await reminder(reminder_id)).toMatchObject({ user_id: userId, message_id: messageId, scheduled_at: T + 60, note: `from ${who}`, delivered_at: null });
    }
    const { reminder_id } = await server.client('member').createMessageReminder({ message_id: 105, scheduled_delivery_timestamp: T + 1 });
    expect((await reminder(reminder_id)).note).toBe('');
  });

  it('requires message_id and scheduled_delivery_timestamp', async () => {
    server.setNow(T);
    const member = server.client('member');
    const noMessage = await failure(member.createMessageReminder({ scheduled_delivery_timestamp: T + 60 }));
    expect([noMessage.code, noMessage.msg]).toEqual(['BAD_REQUEST', "Missing 'message_id' argument"]);
    const noTime = await failure(member.createMessageReminder({ message_id: 101 }));
    expect([noTime.code, noTime.msg]).toEqual(['BAD_REQUEST', "Missing 'scheduled_delivery_timestamp' argument"]);
  });

  it('refuses a missing or invisible message alike', async () => {
    server.setNow(T);
    const attempts: [Who, number][] = [
      ['member', 999_999],
      ['member', 99_999_999_999],
      ['guest', 101], // public channel the guest is not subscribed to
      ['member', designMessageId], // private channel the member is not in
      ['guest', 105], // someone else's direct message
    ];
    for (const [who, messageId] of attempts) {
      const error = await failure(server.client(who).createMessageReminder({ message_id: messageId, scheduled_delivery_timestamp: T + 60 }));
      expect([error.code, error.msg]).toEqual(['BAD_REQUEST', 'Invalid message(s)']);
    }
  });

  it('refuses a delivery time that is not in the future', async () => {
    server.setNow(T);
    for (const at of [T, T - 1]) {
      const error = await failure(server.client('member').createMessageReminder({ message_id: 101, scheduled_delivery_timestamp: at }));
      expect([error.code, error.msg]).toEqual(['BAD_REQUEST', 'Scheduled delivery time must be in the future']);
    }
  });

  it('delivers a due reminder once, as a direct message from the notification bot, and leaves future ones', async () => {
    server.setNow(T);
    const member = server.client('member');
    const due = await member.createMessageReminder({ message_id: 101, scheduled_delivery_timestamp: T + 10, note: 'due-note **bold**' });
    const future = await member.createMessageReminder({ message_id: 102, scheduled_delivery_timestamp: T + 10_000, note: 'future-note' });
    server.setNow(T + 20);
    const job = reminderDeliveryJob({ intervalMs: 20 }).start(server.services, () => undefined);
    try {
      await waitFor(async () => (await reminder(due.reminder_id)).delivered_at !== null);
      // More ticks change nothing.
      await new Promise((resolve) => setTimeout(resolve, 150));
    } finally {
      await job();
    }
    const messages = await botMessagesTo(5, 'due-note');
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message!.content).toContain('/#narrow/channel/2-engineering/topic/deploys/near/101');
    expect(message!.rendered_content).toContain('<strong>bold</strong>');
    expect(message!.sent_at).toBe(T + 20);
    expect(await reminder(due.reminder_id)).toMatchObject({ delivered_at: T + 20, delivered_message_id: message!.id });
    const flags = await server.db.query<{ flags: string[] }>('SELECT flags FROM user_messages WHERE user_id = 5 AND message_id = $1', [message!.id]);
    expect(flags.rows[0]!.flags).not.toContain('read');
    expect(await reminder(future.reminder_id)).toMatchObject({ delivered_at: null, claimed_by: null });
    expect(await botMessagesTo(5, 'future-note')).toEqual([]);
  });

  it('links a direct message by its participants', async () => {
    server.setNow(T);
    const { reminder_id } = await server.client('member').createMessageReminder({ message_id: 105, scheduled_delivery_timestamp: T + 5, note: 'dm-note' });
    server.setNow(T + 5);
    const job = reminderDeliveryJob({ intervalMs: 20 }).start(server.services, () => undefined);
    try {
      await waitFor(async () => (await reminder(reminder_id)).delivered_at !== null);
    } finally {
      await job();
    }
    const [message] = await botMessagesTo(5, 'dm-note');
    expect(message!.content).toContain('/#narrow/dm/3,5/near/105');
  });

  it("cuts the delivered message to the organization's max_message_length, counting code points", async () => {
    server.setNow(T);
    const limit = 300;
    const { rows } = await server.db.query<{ max_message_length: number }>('SELECT max_message_length FROM realm WHERE id = 1');
    const saved = rows[0]!.max_message_length;
    // Astral characters: a cut counting UTF-16 units would end early or split a pair.
    const note = `long-note ${'🐙'.repeat(400)}`;
    const { reminder_id } = await server.client('member').createMessageReminder({ message_id: 102, scheduled_delivery_timestamp: T + 5, note });
    expect((await reminder(reminder_id)).note).toBe(note);
    await server.db.query('UPDATE realm SET max_message_length = $1 WHERE id = 1', [limit]);
    server.setNow(T + 5);
    const job = reminderDeliveryJob({ intervalMs: 20 }).start(server.services, () => undefined);
    try {
      await waitFor(async () => (await reminder(reminder_id)).delivered_at !== null);
    } finally {
      await job();
      await server.db.query('UPDATE realm SET max_message_length = $1 WHERE id = 1', [saved]);
    }
    const [message] = await botMessagesTo(5, 'long-note');
    expect([...message!.content]).toHaveLength(limit);
    expect(message!.content).toMatch(/^You asked to be reminded about \[this message\]\(.*\/near\/102\)\.\n\nNote:\n\n> long-note 🐙+$/u);
    // A note that fits is delivered whole.
    const fits = await server.client('member').createMessageReminder({ message_id: 102, scheduled_delivery_timestamp: T + 10, note: 'short-note 🐙' });
    server.setNow(T + 10);
    const again = reminderDeliveryJob({ intervalMs: 20 }).start(server.services, () => undefined);
    try {
      await waitFor(async () => (await reminder(fits.reminder_id)).delivered_at !== null);
    } finally {
      await again();
    }
    expect((await botMessagesTo(5, 'short-note'))[0]!.content).toMatch(/\n\n> short-note 🐙$/u);
  });

  it('delivers a reminder that fell due while stopped at the next start', async () => {
    server.setNow(T);
    const { reminder_id } = await server.client('admin').createMessageReminder({ message_id: 102, scheduled_delivery_timestamp: T + 3600, note: 'restart-note' });
    const first = reminderDeliveryJob({ intervalMs: 20 }).start(server.services, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await first();
    expect((await reminder(reminder_id)).delivered_at).toBeNull();
    // The server is down while the reminder falls due.
    server.setNow(T + 7200);
    const second = reminderDeliveryJob({ intervalMs: 60_000 }).start(server.services, () => undefined);
    try {
      // Delivered by the run at start, not by a later tick.
      await waitFor(async () => (await reminder(reminder_id)).delivered_at !== null, 5000);
    } finally {
      await second();
    }
    expect(await botMessagesTo(3, 'restart-note')).toHaveLength(1);
    expect((await reminder(reminder_id)).delivered_at).toBe(T + 7200);
  });

  it('never delivers a reminder twice when two job instances run at once', async () => {
    server.setNow(T);
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      const { reminder_id } = await server.client('moderator').createMessageReminder({ message_id: 101, scheduled_delivery_timestamp: T + 1 + i, note: `concurrent-${i}-end` });
      ids.push(reminder_id);
    }
    server.setNow(T + 100);
    const jobs = [0, 1, 2].map(() => reminderDeliveryJob({ intervalMs: 5 }).start(server.services, () => undefined));
    try {
      await waitFor(async () => {
        const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM reminders WHERE id = ANY ($1::integer[]) AND delivered_at IS NULL', [ids]);
        return rows[0]!.n === 0;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await Promise.all(jobs.map((stop) => stop()));
    }
    for (let i = 0; i < 30; i++) expect(await botMessagesTo(4, `concurrent-${i}-end`)).toHaveLength(1);
  });
});
