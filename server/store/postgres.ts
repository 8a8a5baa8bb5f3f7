import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { rethrowDataError, withSavepoint, type ChangeFeed, type Db, type DbHandle, type QueryResult } from './db.js';

type TypeId = Parameters<typeof pg.types.getTypeParser>[0];
type Parser = (text: string) => unknown;
const INT8 = 20;
const INT8_ARRAY = 1016 as TypeId;

// Ids and UNIX seconds fit in a double; return numbers like PGlite does.
const parseInt8: Parser = (text) => Number(text);
const parseTextArray = pg.types.getTypeParser(INT8_ARRAY, 'text') as (text: string) => (string | null)[];
const parseInt8Array: Parser = (text) => parseTextArray(text).map((item) => (item === null ? null : Number(item)));
const INT2_ARRAY = 1005 as TypeId;
const INT4_ARRAY = 1007 as TypeId;

/**
 * A one-dimensional array of integers without NULLs, as PostgreSQL writes
 * it ("{1,-2,3}"), read in one pass; anything else (NULL, nesting, more
 * than 15 digits) goes to `fallback`, pg's parser. pg's own took about
 * 9 µs for 100 ids (flags-for-narrow returns its range as one), this 2.
 */
export function parseIntegerArray(text: string, fallback: Parser): unknown {
  const end = text.length - 1;
  if (text.charCodeAt(0) !== 123 || text.charCodeAt(end) !== 125) return fallback(text);
  const values: number[] = [];
  if (end === 1) return values;
  let value = 0;
  let digits = 0;
  let negative = false;
  for (let i = 1; i <= end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits++;
    } else if (code === 44 || i === end) {
      if (digits === 0 || digits > 15) return fallback(text);
      values.push(negative ? -value : value);
      value = 0;
      digits = 0;
      negative = false;
    } else if (code === 45 && digits === 0 && !negative) negative = true;
    else return fallback(text);
  }
  return values;
}

const parseInt2Array = pg.types.getTypeParser(INT2_ARRAY, 'text') as Parser;
const parseInt4Array = pg.types.getTypeParser(INT4_ARRAY, 'text') as Parser;
const integerArrays = new Map<number, Parser>([
  [INT2_ARRAY, (text) => parseIntegerArray(text, parseInt2Array)],
  [INT4_ARRAY, (text) => parseIntegerArray(text, parseInt4Array)],
  [INT8_ARRAY, (text) => parseIntegerArray(text, parseInt8Array)],
]);
const getTypeParser = (oid: number, format?: 'text' | 'binary'): Parser => {
  if (oid === INT8) return parseInt8;
  const integers = integerArrays.get(oid);
  if (integers) return integers;
  return pg.types.getTypeParser(oid as TypeId, format ?? 'text') as Parser;
};
const types = { getTypeParser: getTypeParser as typeof pg.types.getTypeParser };

// Past this many distinct statement texts, new ones are no longer prepared (narrows build their SQL).
const MAX_PREPARED = 2000;
const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

// What `pg` turns a parameter into (its Query does the same through `utils.prepareValue`).
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): Buffer | string | null } }).utils.prepareValue;
if (typeof prepareValue !== 'function') throw new Error('this version of pg has no utils.prepareValue');

