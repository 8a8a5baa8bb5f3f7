import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, parse, protocol, types } from '@electric-sql/pglite';
import { rethrowDataError, withSavepoint, type ChangeFeed, type Db, type DbHandle, type QueryResult } from './db.js';
import { Mutex } from './mutex.js';

export interface PgliteOptions {
  /** Directory of the database files; null keeps everything in memory. */
  dataDir: string | null;
  /**
   * Refuse, instead of waiting forever, when code inside a transaction uses
   * the outer handle. Costs an AsyncLocalStorage (promise hooks for the whole
   * process), so tests turn it on and the server does not.
   */
  checkHandleUse?: boolean;
  /**
   * Keep the planner's statistics current, as PostgreSQL's autovacuum would
   * (PGlite has none): a few seconds after rows change, ANALYZE each table
   * whose changes since its last analysis pass 1,000 rows + 10% of its rows
   * (autovacuum's rule with a larger base). On by default; tests that
   * measure the planner's default estimates turn it off.
   */
  autoAnalyze?: boolean;
  /** Milliseconds from a change to the check (default 5,000); tests shorten it. */
  analyzeDelayMs?: number;
}

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];

type Parser = (text: string, typeId: number) => unknown;

/**
 * A statement prepared once under a name: its parameter types choose each
 * value's text form, its result columns (null: it returns no rows) how each
 * row is read, so calls need not ask PostgreSQL to describe them again.
 */
interface Prepared {
  name: string;
  paramTypes: number[];
  columns: { name: string; typeId: number; parse: Parser | undefined }[] | null;
}

// Named statements live as long as the database; past this many distinct texts, statements are no longer kept.
const MAX_PREPARED = 2000;
// Transaction control goes through the simple protocol: no parameters, nothing to prepare.
const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
// Commands whose CommandComplete tag ends with the number of rows changed.
const CHANGES = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** The DatabaseError PGlite's protocol parser makes of the first ErrorResponse in these bytes, as a BAD_REQUEST when the client's data caused it. */
function errorOf(data: Uint8Array): never {
  let error: unknown;
  new protocol.Parser().parse(data, (message) => {
    if (error === undefined && message.name === 'error') error = message;
  });
  return rethrowDataError(error ?? new Error("the database answered with an error it did not describe"));
}

/**
 * Rows a table must change, beyond a tenth of its rows, before it is
 * analysed. Autovacuum's rule with its scale factor (0.1), but a base of
 * 1,000 rows instead of its 50: on PGlite an ANALYZE holds the one session,
 * so every request waits for it (20-90 ms measured), and on tables this
 * small the planner's default estimates serve as well (server/docs/pglite-statistics.md).
 */
const ANALYZE_BASE_THRESHOLD = 1000;
/**
 * Tables due for analysis by that rule (a table never analysed counts 0
 * rows), read from the cumulative statistics, which PGlite keeps like any
 * server.
 */
const TABLES_TO_ANALYZE = `SELECT format('%I.%I', s.schemaname, s.relname) AS name
FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
WHERE s.n_mod_since_analyze > ${ANALYZE_BASE_THRESHOLD} + 0.1 * greatest(c.reltuples, 0)`;
// The statistics a session collects reach the shared counters when it goes idle, at most once a second
// (a server flushes the rest on a timer, which PGlite's single session never runs): flush them first.
const FLUSH_STATISTICS = 'SELECT pg_stat_force_next_flush()';
const ANALYZE_DELAY_MS = 5000;

// The channel migration 0005's triggers notify, and the session setting that turns them on.
const CHANGES_CHANNEL = 'teamchat_changes';

// Data directories this process has open: a second open of one would be a second, unsynchronised database.
const openHere = new Set<string>();

/**
 * Claims a data directory for this process (a pid file inside it), or
 * refuses: PGlite keeps pages in its own memory, so a second process (or a
 * second open in this one) writing the same files would lose or corrupt
 * data, and this process's change feed would miss its changes. A file left
 * by a process that is gone (killed, crashed) is taken over.
 */
