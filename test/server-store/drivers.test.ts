import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../server/store/db.js';
import { migrate, readMigrations } from '../../server/store/migrate.js';
import { protocol } from '@electric-sql/pglite';
import { bindExecuteSync, openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

let server: ThrowawayPostgres;
const handles: Record<string, DbHandle> = {};

beforeAll(async () => {
  server = await startPostgres();
  [handles.pglite, handles.postgres] = await Promise.all([openPglite({ dataDir: null, checkHandleUse: true }), openPostgres({ url: server.url })]);
});

afterAll(async () => {
  await Promise.all(Object.values(handles).map((db) => db.close()));
  await server?.stop();
});

const allVersions = readMigrations().map((migration) => migration.version);

describe.each(['pglite', 'postgres'])('%s driver', (driver) => {
  const db = () => handles[driver]!;

  it('applies every migration once, then nothing on the next start', async () => {
    expect(await migrate(db())).toEqual(allVersions);
    expect(await migrate(db())).toEqual([]);
    const { rows } = await db().query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(allVersions);
  });

  it('refuses to start when an applied migration file changed', async () => {
    const edited = readMigrations().map((migration) => ({ ...migration, checksum: 'changed' }));
    await expect(migrate(db(), edited)).rejects.toThrow(/changed after it was applied/);
  });

  it('returns int8, arrays and jsonb as JavaScript values', async () => {
    const { rows } = await db().query<{ big: number; list: number[]; doc: { a: number[] } }>(
      `SELECT 9007199254740991::bigint AS big, ARRAY[1, 2]::bigint[] AS list, '{"a": [1]}'::jsonb AS doc`,
    );
    expect(rows[0]).toEqual({ big: 9007199254740991, list: [1, 2], doc: { a: [1] } });
  });

  it('returns integer arrays of every width as numbers, with NULLs, signs, nesting and empty ones', async () => {
    const { rows } = await db().query<Record<string, unknown>>(
      `SELECT ARRAY[1, -32768, 32767]::smallint[] AS small, ARRAY[106, -2147483648, 2147483647, 0]::integer[] AS int,
        ARRAY[-9007199254740991, 9007199254740991, 7]::bigint[] AS big, ARRAY[1, NULL, -3]::integer[] AS nulls,
        ARRAY[[1, 2], [3, -4]]::integer[] AS nested, '{}'::integer[] AS empty, NULL::integer[] AS none,
        (SELECT array_agg(i) FROM generate_series(1, 100) i) AS hundred`,
    );
    expect(rows[0]).toEqual({
      small: [1, -32768, 32767],
      int: [106, -2147483648, 2147483647, 0],
      big: [-9007199254740991, 9007199254740991, 7],
      nulls: [1, null, -3],
      nested: [
        [1, 2],
        [3, -4],
      ],
      empty: [],
      none: null,
      hundred: Array.from({ length: 100 }, (_, i) => i + 1),
    });
  });

  it('rolls a transaction back when its function throws', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.query(`INSERT INTO realm_domains (domain) VALUES ('rollback.example')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await db().query(`SELECT 1 FROM realm_domains WHERE domain = 'rollback.example'`);
    expect(rows).toEqual([]);
  });

  it('commits, and a nested transaction rolls back only its own work', async () => {
    await db().transaction(async (tx) => {
      await tx.query(`INSERT INTO realm_domains (domain) VALUES ('outer.example')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.query(`INSERT INTO realm_domains (domain) VALUES ('inner.example')`);
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
    });
    const { rows } = await db().query<{ domain: string }>(
      `SELECT domain FROM realm_domains WHERE domain LIKE '%.example' AND domain <> 'rollback.example' ORDER BY domain`,
    );
    expect(rows.map((row) => row.domain)).toEqual(['outer.example']);
  });

  it('does not commit a transaction whose failed statement was swallowed', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.query(`INSERT INTO realm_domains (domain) VALUES ('swallowed.example')`);
        await tx.query(`INSERT INTO realm_domains (domain) VALUES ('NOT-LOWER.example')`).catch(() => undefined);
      }),
    ).rejects.toThrow();
    expect((await db().query(`SELECT 1 FROM realm_domains WHERE domain = 'swallowed.example'`)).rows).toEqual([]);
    // The connection is usable afterwards.
    expect((await db().query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('enforces the constraints of the model', async () => {
    await expect(db().query(`INSERT INTO realm_domains (domain) VALUES ('UPPER.example')`)).rejects.toThrow(/check/i);
    await expect(
      db().query(`INSERT INTO user_groups (name, is_system_group, created_at) VALUES (NULL, true, 0)`),
    ).rejects.toThrow(/check/i);
    await expect(db().query(`INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES (999, 999)`)).rejects.toThrow();
  });

  it('reports rows changed by an update', async () => {
    await db().query(`INSERT INTO realm_domains (domain) VALUES ('count-a.example'), ('count-b.example')`);
    const result = await db().query(`UPDATE realm_domains SET allow_subdomains = true WHERE domain LIKE 'count-%'`);
    expect(result.rowCount).toBe(2);
  });
});