/** The parts of pg's Connection (one per client, replaced when the client is) that a prepared execution uses. */
interface Connection {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  stream: { cork?(): void; uncork?(): void };
  parse(message: { text: string; name: string; types: never[] }): void;
  bind(message: { portal: string; statement: string; values: (Buffer | string | null)[] }): void;
  describe(message: { type: 'P' | 'S'; name: string }): void;
  execute(message: { portal: string; rows?: number }): void;
  close(message: { type: 'P' | 'S'; name: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/** The result columns of a prepared statement, as PostgreSQL described them on first use. */
interface Description {
  names: string[];
  parsers: Parser[];
  /** Every column null, in order: rows start as a copy of it (the shape pg's rows have). */
  template: Record<string, null>;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
}

function describe(fields: readonly FieldDescription[]): Description {
  const template: Record<string, null> = {};
  for (const field of fields) template[field.name] = null;
  return { names: fields.map((field) => field.name), parsers: fields.map((field) => getTypeParser(field.dataTypeID, 'text')), template };
}

const NO_COLUMNS: Description = { names: [], parsers: [], template: {} };

/**
 * Per connection: the descriptions of its prepared statements, and the
 * statements PostgreSQL refused to run again after a schema change (to be
 * closed and parsed anew). A connection that drops is replaced with its
 * client, and its entries go with it.
 */
interface ConnectionState {
  described: Map<string, Description>;
  stale: Set<string>;
}
const states = new WeakMap<Connection, ConnectionState>();
function stateOf(connection: Connection): ConnectionState {
  let state = states.get(connection);
  if (state === undefined) states.set(connection, (state = { described: new Map(), stale: new Set() }));
  return state;
}

// SQLSTATE feature_not_supported: "cached plan must not change result type".
const PLAN_CHANGED = '0A000';

// As pg's Result reads the command tag: "SELECT 3", "INSERT 0 1", "UPDATE 2".
const COMMAND_TAG = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;

/**
 * One execution of a named statement, submitted to a pg client as its Query
 * would be (pg calls `submit` and the `handle*` methods; `name` and `text`
 * feed its bookkeeping of parsed statements). pg's Query sends Describe and
 * rebuilds the result's column parsers on every execution; this sends
 * Parse and Describe only the first time on a connection, then Bind,
 * Execute and Sync, and parses rows with the stored description. A
 * description is stored only after an execution that succeeded, and
 * dropped after any error, so the next execution describes again.
 */
class PreparedExecution {
  callback?: (error: Error | null, result?: QueryResult<unknown>) => void;
  private description: Description | undefined;
  private describing = false;
  private readonly rows: Record<string, unknown>[] = [];
  private rowCount: number | null = null;
  private rowError: Error | undefined;
  private state: ConnectionState | undefined;
  /** Whether this execution used a statement parsed by an earlier one. */
  private reused = false;
  /** Whether it failed because its statement's result type changed, and it was dropped: it did not run, and may be sent again. */
  replanned = false;

  constructor(
    readonly name: string,
    readonly text: string,
    private readonly values: readonly unknown[],
  ) {}

  submit(connection: Connection): Error | null {
    const { name, text } = this;
    const state = (this.state = stateOf(connection));
    const parsed = connection.parsedStatements[name] ?? connection.submittedNamedStatements[name];
    if (parsed !== undefined && parsed !== text) return new Error(`prepared statement ${name} was used for another text`);
    let values: (Buffer | string | null)[];
    try {
      // Before anything is written: a value that cannot be sent fails this query alone.
      values = this.values.map(prepareValue);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
    this.reused = parsed !== undefined;
    this.description = parsed === undefined ? undefined : state.described.get(name);
    this.describing = this.description === undefined;
    connection.stream.cork?.();
    try {
      if (parsed === undefined) {
        if (state.stale.delete(name)) connection.close({ type: 'S', name });
        connection.parse({ text, name, types: [] });
        connection.submittedNamedStatements[name] = text;
      }
      connection.bind({ portal: '', statement: name, values });
      if (this.describing) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    this.description = describe(message.fields);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.rowError) return;
    const { names, parsers, template } = this.description!;
    const row: Record<string, unknown> = { ...template };
    const fields = message.fields;
    try {
      for (let i = 0; i < fields.length; i++) {
        const text = fields[i]!;
        row[names[i]!] = text === null ? null : parsers[i]!(text);
      }
    } catch (error) {
      this.rowError = error as Error;
      return;
    }
    this.rows.push(row);
  }

  handleCommandComplete(message: { text: string }): void {
    const match = COMMAND_TAG.exec(message.text);
    const count = match?.[3] ?? match?.[2];
    if (count !== undefined) this.rowCount = parseInt(count, 10);
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleError(error: Error & { code?: string }, connection?: Connection): void {
    this.state?.described.delete(this.name);
    // "cached plan must not change result type": the schema changed under a
    // statement prepared earlier, and PostgreSQL will not run it again. Close
    // it and parse it anew on the next execution (pg alone would keep
    // binding it and failing).
    if (this.reused && error.code === PLAN_CHANGED && this.state !== undefined && connection !== undefined) {
      this.state.stale.add(this.name);
      delete connection.parsedStatements[this.name];
      this.replanned = true;
    }
    const callback = this.callback;
    this.callback = undefined;
    callback?.(error);
  }

  handleReadyForQuery(connection: Connection): void {
    if (this.rowError) return this.handleError(this.rowError, connection);
    if (this.describing) this.state!.described.set(this.name, this.description ?? NO_COLUMNS);
    const callback = this.callback;
    this.callback = undefined;
    callback?.(null, { rows: this.rows, rowCount: this.rowCount ?? this.rows.length });
  }

  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}
}

export interface PostgresOptions {
  url: string;
  /** Pool size; default 10. */
  maxConnections?: number;
  /**
   * Follow committed changes (migrations 0005, 0007, 0011) through LISTEN, so
   * the shared cache may keep authentications and message views
   * (server/docs/change-feed.md); default true. Without it `changes` is
   * absent and every request reads what it needs.
   */
  followChanges?: boolean;
}

/** The channel the triggers of migrations 0005 and 0007 notify on. */
export const CHANGES_CHANNEL = 'teamchat_changes';
/** application_name of the connection that listens for other sessions' changes. */
export const LISTENER_APPLICATION_NAME = 'teamchat-changes';
// Waits before connecting the listening connection again, after it was lost.
const RELISTEN_DELAYS_MS = [50, 200, 1000, 5000, 30_000];
// Payloads the listening connection sends itself through the pool to check that notifications arrive.
const PROBE_PREFIX = 'probe:';
const PROBE_TIMEOUT_MS = 5000;

/**
 * Committed changes on a PostgreSQL server that other processes change too.
 * Every pooled connection LISTENs, so a change this process commits is
 * reported in the answer of the statement or COMMIT that committed it,
 * before its promise resolves, as on PGlite. Changes other sessions commit
 * reach a connection of its own that does nothing but listen: PostgreSQL
 * signals listening sessions when a change commits, before the committing
 * session is told. While that connection is down, the feed is not
 * `following` (the shared cache keeps nothing it would need it for); when
 * it is back it reports `*`, since anything may have changed meanwhile.
 */
function followChanges(
  options: PostgresOptions,
  probe: (token: string) => Promise<unknown>,
): ChangeFeed & {
  /**
   * Makes a new pooled connection listen, before the pool hands it out:
   * its own changes are reported on it, and not again by the listener.
   */
  adopt(client: pg.ClientBase): Promise<void>;
  forget(client: pg.ClientBase): void;
  start(): Promise<void>;
  stop(): Promise<void>;
} {
  const listeners = new Set<(table: string) => void>();
  // Backend process ids of the pooled connections that listen; PostgreSQL sends a notification to every
  // listening session, each naming the session that committed it.
  const pooled = new Set<number>();
  let following = false;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  const report = (table: string): void => {
    for (const listener of listeners) listener(table);
  };
  const lost = (failed: pg.Client): void => {
    if (client !== failed) return;
    client = undefined;
    failed.end().catch(() => undefined);
    if (following) {
      following = false;
      report('*');
    }
    if (stopped) return;
    retry = setTimeout(() => void connect(), RELISTEN_DELAYS_MS[Math.min(failures++, RELISTEN_DELAYS_MS.length - 1)]);
    retry.unref();
  };
  const connect = async (): Promise<void> => {
    retry = undefined;
    const listening = new pg.Client({ connectionString: options.url, application_name: LISTENER_APPLICATION_NAME, keepAlive: true });
    client = listening;
    listening.on('error', () => lost(listening));
    listening.on('end', () => lost(listening));
    const token = `${PROBE_PREFIX}${randomUUID()}`;
    let probed!: () => void;
    const heard = new Promise<void>((resolve) => (probed = resolve));
    listening.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL || client !== listening) return;
      if (message.payload === token) return probed();
      if (!following || pooled.has(message.processId) || message.payload?.startsWith(PROBE_PREFIX)) return;
      report(message.payload ?? '*');
    });
    try {
      await listening.connect();
      await listening.query(`LISTEN ${CHANGES_CHANNEL}`);
      // Follow only once a notification sent from another connection has arrived: a pooler in
      // transaction mode, for one, accepts LISTEN and never delivers anything.
      await probe(token);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no notification')), PROBE_TIMEOUT_MS)));
      await Promise.race([heard, late]).finally(() => clearTimeout(timer));
    } catch {
      return lost(listening);
    }
    if (client !== listening || stopped) return;
    failures = 0;
    following = true;
    // What changed while no connection listened is unknown.
    report('*');
  };
  return {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    get following() {
      return following;
    },
    adopt: (pooledClient) => {
      const own = (pooledClient as unknown as { processID: number }).processID;
      pooledClient.on('notification', (message) => {
        if (message.channel !== CHANGES_CHANNEL || message.processId !== own || !following) return;
        if (!message.payload?.startsWith(PROBE_PREFIX)) report(message.payload ?? '*');
      });
      // Done before the pool hands the connection out, so every change
      // committed through it is reported with the answer that commits it.
      // A connection that cannot listen is still used; its changes then
      // reach this process through the listener like anyone else's.
      return pooledClient.query(`LISTEN ${CHANGES_CHANNEL}`).then(
        () => void pooled.add(own),
        () => undefined,
      );
    },
    forget: (pooledClient) => {
      pooled.delete((pooledClient as unknown as { processID: number }).processID);
    },
    start: connect,
    stop: async () => {
      stopped = true;
      following = false;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

/** PostgreSQL server through a `pg` connection pool. */
export async function openPostgres(options: PostgresOptions): Promise<DbHandle> {
  let changes: ReturnType<typeof followChanges> | undefined;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    types,
    // pg-pool waits for this before it hands a new connection out.
    onConnect: (client: pg.ClientBase) => changes?.adopt(client),
  });
  // A client losing its connection must not crash the process, idle (the
  // pool's event) or checked out (the client's; its query fails, and the
  // pool drops it when it is released).
  pool.on('error', () => undefined);
  changes =
    options.followChanges === false
      ? undefined
      : followChanges(options, (token) => pool.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, token]));
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('remove', (client) => changes?.forget(client));
  // Fail at startup, not on the first request, when the server is unreachable.
  (await pool.connect()).release();
  await changes?.start();

