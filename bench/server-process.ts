/**
 * Child process of the server benchmark (`tsx bench/server-process.ts <case set>`),
 * so the servers do not share an event loop with the load generator. Starts,
 * on 127.0.0.1 only:
 *   - `pglite` / `postgres`: the reference server (createApp, responses not
 *     validated, as in production) on a fresh database seeded with the demo
 *     organization plus 100 channel messages, and a bare Fastify app that
 *     answers the same requests with the bytes the real server sent;
 *   - `bindings`: the mock app (the generated bindings in front of handlers
 *     that do no I/O) and a bare Fastify app answering with its bytes.
 * Prints one JSON line describing the cases, then serves until stdin closes;
 * each `cpu` line on stdin is answered with the process's CPU time so far (µs),
 * each `dbcpu` line with the CPU time so far of the PostgreSQL server it
 * started (its postmaster and every child: backends, background workers; µs,
 * from /proc), or -1 where there is none or /proc cannot tell.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { maxFeatureLevel } from '../generated/server.js';
import { createApp } from '../server/app.js';
import { loadServerSecret } from '../server/auth/secret.js';
import { loadConfig } from '../server/config.js';
import { createMockApp } from '../server/mock.js';
import { seedDemoIfEmpty } from '../server/seed/demo.js';
import { CHANNEL, USER } from '../server/seed/demo-data.js';
import type { Db, DbHandle } from '../server/store/db.js';
import { insertMessage } from '../server/store/messages.js';
import { migrate } from '../server/store/migrate.js';
import { openPglite } from '../server/store/pglite.js';
import { openPostgres } from '../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from '../test/support/postgres.js';
import { addHistory, databaseTimeMs, MEMBER, NARROW_SHAPES, PGLITE_ANALYZE_DELAY_MS, PGLITE_ANALYZE_WAIT_MS, recording, type Captured } from './narrows.js';
import { processTreeCpuUs } from './stats.js';

export interface ServerCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Database statements one request runs (BEGIN and COMMIT included); absent for the mock. */
  statements?: number;
  /** Base URL of the server under test and of the bare Fastify app answering the same bytes. */
  subject: string;
  bare: string;
  /**
   * Load served before each round of this case, not measured (the narrows
   * section: a request that, before issue 22's fix, slowed the narrow after it).
   */
  after?: { name: string; path: string; seconds: number };
  /** The narrows section: database time of the request's statement (ms, bench/narrows.ts). */
  databaseMs?: number;
  /**
   * `bindings` only: a bare Fastify app answering the same body as an object,
   * serialised by Fastify (`JSON.stringify`) on every request, as the
   * bindings do: the floor for any server that serialises its answers.
   */
  bareJson?: string;
}

const RANGE = 100;

/** The database, counting the statements sent through it (a transaction counts its BEGIN and COMMIT). */
function counting(db: DbHandle): { db: DbHandle; count: { statements: number } } {
  const count = { statements: 0 };
  const wrap = (inner: Db): Db => ({
    driver: inner.driver,
    // The committed changes the caches follow (server/docs/change-feed.md).
    ...(inner.changes && { changes: inner.changes }),
    query: (sql, params) => {
      count.statements++;
      return inner.query(sql, params);
    },
    exec: (sql) => {
      count.statements++;
      return inner.exec(sql);
    },
    transaction: (fn) => {
      count.statements += 2;
      return inner.transaction((tx) => fn(wrap(tx)));
    },
  });
  return { db: { ...wrap(db), close: () => db.close() }, count };
}

/** A bare Fastify app answering each case with the bytes the subject sent, or (`json`) with that body as an object to serialise. */
async function bareTwin(subject: FastifyInstance, cases: Omit<ServerCase, 'subject' | 'bare'>[], json = false): Promise<FastifyInstance> {
  const bare = Fastify({ logger: false });
  const expected: [Omit<ServerCase, 'subject' | 'bare'>, string][] = [];
  const byRoute = new Map<string, Map<string, { type: string; bytes: Buffer }>>();
  // The bare app takes the same form bodies, unparsed: it only answers.
  bare.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  for (const c of cases) {
    const response = await subject.inject({ method: c.method, url: c.path, headers: c.headers, ...(c.body !== undefined && { payload: c.body }) });
    if (response.statusCode !== 200) throw new Error(`${c.name}: ${response.statusCode} ${response.body}`);
    const bytes = response.rawPayload;
    const type = String(response.headers['content-type']);
    const url = c.path.split('?')[0]!;
    if (json) {
      const body = JSON.parse(response.body) as object;
      bare.route({ method: c.method, url, handler: (_request, reply) => reply.send(body) });
      expected.push([c, response.body]);
    } else {
      const key = `${c.method} ${url}`;
      let answers = byRoute.get(key);
      if (answers === undefined) {
        const table = new Map<string, { type: string; bytes: Buffer }>();
        byRoute.set(key, (answers = table));
        // Cases that share a route (the narrows section) are told apart by their body.
        const only = () => table.values().next().value!;
        bare.route({
          method: c.method,
          url,
          handler: (request, reply) => {
            const answer = table.size === 1 ? only() : table.get(String(request.body ?? ''))!;
            reply.type(answer.type).send(answer.bytes);
          },
        });
      }
      answers.set(c.body ?? '', { type, bytes });
    }
  }
  for (const [c, body] of expected) {
    const check = await bare.inject({ method: c.method, url: c.path, headers: c.headers, ...(c.body !== undefined && { payload: c.body }) });
    if (check.body !== body) throw new Error(`${c.name}: the serialising bare route does not answer the same bytes`);
  }
  return bare;
}