describe('pglite transactions', () => {
  it('never interleave: concurrent read-modify-write transactions all count', async () => {
    const db = handles.pglite!;
    await db.exec('CREATE TABLE counter (n integer NOT NULL); INSERT INTO counter VALUES (0);');
    const order: string[] = [];
    const increment = (name: string) =>
      db.transaction(async (tx) => {
        order.push(`${name} begin`);
        const { rows } = await tx.query<{ n: number }>('SELECT n FROM counter');
        // Yield to the event loop so another request could step in if it were allowed.
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.query('UPDATE counter SET n = $1', [rows[0]!.n + 1]);
        order.push(`${name} end`);
      });
    await Promise.all([increment('a'), increment('b'), increment('c'), db.query('SELECT n FROM counter')]);
    expect((await db.query<{ n: number }>('SELECT n FROM counter')).rows[0]!.n).toBe(3);
    expect(order).toEqual(['a begin', 'a end', 'b begin', 'b end', 'c begin', 'c end']);
  });

  it('rejects use of the outer handle inside a transaction instead of deadlocking', async () => {
    const db = handles.pglite!;
    await expect(db.transaction(async () => db.query('SELECT 1'))).rejects.toThrow(/transaction handle/);
  });
});

describe('postgres migrations', () => {
  it('apply once when two processes start together', async () => {
    const fresh = await openPostgres({ url: server.url });
    await fresh.exec('CREATE DATABASE concurrent_start');
    await fresh.close();
    const url = server.url.replace(/\/postgres$/, '/concurrent_start');
    const [first, second] = await Promise.all([openPostgres({ url }), openPostgres({ url })]);
    try {
      const applied = await Promise.all([migrate(first), migrate(second)]);
      expect(applied.map((versions) => versions.length).sort()).toEqual([0, allVersions.length]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('postgres prepared statements', () => {
  // One connection, so every execution below reuses the same prepared statement.
  let db: DbHandle;
  beforeAll(async () => {
    db = await openPostgres({ url: server.url, maxConnections: 1 });
  });
  afterAll(async () => {
    await db?.close();
  });
  const backend = async () => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  it('give rows of the same shape on the first and later executions', async () => {
    const sql = `SELECT $1::bigint AS id, ARRAY[$1, 2]::bigint[] AS ids, NULL::text AS absent, 'x' AS label, 2 AS label`;
    const first = await db.query(sql, [7]);
    const second = await db.query(sql, [8]);
    expect(first.rows).toEqual([{ id: 7, ids: [7, 2], absent: null, label: 2 }]);
    expect(second.rows).toEqual([{ id: 8, ids: [8, 2], absent: null, label: 2 }]);
    expect(Object.keys(second.rows[0]!)).toEqual(['id', 'ids', 'absent', 'label']);
    expect(second.rowCount).toBe(1);
  });

  it('count the rows of statements without a result, on every execution', async () => {
    await db.exec('CREATE TABLE prepared_counts (n integer NOT NULL)');
    const insert = 'INSERT INTO prepared_counts (n) SELECT generate_series(1, $1::integer)';
    expect(await db.query(insert, [2])).toEqual({ rows: [], rowCount: 2 });
    expect(await db.query(insert, [3])).toEqual({ rows: [], rowCount: 3 });
    const update = 'UPDATE prepared_counts SET n = n + 1 WHERE n <= $1';
    expect((await db.query(update, [1])).rowCount).toBe(2);
    expect((await db.query(update, [2])).rowCount).toBe(4);
  });

  it("turn a client's bad value into BAD_REQUEST and keep the connection", async () => {
    const pid = await backend();
    const sql = 'SELECT $1::integer AS n';
    expect((await db.query(sql, ['5'])).rows).toEqual([{ n: 5 }]);
    await expect(db.query(sql, ['99999999999'])).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await db.query(sql, ['6'])).rows).toEqual([{ n: 6 }]);
    expect(await backend()).toBe(pid);
  });

  it('prepare again a statement that failed to prepare', async () => {
    const sql = 'SELECT n FROM prepared_later WHERE n = $1';
    await expect(db.query(sql, [1])).rejects.toThrow(/prepared_later/);
    await db.exec('CREATE TABLE prepared_later (n integer NOT NULL); INSERT INTO prepared_later VALUES (1)');
    expect((await db.query(sql, [1])).rows).toEqual([{ n: 1 }]);
  });

  it('follow a change of the result type, outside and inside a transaction', async () => {
    await db.exec('CREATE TABLE prepared_shape (a integer NOT NULL); INSERT INTO prepared_shape VALUES (1)');
    const sql = 'SELECT * FROM prepared_shape WHERE a = $1';
    expect((await db.query(sql, [1])).rows).toEqual([{ a: 1 }]);
    await db.exec(`ALTER TABLE prepared_shape ADD COLUMN b text NOT NULL DEFAULT 'b'`);
    // PostgreSQL refuses the old plan; the statement is prepared anew and sent again.
    expect((await db.query(sql, [1])).rows).toEqual([{ a: 1, b: 'b' }]);
    expect((await db.query(sql, [1])).rows).toEqual([{ a: 1, b: 'b' }]);
    await db.exec('ALTER TABLE prepared_shape DROP COLUMN b');
    // In a transaction the refusal aborts it; the next use prepares it anew.
    await expect(db.transaction((tx) => tx.query(sql, [1]))).rejects.toThrow(/result type/);
    expect((await db.transaction((tx) => tx.query(sql, [1]))).rows).toEqual([{ a: 1 }]);
  });

  it('are prepared again on a new connection after the old one dropped', async () => {
    const sql = 'SELECT $1::integer + 1 AS n';
    expect((await db.query(sql, [1])).rows).toEqual([{ n: 2 }]);
    const pid = await backend();
    const other = await openPostgres({ url: server.url, maxConnections: 1 });
    try {
      await other.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await other.close();
    }
    // The first statement may fail on the dropped connection; after it, the pool has a new one.
    await db.query(sql, [2]).catch(() => undefined);
    expect((await db.query(sql, [3])).rows).toEqual([{ n: 4 }]);
    expect(await backend()).not.toBe(pid);
  });
});

describe('PGlite Bind, Execute and Sync', () => {
  it.each<[string, (string | null)[]]>([
    ['s1', []],
    ['s12', ['5', '123']],
    ['s2000', [null, '', 'é', '€ and 𝄞', 'x'.repeat(70_000), null]],
  ])('writes the bytes pg-protocol writes for %s', (statement, values) => {
    const expected = Buffer.concat([
      protocol.serialize.bind({ statement, values }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]);
    expect(bindExecuteSync(statement, values).equals(expected)).toBe(true);
  });
});
