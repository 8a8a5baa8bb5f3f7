import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { rethrowDataError, withSavepoint, type Db, type DbHandle, type QueryResult } from './db.js';
import { Mutex } from './mutex.js';

export interface PgliteOptions {
  /** Directory of the database files; null keeps everything in memory. */
  dataDir: string | null;
}

/**
 * Embedded PostgreSQL. PGlite has one connection, so every top-level query
 * and every transaction takes one lock in arrival order: two requests never
 * interleave statements inside one transaction.
 */
export async function openPglite(options: PgliteOptions): Promise<DbHandle> {
  if (options.dataDir !== null) mkdirSync(options.dataDir, { recursive: true });
  const pg = options.dataDir === null ? await PGlite.create() : await PGlite.create(options.dataDir);
  const lock = new Mutex();
  // Marks code running inside one of this database's transactions, where the
  // outer handle would wait for its own lock forever.
  const inTransaction = new AsyncLocalStorage<true>();

  const run = async <T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
    const result = await pg.query<T>(sql, params ? [...params] : undefined).catch(rethrowDataError);
    return { rows: result.rows, rowCount: Math.max(result.rows.length, result.affectedRows ?? 0) };
  };

  const tx: Db = {
    driver: 'pglite',
    query: run,
    exec: async (sql) => {
      await pg.exec(sql);
    },
    transaction: (fn) => withSavepoint(tx, fn),
  };

  const guard = (): void => {
    if (inTransaction.getStore()) {
      throw new Error('database used directly inside its own transaction: use the transaction handle');
    }
  };

  return {
    driver: 'pglite',
    query: <T>(sql: string, params?: readonly unknown[]) => {
      guard();
      return lock.run(() => run<T>(sql, params));
    },
    exec: (sql) => {
      guard();
      return lock.run(() => pg.exec(sql).then(() => undefined));
    },
    transaction: <T>(fn: (tx: Db) => Promise<T>) => {
      guard();
      return lock.run(() =>
        inTransaction.run(true, async () => {
          await pg.query('BEGIN');
          let result: T;
          try {
            result = await fn(tx);
          } catch (error) {
            await pg.query('ROLLBACK');
            throw error;
          }
          await commit(pg);
          return result;
        }),
      );
    },
    close: () => lock.run(() => pg.close()),
  };
}

async function commit(pg: PGlite): Promise<void> {
  try {
    // PostgreSQL answers COMMIT of an aborted transaction with a silent
    // ROLLBACK, which PGlite does not report: probe for that state first.
    await pg.query('SELECT 1');
    await pg.query('COMMIT');
  } catch (error) {
    await pg.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
