/**
 * Crash recovery on PostgreSQL: the real server process is killed with
 * SIGKILL in the middle of a write load and started again on the same
 * database. Every write it acknowledged must still be there, and work that
 * fell due while it was down (a reminder) must be done after the restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../generated/client.js';
import { MESSAGES, USER } from '../../server/seed/demo-data.js';
import type { DbHandle } from '../../server/store/db.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';

const WRITERS = ['owner@example.com', 'admin@example.com', 'moderator@example.com', 'member@example.com'];
// A message in engineering, which every writer reads.
const MESSAGE_ID = MESSAGES.deployDone.id;
const LOAD_MS = 2000;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the server killed under write load, on PostgreSQL', () => {
  let pg: ThrowawayPostgres;
  let db: DbHandle;
  let dataDir: string;
  let env: Record<string, string>;
  let apiKeys: Map<string, string>;
  // Starting takes seconds, so a test starts from the server the previous one left running, if any.
  let current: ServeProcess | null = null;

  const start = async (args: string[] = []) => (current = await startServeProcess(env, args));
  const kill = async (server: ServeProcess) => {
    await server.kill();
    if (current === server) current = null;
  };
  const client = (server: ServeProcess, email: string): Client =>
    createClient({ baseUrl: server.url, email, apiKey: apiKeys.get(email)!, timeoutMs: 10_000 });

  beforeAll(async () => {
    pg = await startPostgres();
    db = await openPostgres({ url: pg.url });
    dataDir = mkdtempSync(join(tmpdir(), 'teamchat-crash-'));
    env = { DATABASE_URL: pg.url, DATA_DIR: dataDir, SECRET_KEY: 'b'.repeat(64) };
    apiKeys = (await start(['--seed-demo'])).apiKeys;
    expect([...apiKeys.keys()]).toEqual(expect.arrayContaining(WRITERS));
  });
  afterAll(async () => {
    await current?.kill();
    await db?.close();
    await pg?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged status change and reminder', async () => {
    const server = current ?? (await start());
    const lastStatus = new Map<string, number>();
    const reminders: { id: number; email: string; note: string }[] = [];
    let stop = false;
    const worker = async (email: string) => {
      const api = client(server, email);
      for (let i = 1; !stop; i++) {
        try {
          await api.updateStatus({ status_text: `${email} #${i}` });
          lastStatus.set(email, i);
          const note = `${email} reminder #${i}`;
          const { reminder_id } = await api.createMessageReminder({ message_id: MESSAGE_ID, scheduled_delivery_timestamp: nowSeconds() + 86_400, note });
          reminders.push({ id: reminder_id, email, note });
        } catch (error) {
          // Only the kill may end the load; anything else is a failure of the server.
          if (!stop) throw error;
        }
      }
    };
    const load = Promise.all(WRITERS.map(worker));
    await sleep(LOAD_MS);
    // Killed while requests are in flight: their fate is open, but every acknowledged one must survive.
    const killed = kill(server);
    stop = true;
    await killed;
    await load;
    expect(reminders.length).toBeGreaterThan(WRITERS.length);

    const restarted = await start();
    // The same keys still work: nothing the clients hold was lost with the process.
    await expect(client(restarted, 'member@example.com').getOwnUser()).resolves.toMatchObject({ user_id: USER.dana });
    const stored = new Map(
      (await db.query<{ id: number; user_id: number; note: string }>('SELECT id, user_id, note FROM reminders WHERE id = ANY ($1::integer[])', [reminders.map((r) => r.id)])).rows.map(
        (row) => [row.id, row],
      ),
    );
    for (const reminder of reminders) {
      expect(stored.get(reminder.id), `reminder ${reminder.id}`).toMatchObject({ note: reminder.note, user_id: await userId(reminder.email) });
    }
    for (const [email, acknowledged] of lastStatus) {
      const { rows } = await db.query<{ status_text: string }>('SELECT status_text FROM user_status WHERE user_id = $1', [await userId(email)]);
      const kept = Number(/#(\d+)$/.exec(rows[0]?.status_text ?? '')?.[1] ?? 0);
      // A request in flight at the kill may have committed too, so the stored one can be newer.
      expect(kept, email).toBeGreaterThanOrEqual(acknowledged);
    }
  });

  it('delivers after a restart a reminder that fell due while the server was down', async () => {
    const server = current ?? (await start());
    const member = 'member@example.com';
    const dueAt = nowSeconds() + 3;
    const { reminder_id } = await client(server, member).createMessageReminder({ message_id: MESSAGE_ID, scheduled_delivery_timestamp: dueAt, note: 'while down' });
    await kill(server);
    const reminder = async () =>
      (await db.query<{ delivered_at: number | null; delivered_message_id: number | null }>('SELECT delivered_at, delivered_message_id FROM reminders WHERE id = $1', [reminder_id]))
        .rows[0]!;
    expect(await reminder()).toEqual({ delivered_at: null, delivered_message_id: null });
    while (nowSeconds() <= dueAt) await sleep(250);

    await start();
    const deadline = Date.now() + 20_000;
    while ((await reminder()).delivered_at === null && Date.now() < deadline) await sleep(250);
    const { delivered_at, delivered_message_id } = await reminder();
    expect(delivered_at).toBeGreaterThanOrEqual(dueAt);
    const { rows } = await db.query<{ sender_id: number; type: string; content: string; receivers: number[] }>(
      `SELECT m.sender_id, m.type, m.content, ARRAY(SELECT user_id FROM user_messages um WHERE um.message_id = m.id ORDER BY user_id) AS receivers
       FROM messages m WHERE m.id = $1`,
      [delivered_message_id],
    );
    expect(rows).toEqual([
      { sender_id: USER.notificationBot, type: 'private', content: expect.stringContaining('while down'), receivers: [USER.notificationBot, USER.dana] },
    ]);
    // Delivered once: no other reminder message from the bot carries this note.
    const { rows: copies } = await db.query('SELECT id FROM messages WHERE sender_id = $1 AND content LIKE $2', [USER.notificationBot, '%while down%']);
    expect(copies).toHaveLength(1);
  });

  const ids = new Map<string, number>();
  async function userId(email: string): Promise<number> {
    if (!ids.has(email)) ids.set(email, (await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]!.id);
    return ids.get(email)!;
  }
});