/**
 * `pglite-narrows[-N]` / `postgres-narrows[-N]`: the reference server over
 * the demo organization plus N (default 100) messages in general, the cases
 * the narrow shapes of bench/narrows.ts, each round after some seconds of
 * GET /messages/{id} (the member reading her oldest message).
 */
async function narrowsServer(
  set: string,
  closers: (() => Promise<unknown>)[],
  onPostgres: (server: ThrowawayPostgres) => void,
  basic: (email: string, apiKey: string) => string,
  form: Record<string, string>,
): Promise<{ subject: FastifyInstance; cases: Omit<ServerCase, 'subject' | 'bare'>[] }> {
  const [driver, , size] = set.split('-');
  const history = size === undefined ? RANGE : Number(size);
  const dataDir = mkdtempSync(join(tmpdir(), 'teamchat-bench-narrows-'));
  closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', SECRET_KEY: 'b'.repeat(64) });
  let db: DbHandle;
  if (driver === 'postgres') {
    const pg = await startPostgres();
    onPostgres(pg);
    closers.push(() => pg.stop());
    db = await openPostgres({ url: pg.url });
  } else if (driver === 'pglite') {
    db = await openPglite({ dataDir: null, analyzeDelayMs: PGLITE_ANALYZE_DELAY_MS });
  } else throw new Error(`unknown case set ${set}`);
  closers.push(() => db.close());
  await migrate(db);
  const secret = loadServerSecret(config);
  const logins = await seedDemoIfEmpty(db, { password: config.demoPassword, secret, videoChatProvider: config.videoCall.provider });
  const member = logins?.find((l) => l.email === 'member@example.com');
  if (!member) throw new Error('the demo organization has no member@example.com');
  await addHistory(db, history);
  if (driver === 'pglite') await new Promise((resolve) => setTimeout(resolve, PGLITE_ANALYZE_WAIT_MS));
  const oldest = (await db.query<{ id: number }>('SELECT min(message_id) AS id FROM user_messages WHERE user_id = $1', [MEMBER])).rows[0]!.id;
  const seen: Captured[] = [];
  const subject = await createApp({ db: recording(db, seen), config, secret, featureLevel: config.featureLevel ?? maxFeatureLevel, validateResponses: false });
  const authorization = basic(member.email, member.apiKey);
  const after = { name: 'GET /messages/{id}', path: `/api/v1/messages/${oldest}`, seconds: 2 };
  const cases: Omit<ServerCase, 'subject' | 'bare'>[] = [];
  for (const shape of NARROW_SHAPES) {
    const c: Omit<ServerCase, 'subject' | 'bare'> = {
      name: `narrow: ${shape.name}`,
      method: 'POST',
      path: '/api/v1/messages/flags/narrow',
      headers: { authorization, ...form },
      body: new URLSearchParams(shape.body).toString(),
      after,
    };
    // The first request may change flags; from the second on, none does: the one measured.
    const request = { method: c.method, url: c.path, headers: c.headers, payload: c.body };
    await subject.inject(request);
    seen.length = 0;
    const response = await subject.inject(request);
    if (response.statusCode !== 200) throw new Error(`${c.name}: ${response.statusCode} ${response.body}`);
    c.databaseMs = await databaseTimeMs(db, seen.at(-1)!);
    cases.push(c);
  }
  return { subject, cases };
}

