/**
 * Requests per second and p99 latency with autocannon over loopback, each
 * case against its server and against a bare Fastify route answering the
 * same bytes, alternating within each round (see server-process.ts for
 * what runs). Reported: medians over the rounds, and the median of the
 * per-round ratio of the bare route's throughput over the subject's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { ServerCase } from './server-process.js';
import { median } from './stats.js';

export interface ServerRow {
  set: string;
  case: string;
  requestsPerSec: number;
  p99Ms: number;
  bareRequestsPerSec: number;
  bareP99Ms: number;
  /** Median per-round (bare req/s over subject req/s): 1.25 means the subject is 25% slower than the bare route. */
  slowdown: number;
  /** Median CPU time of the server process per request (µs): on PGlite the database's work included, on PostgreSQL not. */
  cpuPerRequestUs: number;
  bareCpuPerRequestUs: number;
  /** Median per-round (subject CPU per request over bare CPU per request): steadier than req/s on a busy machine. */
  cpuSlowdown: number;
  /**
   * PostgreSQL only: median CPU time of the database server (postmaster and
   * children) per request of the subject (µs), and the median per-round
   * ratio of the server's plus the database's CPU per request over the bare
   * route's (which uses no database): what a request costs the machine.
   */
  database?: { cpuPerRequestUs: number; totalCpuPerRequestUs: number; totalCpuSlowdown: number };
  /** Database statements per request (BEGIN and COMMIT included); null for the mock. */
  statements: number | null;
  /** The narrows section: database time of the request's statement (ms), and the load served before each round. */
  databaseMs?: number;
  after?: string;
  /** Median of the machine's 1-minute load average at the start of each measurement of this case. */
  loadAverage: number;
  /** `bindings` only: the bare route that serialises the same body with `JSON.stringify` (see ServerCase.bareJson), measured in the same rounds. */
  bareJson?: {
    requestsPerSec: number;
    cpuPerRequestUs: number;
    /** Median per-round (this route's req/s over the subject's). */
    slowdown: number;
    cpuSlowdown: number;
    /** Median per-round (bare bytes req/s over this route's): what serialising alone costs. */
    slowdownOfBare: number;
    /** Median per-round (this route's CPU per request over the bare bytes route's). */
    cpuSlowdownOfBare: number;
  };
}

interface Load {
  requestsPerSec: number;
  p99Ms: number;
  loadAverage: number;
  /** CPU time of the server process per request answered (µs). */
  cpuPerRequestUs: number;
  /** CPU time of the database server per request answered (µs); -1 where not measured. */
  dbCpuPerRequestUs: number;
}

type Autocannon = typeof import('autocannon').default;

async function load(autocannon: Autocannon, c: ServerCase, base: string, seconds: number, cpu: () => Promise<number>, dbCpu: () => Promise<number>): Promise<Load> {
  const loadAverage = loadavg()[0]!;
  const cpuBefore = await cpu();
  const dbCpuBefore = await dbCpu();
  const result = await autocannon({
    url: `${base}${c.path}`,
    method: c.method,
    headers: c.headers,
    ...(c.body !== undefined && { body: c.body }),
    connections: 10,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${c.name} on ${base}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const cpuUs = (await cpu()) - cpuBefore;
  const dbCpuAfter = await dbCpu();
  const dbCpuPerRequestUs = dbCpuBefore < 0 || dbCpuAfter < 0 ? -1 : (dbCpuAfter - dbCpuBefore) / result.requests.total;
  return { requestsPerSec: result.requests.average, p99Ms: result.latency.p99, loadAverage, cpuPerRequestUs: cpuUs / result.requests.total, dbCpuPerRequestUs };
}

interface Child {
  child: ChildProcess;
  cases: ServerCase[];
  /** The child's CPU time so far (user + system, µs). */
  cpu(): Promise<number>;
  /** The CPU time so far of the database server the child started (µs), or -1. */
  dbCpu(): Promise<number>;
}

function startChild(set: string): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'server-process.ts'), set], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const waiting: ((line: string) => void)[] = [];
    lines.once('line', (line) => {
      lines.on('line', (answer) => waiting.shift()?.(answer));
      const ask = (question: string) => () =>
        new Promise<number>((answer) => {
          waiting.push((text) => answer(Number(text)));
          child.stdin!.write(`${question}\n`);
        });
      resolve({ child, cases: JSON.parse(line) as ServerCase[], cpu: ask('cpu'), dbCpu: ask('dbcpu') });
    });
    child.once('exit', (code) => reject(new Error(`the ${set} server process exited with ${code} before it was ready`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.stdin!.end();
  });
}

