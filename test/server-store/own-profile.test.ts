/**
 * users.own_profile (migration 0006), which GET /users/me reads with its
 * authenticating statement, always equals the aggregate of the user's
 * profile values it replaced: after inserts, updates and deletes of values,
 * changes of a field's type or order, a removed field, a truncate, a
 * rollback, and concurrent writers of one user's values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty } from '../../server/seed/demo.js';
import { USER } from '../../server/seed/demo-data.js';
import type { Db, DbHandle } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { ownUserExtras, removeProfileValue, setProfileValue } from '../../server/store/profile.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

let server: ThrowawayPostgres;
const handles: Record<string, DbHandle> = {};

beforeAll(async () => {
  server = await startPostgres();
  [handles.pglite, handles.postgres] = await Promise.all([openPglite({ dataDir: null, checkHandleUse: true }), openPostgres({ url: server.url })]);
  for (const db of Object.values(handles)) {
    await migrate(db);
    await seedDemoIfEmpty(db, { password: 'demo-password', secret: Buffer.alloc(32, 7), videoChatProvider: null });
  }
});

afterAll(async () => {
  await Promise.all(Object.values(handles).map((db) => db.close()));
  await server?.stop();
});

// The aggregate the own-user view ran before the column existed.
const AGGREGATE = `COALESCE((
    SELECT json_agg(json_build_object('field_id', v.field_id, 'field_type', f.field_type, 'value', v.value,
      'rendered_value', v.rendered_value) ORDER BY f.sort_order, f.id)
    FROM custom_profile_values v JOIN custom_profile_fields f ON f.id = v.field_id
    WHERE v.user_id = users.id), '[]')`;

/** Every user's kept profile and the aggregate, as JSON text, where they differ; and how many users have values. */
async function mismatches(db: Db): Promise<{ differ: unknown[]; withValues: number }> {
  const { rows } = await db.query<{ id: number; kept: string; fresh: string }>(
    `SELECT id, own_profile::text AS kept, ${AGGREGATE}::text AS fresh FROM users ORDER BY id`,
  );
  const parse = (text: string) => JSON.stringify(JSON.parse(text));
  return {
    differ: rows.filter((row) => parse(row.kept) !== parse(row.fresh)),
    withValues: rows.filter((row) => parse(row.fresh) !== '[]').length,
  };
}

async function expectKept(db: Db, usersWithValues?: number): Promise<void> {
  const { differ, withValues } = await mismatches(db);
  expect(differ).toEqual([]);
  if (usersWithValues !== undefined) expect(withValues).toBe(usersWithValues);
}

