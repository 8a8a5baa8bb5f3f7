/**
 * PGlite has no autovacuum, so the driver keeps the planner's statistics
 * current itself: a short while after rows change, each table whose changes
 * pass the threshold (1,000 + 10% of its rows) is analysed, one
 * statement at a time under the driver's lock, never inside a transaction,
 * never after close(). One database for the file, with a short delay.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbHandle } from '../../server/store/db.js';
import { openPglite } from '../../server/store/pglite.js';

const DELAY = 150;
let db: DbHandle;
let other: DbHandle | undefined;

beforeAll(async () => {
  db = await openPglite({ dataDir: null, checkHandleUse: true, analyzeDelayMs: DELAY });
  await db.query('CREATE TABLE grown (id integer PRIMARY KEY, kind integer NOT NULL)');
  await db.query('CREATE TABLE small (id integer PRIMARY KEY)');
  await db.query('CREATE TABLE held (id integer PRIMARY KEY)');
}, 60_000);

afterAll(async () => {
  await db?.close();
  await other?.close();
});

afterEach(() => vi.restoreAllMocks());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function lastAnalyze(table: string): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>('SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = $1', [table]);
  return rows[0]!.at;
}

/** Waits until `table` has been analysed, or fails after a few seconds. */
async function analysed(table: string): Promise<Date> {
  for (let waited = 0; waited < 5000; waited += 50) {
    const at = await lastAnalyze(table);
    if (at) return at;
    await sleep(50);
  }
  throw new Error(`${table} was not analysed`);
}

async function estimatedRows(sql: string): Promise<number> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
  return Number(/rows=(\d+)/.exec(rows[0]!['QUERY PLAN'])![1]);
}

describe('PGlite keeps its statistics current', () => {
  it('analyses a table once its changes pass the threshold, and the plans follow the data', async () => {
    // Every row has kind 1: without statistics the planner guesses an equality matches 0.5% of them.
    await db.query('INSERT INTO grown SELECT g, 1 FROM generate_series(1, 5000) g');
    await db.query('INSERT INTO small SELECT g FROM generate_series(1, 900) g');
    expect(await estimatedRows('SELECT * FROM grown WHERE kind = 1')).toBeLessThan(500);
    await analysed('grown');
    expect(await estimatedRows('SELECT * FROM grown WHERE kind = 1')).toBeGreaterThan(4500);
    // 900 changed rows are below the threshold (1,000 for a table never analysed): left alone.
    expect(await lastAnalyze('small')).toBeNull();
  });

  it('analyses again only after another tenth of the table changed', async () => {
    const first = await analysed('grown');
    await db.query('UPDATE grown SET kind = 2 WHERE id <= 300'); // below 1,000 + 500
    await sleep(DELAY * 3);
    expect(await lastAnalyze('grown')).toEqual(first);
    await db.query('UPDATE grown SET kind = 2 WHERE id <= 3000');
    for (let waited = 0; (await lastAnalyze('grown'))!.getTime() === first.getTime(); waited += 50) {
      if (waited > 5000) throw new Error('grown was not analysed again');
      await sleep(50);
    }
    expect(await estimatedRows('SELECT * FROM grown WHERE kind = 2')).toBeGreaterThan(2500);
  });

  it('never runs inside a transaction: it waits for the lock the transaction holds', async () => {
    await db.query('INSERT INTO held SELECT g FROM generate_series(1, 2000) g');
    // The check is due in DELAY ms; the transaction holds the lock well past it.
    const inside = await db.transaction(async (tx) => {
      await sleep(DELAY * 4);
      const { rows } = await tx.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'held'`);
      return rows[0]!.reltuples;
    });
    expect(inside).toBe(-1); // never analysed while the transaction ran
    await analysed('held');
  });

  it('close() with a check pending or waiting for the lock neither throws nor runs it afterwards', async () => {
    const errors = vi.spyOn(console, 'error');
    for (const waitingForLock of [false, true]) {
      other = await openPglite({ dataDir: null, analyzeDelayMs: waitingForLock ? 1 : DELAY });
      await other.query('CREATE TABLE t (id integer PRIMARY KEY)');
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      // A transaction that holds the lock until it is told to finish; its changes arm the check.
      const transaction = other.transaction(async (tx) => {
        await tx.query('INSERT INTO t SELECT g FROM generate_series(1, 2000) g');
        if (waitingForLock) await gate;
      });
      if (waitingForLock) await sleep(50); // the check fired and waits for the lock
      else await transaction;
      const closing = other.close();
      open();
      await expect(transaction).resolves.toBeUndefined();
      await expect(closing).resolves.toBeUndefined();
      other = undefined;
      await sleep(DELAY * 2);
    }
    expect(errors).not.toHaveBeenCalled();
  }, 60_000);

  it('can be turned off', async () => {
    other = await openPglite({ dataDir: null, autoAnalyze: false, analyzeDelayMs: 1 });
    await other.query('CREATE TABLE t (id integer PRIMARY KEY)');
    await other.query('INSERT INTO t SELECT g FROM generate_series(1, 2000) g');
    await sleep(300);
    const { rows } = await other.query<{ at: Date | null }>(`SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 't'`);
    expect(rows[0]!.at).toBeNull();
    await other.close();
    other = undefined;
  }, 60_000);
});