export async function benchServers(options: { sets: string[]; rounds: number; seconds: number; log: (line: string) => void }): Promise<ServerRow[]> {
  const autocannon = (await import('autocannon')).default;
  const rows: ServerRow[] = [];
  for (const set of options.sets) {
    options.log(`server ${set}: starting`);
    const { child, cases, cpu, dbCpu } = await startChild(set);
    try {
      for (const c of cases) {
        // Warm-up: JIT, connection pools, caches.
        await load(autocannon, c, c.subject, 1, cpu, dbCpu);
        await load(autocannon, c, c.bare, 1, cpu, dbCpu);
        if (c.bareJson !== undefined) await load(autocannon, c, c.bareJson, 1, cpu, dbCpu);
        const subject: Load[] = [];
        const bare: Load[] = [];
        const bareJson: Load[] = [];
        const sides: [string, Load[]][] = [
          [c.subject, subject],
          [c.bare, bare],
          ...(c.bareJson !== undefined ? [[c.bareJson, bareJson] as [string, Load[]]] : []),
        ];
        for (let round = 0; round < options.rounds; round++) {
          options.log(`server ${set}: ${c.name}, round ${round + 1}/${options.rounds}`);
          // Load on another request first (not measured), when the case asks for it.
          if (c.after !== undefined) await load(autocannon, { ...c, method: 'GET', path: c.after.path, headers: { authorization: c.headers.authorization! }, body: undefined }, c.subject, c.after.seconds, cpu, dbCpu);
          // Rotate which side goes first, so none always meets the same moment of the machine's load.
          for (let i = 0; i < sides.length; i++) {
            const [url, loads] = sides[(i + round) % sides.length]!;
            loads.push(await load(autocannon, c, url, options.seconds, cpu, dbCpu));
          }
        }
        rows.push({
          set,
          case: c.name,
          requestsPerSec: median(subject.map((l) => l.requestsPerSec)),
          p99Ms: median(subject.map((l) => l.p99Ms)),
          bareRequestsPerSec: median(bare.map((l) => l.requestsPerSec)),
          bareP99Ms: median(bare.map((l) => l.p99Ms)),
          slowdown: median(subject.map((l, i) => bare[i]!.requestsPerSec / l.requestsPerSec)),
          cpuPerRequestUs: median(subject.map((l) => l.cpuPerRequestUs)),
          bareCpuPerRequestUs: median(bare.map((l) => l.cpuPerRequestUs)),
          cpuSlowdown: median(subject.map((l, i) => l.cpuPerRequestUs / bare[i]!.cpuPerRequestUs)),
          ...(subject.every((l) => l.dbCpuPerRequestUs >= 0) && {
            database: {
              cpuPerRequestUs: median(subject.map((l) => l.dbCpuPerRequestUs)),
              totalCpuPerRequestUs: median(subject.map((l) => l.cpuPerRequestUs + l.dbCpuPerRequestUs)),
              totalCpuSlowdown: median(subject.map((l, i) => (l.cpuPerRequestUs + l.dbCpuPerRequestUs) / bare[i]!.cpuPerRequestUs)),
            },
          }),
          statements: c.statements ?? null,
          ...(c.databaseMs !== undefined && { databaseMs: c.databaseMs }),
          ...(c.after !== undefined && { after: `${c.after.seconds} s of ${c.after.name}` }),
          loadAverage: median([...subject, ...bare, ...bareJson].map((l) => l.loadAverage)),
          ...(bareJson.length > 0 && {
            bareJson: {
              requestsPerSec: median(bareJson.map((l) => l.requestsPerSec)),
              cpuPerRequestUs: median(bareJson.map((l) => l.cpuPerRequestUs)),
              slowdown: median(subject.map((l, i) => bareJson[i]!.requestsPerSec / l.requestsPerSec)),
              cpuSlowdown: median(subject.map((l, i) => l.cpuPerRequestUs / bareJson[i]!.cpuPerRequestUs)),
              slowdownOfBare: median(bareJson.map((l, i) => bare[i]!.requestsPerSec / l.requestsPerSec)),
              cpuSlowdownOfBare: median(bareJson.map((l, i) => l.cpuPerRequestUs / bare[i]!.cpuPerRequestUs)),
            },
          }),
        });
      }
    } finally {
      await stopChild(child);
    }
  }
  return rows;
}