async function newField(db: Db, name: string, type: string, sortOrder: number): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO custom_profile_fields (name, field_type, sort_order) VALUES ($1, $2, $3) RETURNING id`,
    [name, type, sortOrder],
  );
  return rows[0]!.id;
}

describe.each(['pglite', 'postgres'])('users.own_profile on %s', (driver) => {
  const db = () => handles[driver]!;

  it('holds what the aggregate reads after the migration, and the own-user extras read it', async () => {
    await expectKept(db());
    const { rows } = await db().query<{ profile: unknown }>(`SELECT ${AGGREGATE} AS profile FROM users WHERE id = $1`, [USER.dana]);
    expect((await ownUserExtras(db(), USER.dana)).profile).toEqual(rows[0]!.profile);
    expect((await ownUserExtras(db(), USER.dana)).profile.length).toBeGreaterThan(1);
  });

  it('follows inserts, updates and deletes of values, and several users in one statement', async () => {
    const field = await newField(db(), `Desk ${driver}`, 'short_text', -1);
    await setProfileValue(db(), USER.ben, field, 'B-12', null);
    await expectKept(db());
    await setProfileValue(db(), USER.ben, field, 'B-13', null);
    await expectKept(db());
    const { rows } = await db().query<{ id: number }>('SELECT id FROM users ORDER BY id');
    await db().query(
      `INSERT INTO custom_profile_values (user_id, field_id, value) SELECT id, $1, 'desk ' || id FROM users
       ON CONFLICT (user_id, field_id) DO UPDATE SET value = excluded.value`,
      [field],
    );
    await expectKept(db(), rows.length);
    await db().query(`UPDATE custom_profile_values SET rendered_value = '<p>' || value || '</p>' WHERE field_id = $1 AND user_id <> $2`, [field, USER.ben]);
    await expectKept(db());
    // A value moved from one user to another changes both.
    await removeProfileValue(db(), USER.dana, field);
    await db().query('UPDATE custom_profile_values SET user_id = $2 WHERE user_id = $1 AND field_id = $3', [USER.ben, USER.dana, field]);
    await expectKept(db());
    await db().query('DELETE FROM custom_profile_values WHERE field_id = $1 AND user_id <> $2', [field, USER.dana]);
    await expectKept(db());
  });

  it("follows a field's type and display order, and a removed field", async () => {
    const first = await newField(db(), `First ${driver}`, 'short_text', 100);
    const second = await newField(db(), `Second ${driver}`, 'short_text', 101);
    await setProfileValue(db(), USER.dana, first, 'one', null);
    await setProfileValue(db(), USER.dana, second, 'two', null);
    await setProfileValue(db(), USER.ben, second, 'two', null);
    const order = async () =>
      ((await ownUserExtras(db(), USER.dana)).profile.map((value) => value.field_id)).filter((id) => id === first || id === second);
    expect(await order()).toEqual([first, second]);
    await db().query('UPDATE custom_profile_fields SET sort_order = 99 WHERE id = $1', [second]);
    expect(await order()).toEqual([second, first]);
    await expectKept(db());
    await db().query(`UPDATE custom_profile_fields SET field_type = 'long_text' WHERE id = $1`, [first]);
    expect((await ownUserExtras(db(), USER.dana)).profile.find((value) => value.field_id === first)?.field_type).toBe('long_text');
    await expectKept(db());
    // A change of anything else leaves the rows alone (and they still match).
    await db().query(`UPDATE custom_profile_fields SET hint = 'where to find you' WHERE id = $1`, [first]);
    await expectKept(db());
    await db().query('DELETE FROM custom_profile_fields WHERE id = $1', [second]);
    expect(await order()).toEqual([first]);
    await expectKept(db());
  });

  it('keeps nothing of a rolled-back change', async () => {
    const before = (await ownUserExtras(db(), USER.dana)).profile;
    const field = await newField(db(), `Rolled back ${driver}`, 'short_text', 0);
    await expect(
      db().transaction(async (tx) => {
        await setProfileValue(tx, USER.dana, field, 'gone', null);
        expect((await ownUserExtras(tx, USER.dana)).profile.some((value) => value.field_id === field)).toBe(true);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await ownUserExtras(db(), USER.dana)).profile).toEqual(before);
    await expectKept(db());
  });

  it('empties every row on a truncate of the values', async () => {
    await db().transaction(async (tx) => {
      await tx.exec('TRUNCATE custom_profile_values');
      await expectKept(tx, 0);
      throw new Error('keep the values for the other tests');
    }).catch((error: Error) => expect(error.message).toBe('keep the values for the other tests'));
    await expectKept(db());
    expect((await ownUserExtras(db(), USER.dana)).profile.length).toBeGreaterThan(0);
  });
});

describe('users.own_profile under concurrent writers (PostgreSQL)', () => {
  const db = () => handles.postgres!;

  /** Resolves once `count` sessions wait for a lock. */
  async function lockWaiters(count: number): Promise<void> {
    for (let attempt = 0; attempt < 500; attempt++) {
      const { rows } = await db().query<{ waiting: number }>(
        `SELECT count(*)::integer AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      );
      if (rows[0]!.waiting >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no session waited for a lock`);
  }

  it('keeps both values when two transactions set fields of one user at once', async () => {
    const a = await newField(db(), 'Concurrent A', 'short_text', 200);
    const b = await newField(db(), 'Concurrent B', 'short_text', 201);
    let inserted!: () => void;
    const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    // The first transaction's trigger has updated the user's row and holds it;
    // the second one's must wait for it, then read what the first committed.
    const first = db().transaction(async (tx) => {
      await setProfileValue(tx, USER.chen, a, 'from the first', null);
      inserted();
      await mayCommit;
    });
    await firstInserted;
    const second = db().transaction((tx) => setProfileValue(tx, USER.chen, b, 'from the second', null));
    await lockWaiters(1);
    commit();
    await Promise.all([first, second]);
    const values = (await ownUserExtras(db(), USER.chen)).profile.filter((value) => value.field_id === a || value.field_id === b);
    expect(values.map((value) => value.value)).toEqual(['from the first', 'from the second']);
    await expectKept(db());
  });

  // Mostly a check that concurrent writers neither deadlock nor fail; the lost update itself is the test above.
  it('matches the aggregate after bursts of concurrent writers over a few users and fields', async () => {
    const fields = [await newField(db(), 'Busy 1', 'short_text', 300), await newField(db(), 'Busy 2', 'long_text', 301), await newField(db(), 'Busy 3', 'url', 302)];
    const users = [USER.ben, USER.chen, USER.dana];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const writer = async (round: number) => {
      for (let i = 0; i < 5; i++) {
        const user = users[next(users.length)]!;
        const field = fields[next(fields.length)]!;
        const kind = next(4);
        if (kind === 0) await removeProfileValue(db(), user, field);
        else if (kind === 1)
          // Several users in one transaction, in id order (as any bulk change should).
          await db().transaction(async (tx) => {
            for (const other of users) await setProfileValue(tx, other, field, `t${round}.${i}`, null);
          });
        else if (kind === 2) await db().query('UPDATE custom_profile_fields SET sort_order = $2 WHERE id = $1', [field, 300 + next(10)]);
        else
          // Held open a little, so that other writers of this user queue behind it.
          await db().transaction(async (tx) => {
            await setProfileValue(tx, user, field, `w${round}.${i}`, `<p>w${round}.${i}</p>`);
            await new Promise((resolve) => setTimeout(resolve, next(3)));
          });
      }
    };
    // Checked after each burst: what the last, concurrent, writers of a user left must be complete.
    for (let burst = 0; burst < 6; burst++) {
      await Promise.all(Array.from({ length: 8 }, (_, round) => writer(round)));
      await expectKept(db());
    }
  });
});