  // Every statement but transaction control is prepared under a name; each
  // pooled connection parses and plans it once and reuses it from then on.
  const names = new Map<string, string>();
  const nameOf = (sql: string): string | undefined => {
    if (CONTROL.test(sql)) return undefined;
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_PREPARED) names.set(sql, (name = `s${names.size + 1}`));
    return name;
  };
  const unprepared = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
    const result = await client.query({ text: sql, ...(params?.length && { values: [...params] }) }).catch(rethrowDataError);
    return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
  };
  const execute = <T>(client: pg.PoolClient, name: string, sql: string, params: readonly unknown[]): Promise<QueryResult<T>> =>
    new Promise<QueryResult<T>>((resolve, reject) => {
      const execution = new PreparedExecution(name, sql, params);
      execution.callback = (error, result) => (error ? reject(error) : resolve(result as QueryResult<T>));
      client.query(execution as unknown as pg.Submittable);
    }).catch(rethrowDataError);
  const queryOn = <T>(client: pg.PoolClient, sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
    const name = nameOf(sql);
    return name === undefined ? unprepared(client, sql, params) : execute(client, name, sql, params ?? []);
  };
  // Outside a transaction, each prepared statement checks a client out for
  // itself and returns it as soon as PostgreSQL answers (without the promise
  // and listeners of pool.query, and without dropping the connection, as
  // pool.query does, when a statement fails).
  const queryPool = <T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
    const name = nameOf(sql);
    if (name === undefined) return unprepared(pool, sql, params);
    return new Promise<QueryResult<T>>((resolve, reject) => {
      pool.connect((connectError, client, release) => {
        if (connectError || !client) return reject(connectError ?? new Error('no PostgreSQL client'));
        const send = (retry: boolean) => {
          const execution = new PreparedExecution(name, sql, params ?? []);
          execution.callback = (error, result) => {
            if (!error) {
              release();
              return resolve(result as QueryResult<T>);
            }
            // Outside a transaction, a statement refused for a schema change
            // did nothing: send it once more, on this connection, prepared anew.
            if (retry && execution.replanned) return send(false);
            // The connection stays in the pool after a statement's error
            // (severity ERROR); anything else (FATAL, a socket error, a row
            // that failed to parse) may have left it unusable: drop it.
            release((error as { severity?: unknown }).severity === 'ERROR' ? undefined : error);
            try {
              rethrowDataError(error);
            } catch (translated) {
              reject(translated as Error);
            }
          };
          client.query(execution as unknown as pg.Submittable);
        };
        send(true);
      });
    });
  };

  return {
    driver: 'postgres',
    ...(changes && { changes: { subscribe: changes.subscribe, get following() { return changes.following; } } }),
    query: queryPool,
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
    close: async () => {
      await changes?.stop();
      await pool.end();
    },
  };
}
