/**
 * GET /messages/{id} reads the message with the authenticating statement
 * (authenticate's withMessage, app.ts): what it reads must be exactly what
 * messageForViewer answers for that user, for every demo user (guest, bots
 * and members included) and every message (channel, private channel and
 * direct messages, and one that does not exist), on both databases; and it
 * is kept only for the message asked for, and only when the key matches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, prefetchedMessageOf } from '../../server/auth/credentials.js';
import { isGuest } from '../../server/domain/roles.js';
import { seedDemoIfEmpty, type DemoLogin } from '../../server/seed/demo.js';
import type { DbHandle } from '../../server/store/db.js';
import { messageForViewer } from '../../server/store/messages.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

let server: ThrowawayPostgres;
const handles: Record<string, DbHandle> = {};
const logins: Record<string, DemoLogin[]> = {};

beforeAll(async () => {
  server = await startPostgres();
  [handles.pglite, handles.postgres] = await Promise.all([openPglite({ dataDir: null, checkHandleUse: true }), openPostgres({ url: server.url })]);
  for (const [driver, db] of Object.entries(handles)) {
    await migrate(db);
    logins[driver] = (await seedDemoIfEmpty(db, { password: 'demo-password', secret: Buffer.alloc(32, 7), videoChatProvider: null }))!;
  }
});

afterAll(async () => {
  await Promise.all(Object.values(handles).map((db) => db.close()));
  await server?.stop();
});

describe.each(['pglite', 'postgres'])('the message read with authentication on %s', (driver) => {
  const db = () => handles[driver]!;

  it('is what messageForViewer answers, for every user and message', async () => {
    const { rows } = await db().query<{ id: number; type: string }>('SELECT id, type FROM messages ORDER BY id');
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(['stream', 'private']));
    const ids = [...rows.map((row) => row.id), rows.at(-1)!.id + 1000];
    const users = logins[driver]!;
    expect(users.some((login) => login.role === 600)).toBe(true);
    let compared = 0;
    let found = 0;
    for (const login of users) {
      for (const id of ids) {
        const user = await authenticate(db(), login.email, login.apiKey, undefined, { withMessage: id });
        expect(user?.id).toBe(login.userId);
        const expected = await messageForViewer(db(), { id: user!.id, isGuest: isGuest(user!) }, id);
        expect(prefetchedMessageOf(user!, id), `${login.email} message ${id}`).toEqual(expected);
        // Kept for the message asked for only.
        expect(prefetchedMessageOf(user!, id + 1)).toBeUndefined();
        compared++;
        if (expected) found++;
      }
    }
    expect(compared).toBe(users.length * ids.length);
    expect(found).toBe(users.length * (ids.length - 1));
  });

  it('keeps nothing without withMessage, for GET /users/me, or for a wrong key', async () => {
    const login = logins[driver]!.find((candidate) => candidate.email === 'member@example.com')!;
    const { rows } = await db().query<{ id: number }>('SELECT min(id) AS id FROM messages');
    const id = rows[0]!.id;
    const plain = await authenticate(db(), login.email, login.apiKey);
    expect(prefetchedMessageOf(plain!, id)).toBeUndefined();
    const me = await authenticate(db(), login.email, login.apiKey, undefined, { withOwnUser: true, withMessage: id });
    expect(prefetchedMessageOf(me!, id)).toBeUndefined();
    expect(await authenticate(db(), login.email, `${login.apiKey}x`, undefined, { withMessage: id })).toBeNull();
  });
});
