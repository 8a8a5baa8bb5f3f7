import { ApiError } from '../errors.js';
/** The one database interface every handler and repository uses. */
export interface QueryResult<T> {
  rows: T[];
  /** Rows returned, or rows changed by INSERT/UPDATE/DELETE. */
  rowCount: number;
}

export interface Db {
  readonly driver: 'pglite' | 'postgres';
  /** One statement, PostgreSQL dialect, `$1` parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Several statements, no parameters (migrations, scripts). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in a transaction: COMMIT when it resolves, ROLLBACK when it
   * throws. Use only `tx` inside; called on a transaction it opens a savepoint.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Only on a root handle, never a transaction's: the committed changes to
   * the tables of migrations 0005 and 0007. A change this process commits is
   * known before the promise of the statement that committed it resolves;
   * on PostgreSQL, other sessions' changes arrive as PostgreSQL signals them
   * (server/docs/change-feed.md).
   */
  readonly changes?: ChangeFeed;
}

/**
 * Committed changes, by table name: `cache_version` (any table of the shared
 * caches), `users`, `user_messages`, `custom_profile_values` (migration
 * 0005), `messages`, `message_edits`, `reactions`, `submessages`,
 * `recipient_members`, `channels` (0007), or `*` when a
 * statement may have changed anything (one not run through the driver's own
 * protocol path, such as `exec`). A rolled-back change is never reported.
 */
export interface ChangeFeed {
  /** Calls `listener` synchronously for every change; returns the function that stops it. */
  subscribe(listener: (table: string) => void): () => void;
  /**
   * Whether every committed change reaches the listeners now. PGlite's
   * always does; PostgreSQL's does not while its listening connection is
   * down, and reports `*` when it is back. While false, nothing may be
   * served that only the feed would have dropped.
   */
  readonly following: boolean;
}

/** An open database: a Db that owns its connections. */
export interface DbHandle extends Db {
  close(): Promise<void>;
}

/** Current UNIX time in whole seconds, the unit of every stored time. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

let savepointCounter = 0;

/** Nested transaction on an already open one, shared by both drivers. */
export async function withSavepoint<T>(tx: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  const name = `sp_${++savepointCounter}`;
  await tx.query(`SAVEPOINT ${name}`);
  try {
    const result = await fn(tx);
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    throw error;
  }
}

/** Whether the error is PostgreSQL's unique_violation (both drivers report the SQLSTATE as `code`). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * SQLSTATE codes that only a client's values can cause (a number beyond the
 * column's range, a NUL character in text): they become BAD_REQUEST instead
 * of a server error.
 */
const CLIENT_DATA_ERRORS: Record<string, string> = {
  '22003': 'A number in the request is out of range',
  '22021': 'The request contains characters that cannot be stored (such as NUL)',
  '22P05': 'The request contains characters that cannot be stored (such as NUL)',
};

/** Rethrows a database error, as BAD_REQUEST when the client's data caused it. */
export function rethrowDataError(error: unknown): never {
  const code = (error as { code?: unknown } | null)?.code;
  const message = typeof code === 'string' ? CLIENT_DATA_ERRORS[code] : undefined;
  if (message) throw new ApiError('BAD_REQUEST', message);
  throw error;
}