async function main(set: string): Promise<void> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
    process.exit(0);
  };
  process.stdin.on('end', close);
  // `cpu` on stdin: answer this process's CPU time so far (user + system, µs) on stdout.
  let databaseServer: ThrowawayPostgres | undefined;
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.stdout.write(`${user + system}\n`);
    } else if (line === 'dbcpu') {
      process.stdout.write(`${databaseServer ? processTreeCpuUs(databaseServer.postmasterPid()) : -1}\n`);
    }
  });
  process.on('SIGTERM', close);

  let subject: FastifyInstance;
  let cases: Omit<ServerCase, 'subject' | 'bare'>[];
  let statementCount: { statements: number } | undefined;
  const basic = (email: string, apiKey: string) => `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  if (set === 'bindings') {
    subject = await createMockApp();
    const authorization = basic('member@example.com', 'any-key');
    const narrow = new URLSearchParams({ anchor: '1', num_before: '0', num_after: String(RANGE - 1), narrow: '[]', op: 'add', flag: 'starred' });
    cases = [
      { name: 'GET /users/me', method: 'GET', path: '/api/v1/users/me', headers: { authorization } },
      { name: 'GET /messages/{id}', method: 'GET', path: '/api/v1/messages/101', headers: { authorization } },
      { name: 'POST /messages/flags/narrow', method: 'POST', path: '/api/v1/messages/flags/narrow', headers: { authorization, ...form }, body: narrow.toString() },
    ];
  } else if (set.includes('-narrows')) {
    ({ subject, cases } = await narrowsServer(set, closers, (server) => (databaseServer = server), basic, form));
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'teamchat-bench-server-'));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', SECRET_KEY: 'b'.repeat(64) });
    let db: DbHandle;
    if (set === 'postgres') {
      const pg: ThrowawayPostgres = await startPostgres();
      databaseServer = pg;
      closers.push(() => pg.stop());
      db = await openPostgres({ url: pg.url });
    } else if (set === 'pglite') {
      db = await openPglite({ dataDir: null });
    } else throw new Error(`unknown case set ${set}`);
    closers.push(() => db.close());
    await migrate(db);
    const secret = loadServerSecret(config);
    const logins = await seedDemoIfEmpty(db, { password: config.demoPassword, secret, videoChatProvider: config.videoCall.provider });
    const member = logins?.find((l) => l.email === 'member@example.com');
    if (!member) throw new Error('the demo organization has no member@example.com');
    let first = 0;
    for (let i = 0; i < RANGE; i++) {
      const id = await insertMessage(db, {
        senderId: USER.ben,
        to: { channelId: CHANNEL.general, topic: 'load test' },
        content: `Message ${i} of the load test.`,
        renderedContent: `<p>Message ${i} of the load test.</p>`,
      });
      if (i === 0) first = id;
    }
    const counted = counting(db);
    statementCount = counted.count;
    subject = await createApp({ db: counted.db, config, secret, featureLevel: config.featureLevel ?? maxFeatureLevel, validateResponses: false });
    const authorization = basic(member.email, member.apiKey);
    const narrow = new URLSearchParams({ anchor: String(first), num_before: '0', num_after: String(RANGE - 1), narrow: '[]', op: 'add', flag: 'starred' });
    cases = [
      { name: 'GET /users/me', method: 'GET', path: '/api/v1/users/me', headers: { authorization } },
      { name: 'GET /messages/{id}', method: 'GET', path: `/api/v1/messages/${first}`, headers: { authorization } },
      { name: `POST /messages/flags/narrow (${RANGE} messages)`, method: 'POST', path: '/api/v1/messages/flags/narrow', headers: { authorization, ...form }, body: narrow.toString() },
    ];
    const check = await subject.inject({ method: 'POST', url: cases[2]!.path, headers: cases[2]!.headers, payload: cases[2]!.body });
    const processed = (check.json() as { processed_count?: number }).processed_count;
    if (processed !== RANGE) throw new Error(`the narrow request processed ${processed} messages, not ${RANGE}: ${check.body}`);
    // Statements of one request, after a first one has filled the caches.
    for (const c of cases) {
      const request = { method: c.method, url: c.path, headers: c.headers, ...(c.body !== undefined && { payload: c.body }) };
      await subject.inject(request);
      const before = statementCount!.statements;
      await subject.inject(request);
      c.statements = statementCount!.statements - before;
    }
  }

  const bare = await bareTwin(subject, cases);
  const bareJson = set === 'bindings' ? await bareTwin(subject, cases, true) : undefined;
  closers.push(() => subject.close(), () => bare.close(), async () => bareJson?.close());
  const subjectUrl = await subject.listen({ host: '127.0.0.1', port: 0 });
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareJsonUrl = await bareJson?.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`${JSON.stringify(cases.map((c) => ({ ...c, subject: subjectUrl, bare: bareUrl, ...(bareJsonUrl !== undefined && { bareJson: bareJsonUrl }) })))}\n`);
}

main(process.argv[2] ?? 'pglite').catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
