import pg from 'pg';
import { rethrowDataError, withSavepoint, type Db, type DbHandle, type QueryResult } from './db.js';

type TypeId = Parameters<typeof pg.types.getTypeParser>[0];
const INT8 = 20;
const INT8_ARRAY = 1016 as TypeId;

// Ids and UNIX seconds fit in a double; return numbers like PGlite does.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return (text: string) => Number(text);
    if (oid === INT8_ARRAY) {
      const parseTextArray = pg.types.getTypeParser(INT8_ARRAY, 'text') as (text: string) => (string | null)[];
      return (text: string) => parseTextArray(text).map((item) => (item === null ? null : Number(item)));
    }
    return pg.types.getTypeParser(oid as TypeId, format ?? 'text');
  }) as typeof pg.types.getTypeParser,
};

// Past this many distinct statement texts, new ones are no longer prepared (narrows build their SQL).
const MAX_PREPARED = 2000;
const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

export interface PostgresOptions {
  url: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

/** PostgreSQL server through a `pg` connection pool. */
export async function openPostgres(options: PostgresOptions): Promise<DbHandle> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, types });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => undefined);
  // Fail at startup, not on the first request, when the server is unreachable.
  (await pool.connect()).release();

  // Every statement but transaction control is prepared under a name; each
  // pooled connection parses and plans it once and reuses it from then on.
  const names = new Map<string, string>();
  const statement = (sql: string, params?: readonly unknown[]): pg.QueryConfig => {
    if (CONTROL.test(sql)) return { text: sql, ...(params?.length && { values: [...params] }) };
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_PREPARED) names.set(sql, (name = `s${names.size + 1}`));
    return { text: sql, values: params ? [...params] : [], ...(name !== undefined && { name }) };
  };
  const queryOn = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
    const result = await client.query(statement(sql, params)).catch(rethrowDataError);
    return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
  };

  return {
    driver: 'postgres',
    query: (sql, params) => queryOn(pool, sql, params),
    exec: async (sql) => {
      await pool.query(sql);
    },
    transaction: async <T>(fn: (tx: Db) => Promise<T>): Promise<T> => {
      const client = await pool.connect();
      const tx: Db = {
        driver: 'postgres',
        query: (sql, params) => queryOn(client, sql, params),
        exec: async (sql) => {
          await client.query(sql);
        },
        transaction: (inner) => withSavepoint(tx, inner),
      };
      // A client whose ROLLBACK failed is in an unknown state: destroy it.
      let unusable: Error | undefined;
      try {
        await client.query('BEGIN');
        let result: T;
        try {
          result = await fn(tx);
        } catch (error) {
          await client.query('ROLLBACK').catch((rollbackError: Error) => (unusable = rollbackError));
          throw error;
        }
        const committed = await client.query('COMMIT');
        // COMMIT of a transaction with a failed statement answers ROLLBACK.
        if (committed.command === 'ROLLBACK') throw new Error('transaction aborted by an earlier error and rolled back');
        return result;
      } finally {
        client.release(unusable);
      }
    },
    close: () => pool.end(),
  };
}