function claim(dataDir: string): () => void {
  const file = join(dataDir, 'teamchat.pid');
  if (openHere.has(file)) throw new Error(`the embedded database in ${dataDir} is already open in this process`);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new Error(
          `the embedded database in ${dataDir} is in use by process ${owner}: stop it first (or remove ${file} if that process is not a teamchat server)`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  openHere.add(file);
  return () => {
    openHere.delete(file);
    rmSync(file, { force: true });
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Execute (unnamed portal, every row) and Sync: the same bytes after every Bind.
const EXECUTE_SYNC = Buffer.concat([protocol.serialize.execute({}), protocol.serialize.sync()]);

/**
 * Bind (unnamed portal, the named statement, every parameter and every
 * result column as text), Execute and Sync in one buffer: the bytes
 * `serialize.bind`, `serialize.execute` and `serialize.sync` write, without
 * their general-purpose writer (a few microseconds per statement).
 */
export function bindExecuteSync(statement: string, values: readonly (string | null)[]): Buffer {
  const lengths = values.map((value) => (value === null ? -1 : Buffer.byteLength(value)));
  let size = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 * values.length + 2 + 2;
  for (const length of lengths) size += 4 + Math.max(length, 0);
  const out = Buffer.allocUnsafe(1 + size + EXECUTE_SYNC.length);
  let at = out.writeUInt8(0x42 /* B */, 0);
  at = out.writeInt32BE(size, at);
  at = out.writeUInt8(0, at); // portal ''
  at += out.write(statement, at);
  at = out.writeUInt8(0, at);
  at = out.writeInt16BE(values.length, at); // parameter format codes: text
  out.fill(0, at, at + 2 * values.length);
  at += 2 * values.length;
  at = out.writeInt16BE(values.length, at);
  for (let i = 0; i < values.length; i++) {
    at = out.writeInt32BE(lengths[i]!, at);
    if (lengths[i]! > 0) at += out.write(values[i]!, at);
  }
  at = out.writeInt16BE(0, at); // result format codes: none, so text
  EXECUTE_SYNC.copy(out, at);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Embedded PostgreSQL. PGlite has one connection, so every top-level query
 * and every transaction takes one lock (ours) in arrival order: two requests
 * never interleave statements inside one transaction. Below the lock we talk
 * to PGlite through its wire-protocol entry point, which takes no lock of
 * its own: each statement is parsed once under a name, and each later call
 * is one round trip into WASM (Bind, Describe, Execute, Sync in one message),
 * where `PGlite.query` makes six.
 *
 * Inside `transaction(fn)`, use only the handle `fn` receives: the outer
 * handle would wait for the lock the transaction holds (`checkHandleUse`
 * turns that mistake into an error).
 *
 * The database directory is this process's alone (a pid file refuses a
 * second opener), so every committed change is made through this handle:
 * its session LISTENs to migration 0005's notifications, which PostgreSQL
 * puts in the answer of the committing statement or COMMIT, and `changes`
 * reports them before that statement's promise resolves (server/docs/change-feed.md).
 *
 * PGlite has no autovacuum: the driver analyses tables itself by
 * autovacuum's rule (`autoAnalyze`, server/docs/pglite-statistics.md), so the plans of its
 * prepared statements follow the data as it grows.
 */
export async function openPglite(options: PgliteOptions): Promise<DbHandle> {
  if (options.dataDir !== null) mkdirSync(options.dataDir, { recursive: true });
  const release = options.dataDir === null ? () => undefined : claim(options.dataDir);
  let pg: PGlite;
  try {
    pg = options.dataDir === null ? await PGlite.create() : await PGlite.create(options.dataDir);
  } catch (error) {
    release();
    throw error;
  }
  const lock = new Mutex();
  const prepared = new Map<string, Prepared>();
  const { serialize } = protocol;

  // Statistics kept current (autoAnalyze): a change arms one timer; when it fires, the tables due
  // are analysed one statement at a time, each under the lock, so no transaction is ever open then.
  const autoAnalyze = options.autoAnalyze ?? true;
  const analyzeDelay = options.analyzeDelayMs ?? ANALYZE_DELAY_MS;
  let closed = false;
  let analyzeTimer: NodeJS.Timeout | null = null;
  let analyzing: Promise<void> | null = null;
  let analyzeFailed = false;
  const underLock = <T>(fn: () => Promise<T>): Promise<T | undefined> => lock.run(() => (closed ? Promise.resolve(undefined) : fn()));
  const analyzeDue = async (): Promise<void> => {
    analyzeTimer = null;
    try {
      const due = await underLock(async () => {
        await send(serialize.query(FLUSH_STATISTICS));
        return (await pg.query<{ name: string }>(TABLES_TO_ANALYZE)).rows;
      });
      for (const { name } of due ?? []) await underLock(() => send(serialize.query(`ANALYZE ${name}`)));
    } catch (error) {
      // Never a request's failure: said once, then tried again after the next changes.
      if (!analyzeFailed) console.error(`teamchat: could not analyse the embedded database's tables: ${(error as Error).message}`);
      analyzeFailed = true;
    }
  };
  const rowsChanged = (): void => {
    if (!autoAnalyze || analyzeTimer || closed) return;
    analyzeTimer = setTimeout(() => {
      analyzing = analyzeDue().finally(() => (analyzing = null));
    }, analyzeDelay);
    analyzeTimer.unref();
  };

  // Committed changes (migration 0005): this process is the database's only user (`claim`), so
  // every change reaches it, in the answer of the statement or COMMIT that committed it.
  const listeners = new Set<(table: string) => void>();
  const changed = (table: string): void => {
    for (const listener of listeners) listener(table);
  };
  const changes: ChangeFeed = {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    following: true,
  };

  // No syncToFs after each call: in memory and on Node's file system (NodeFS) PGlite writes
  // through and its syncToFs does nothing but take a lock; it matters only for browser stores.
  const send = async (message: Uint8Array): Promise<BackendMessage[]> => {
    const messages = (await pg.execProtocol(message, { syncToFs: false }).catch(rethrowDataError)).messages as BackendMessage[];
    for (const message of messages) {
      if (message.name !== 'notification') continue;
      const { channel, payload } = message as unknown as { channel: string; payload: string };
      if (channel === CHANGES_CHANNEL) changed(payload);
    }
    return messages;
  };

  const prepare = async (sql: string): Promise<Prepared> => {
    const name = `s${prepared.size + 1}`;
    const messages = await send(concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]));
    const description = messages.find((m) => m.name === 'rowDescription') as { fields: { name: string; dataTypeID: number }[] } | undefined;
    const statement: Prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      // The parsers PGlite.query applies to these types.
      columns:
        description?.fields.map((field) => ({
          name: field.name,
          typeId: field.dataTypeID,
          parse: (pg.parsers[field.dataTypeID] ?? (types.parsers as Record<number, Parser>)[field.dataTypeID]) as Parser | undefined,
        })) ?? null,
    };
    prepared.set(sql, statement);
    return statement;
  };

  const result = <T>(messages: BackendMessage[]): QueryResult<T> => {
    const [first] = parse.parseResults(messages, pg.parsers);
    const rows = (first?.rows ?? []) as T[];
    return { rows, rowCount: Math.max(rows.length, first?.affectedRows ?? 0) };
  };

  const run = async <T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
    if (!params?.length && CONTROL.test(sql)) return result<T>(await send(serialize.query(sql)));
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size >= MAX_PREPARED) {
        // PGlite's own path keeps the notifications to itself: count it as a change of anything.
        const fallback = await pg.query<T>(sql, params ? [...params] : undefined).finally(() => changed('*')).catch(rethrowDataError);
        if (fallback.affectedRows) rowsChanged();
        return { rows: fallback.rows, rowCount: Math.max(fallback.rows.length, fallback.affectedRows ?? 0) };
      }
      statement = await prepare(sql);
    }
    // The text forms PGlite.query itself sends for these types.
    const values = (params ?? []).map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[statement.paramTypes[i]!];
      return serializer ? (serializer(value) as string) : String(value);
    });
    return rowsOf<T>(statement, await sendRaw(bindExecuteSync(statement.name, values)));
  };

  // The hot path: the answer's bytes as PostgreSQL wrote them, not run through PGlite's message parser
  // (which builds an object per message and per field); rowsOf reads only what it needs.
  const sendRaw = async (message: Uint8Array): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    // The callback gets views into WASM memory, valid only during the call: copy.
    await pg.execProtocolRawStream(message, { syncToFs: false, onRawData: (bytes) => void chunks.push(Buffer.from(bytes)) });
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  };

  /**
   * Rows and changed-row count of an Execute's answer (BindComplete,
   * DataRow..., CommandComplete, ReadyForQuery). An ErrorResponse is handed to
   * PGlite's own parser so the error thrown is the same DatabaseError as
   * `PGlite.query` throws.
   */
  const rowsOf = <T>(statement: Prepared, data: Buffer): QueryResult<T> => {
    const rows: Record<string, unknown>[] = [];
    let affected = 0;
    const columns = statement.columns;
    for (let at = 0; at < data.length; ) {
      const type = data[at]!;
      const end = at + 1 + data.readInt32BE(at + 1);
      if (type === 0x44 /* D: DataRow */) {
        const row: Record<string, unknown> = {};
        let field = at + 7;
        for (let i = 0; i < columns!.length; i++) {
          const column = columns![i]!;
          const length = data.readInt32BE(field);
          field += 4;
          if (length < 0) row[column.name] = null;
          else {
            const text = data.toString('utf8', field, field + length);
            field += length;
            row[column.name] = column.parse ? column.parse(text, column.typeId) : text;
          }
        }
        rows.push(row);
      } else if (type === 0x43 /* C: CommandComplete */) {
        const words = data.toString('utf8', at + 5, end - 1).split(' ');
        if (CHANGES.has(words[0]!)) affected += Number(words.at(-1));
      } else if (type === 0x41 /* A: NotificationResponse (process id, channel, payload) */) {
        const channelEnd = data.indexOf(0, at + 9);
        if (data.toString('utf8', at + 9, channelEnd) === CHANGES_CHANNEL) changed(data.toString('utf8', channelEnd + 1, end - 1));
      } else if (type === 0x45 /* E: ErrorResponse */) {
        throw errorOf(data);
      }
      at = end;
    }
    if (affected > 0) rowsChanged();
    return { rows: rows as T[], rowCount: Math.max(rows.length, affected) };
  };

  // Marks code running inside one of this database's transactions (checkHandleUse only).
  const inTransaction = options.checkHandleUse ? new AsyncLocalStorage<true>() : null;
  const guard = (): void => {
    if (inTransaction?.getStore()) throw new Error('database used directly inside its own transaction: use the transaction handle');
  };

  const tx: Db = {
    driver: 'pglite',
    query: run,
    exec: async (sql) => {
      await pg.exec(sql);
      rowsChanged();
    },
    transaction: (fn) => withSavepoint(tx, fn),
  };

  // Before migrations add the triggers: until 0011, they notify only in a session with this setting on.
  await send(serialize.query(`SET teamchat.notify_changes = 'on'; LISTEN ${CHANGES_CHANNEL}`));

  return {
    driver: 'pglite',
    changes,
    query: <T>(sql: string, params?: readonly unknown[]) => {
      guard();
      return lock.run(() => run<T>(sql, params));
    },
    exec: (sql) => {
      guard();
      // PGlite's own path keeps the notifications to itself: count it as a change of anything.
      return lock.run(() => pg.exec(sql).finally(() => changed('*')).then(() => rowsChanged()));
    },
    transaction: <T>(fn: (tx: Db) => Promise<T>) => {
      guard();
      return lock.run(async () => {
        await run('BEGIN');
        let value: T;
        try {
          value = await (inTransaction ? inTransaction.run(true, () => fn(tx)) : fn(tx));
        } catch (error) {
          await run('ROLLBACK');
          throw error;
        }
        // COMMIT of a transaction with a failed statement answers ROLLBACK.
        const committed = await send(serialize.query('COMMIT'));
        if (committed.some((m) => m.name === 'commandComplete' && (m as { text?: string }).text === 'ROLLBACK')) {
          throw new Error('transaction aborted by an earlier error and rolled back');
        }
        return value;
      });
    },
    close: async () => {
      // A pending check never starts; a running one stops before its next statement.
      closed = true;
      if (analyzeTimer) clearTimeout(analyzeTimer);
      analyzeTimer = null;
      await analyzing;
      return lock.run(async () => {
        listeners.clear();
        try {
          await pg.close();
        } finally {
          release();
        }
      });
    },
  };
}

