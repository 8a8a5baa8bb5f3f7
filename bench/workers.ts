/**
 * `teamchat serve --workers N` on one PostgreSQL: the real CLI with 1 and
 * with 2 worker processes, each on its own fresh database seeded with the
 * demo organization, both running, measured with autocannon in alternating
 * rounds (10 connections, loopback). Reported: medians over the rounds and
 * the median per-round ratio of 2 workers over 1, and the CPU time the
 * server processes (primary and workers; not PostgreSQL) spent per request.
 *
 * The load generator runs in this process. On a machine whose cores are all
 * busy it competes with the servers it measures, so this process lowers its
 * own priority (nice 10 by default, `loadNice`) for the measurement: the
 * servers then get the CPU first, which is what a second worker needs to
 * show what it adds. Nothing else on the machine is reprioritised.
 */

/** CPU time (user + system, ms) of a process and all its descendants, from /proc (Linux); NaN elsewhere. */
function treeCpuMs(pid: number): number {
  try {
    const [, rest] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ');
    const fields = rest!.split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    let ms = (Number(fields[11]) + Number(fields[12])) * 10;
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean)) ms += treeCpuMs(Number(child));
    return ms;
  } catch {
    return Number.NaN;
  }
}
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../server/store/postgres.js';
import { startServeProcess, type ServeProcess } from '../test/load/serve-process.js';
import { startPostgres } from '../test/support/postgres.js';
import { median } from './stats.js';

export interface WorkersRow {
  case: string;
  oneWorkerRequestsPerSec: number;
  oneWorkerP99Ms: number;
  twoWorkersRequestsPerSec: number;
  twoWorkersP99Ms: number;
  /** Median per-round (2 workers req/s over 1 worker req/s). */
  speedup: number;
  /** Median CPU time of the server processes per request (µs), primary and workers (PostgreSQL not counted). */
  oneWorkerCpuPerRequestUs: number;
  twoWorkersCpuPerRequestUs: number;
}

type Autocannon = typeof import('autocannon').default;

const MEMBER = 'member@example.com';

export async function benchWorkers(options: { rounds: number; seconds: number; loadNice?: number; log: (line: string) => void }): Promise<WorkersRow[]> {
  const autocannon: Autocannon = (await import('autocannon')).default;
  // The CLI runs the compiled dist/, which run.ts has just built.
  const pg = await startPostgres();
  const dataDir = mkdtempSync(join(tmpdir(), 'teamchat-bench-workers-'));
  const servers: ServeProcess[] = [];
  try {
    const admin = await openPostgres({ url: pg.url });
    await admin.exec('CREATE DATABASE one_worker');
    await admin.exec('CREATE DATABASE two_workers');
    await admin.close();
    const start = async (database: string, workers: number) => {
      const env = { DATABASE_URL: pg.url.replace(/\/postgres$/, `/${database}`), DATA_DIR: dataDir, SECRET_KEY: 'f'.repeat(64) };
      const server = await startServeProcess(env, ['--seed-demo', '--workers', String(workers)], 120_000);
      servers.push(server);
      return server;
    };
    options.log('workers: starting 1-worker and 2-worker servers');
    const one = await start('one_worker', 1);
    const two = await start('two_workers', 2);
    const cases = [
      { name: 'GET /users/me', path: '/api/v1/users/me' },
      { name: 'GET /messages/{id}', path: '/api/v1/messages/101' },
    ];
    const load = async (server: ServeProcess, path: string, seconds: number) => {
      const authorization = `Basic ${Buffer.from(`${MEMBER}:${server.apiKeys.get(MEMBER)}`).toString('base64')}`;
      const cpuBefore = treeCpuMs(server.child.pid!);
      const result = await autocannon({ url: `${server.url}${path}`, headers: { authorization }, connections: 10, duration: seconds });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      const cpuUs = (treeCpuMs(server.child.pid!) - cpuBefore) * 1000;
      return { requestsPerSec: result.requests.average, p99Ms: result.latency.p99, cpuPerRequestUs: cpuUs / result.requests.total };
    };
    // The servers, started above at normal priority, get the CPU before the load generator.
    const priority = getPriority();
    setPriority(Math.max(priority, options.loadNice ?? 10));
    const rows: WorkersRow[] = [];
    for (const c of cases) {
      await load(one, c.path, 1);
      await load(two, c.path, 1);
      const ones: { requestsPerSec: number; p99Ms: number; cpuPerRequestUs: number }[] = [];
      const twos: { requestsPerSec: number; p99Ms: number; cpuPerRequestUs: number }[] = [];
      for (let round = 0; round < options.rounds; round++) {
        options.log(`workers: ${c.name}, round ${round + 1}/${options.rounds}`);
        if (round % 2 === 0) {
          ones.push(await load(one, c.path, options.seconds));
          twos.push(await load(two, c.path, options.seconds));
        } else {
          twos.push(await load(two, c.path, options.seconds));
          ones.push(await load(one, c.path, options.seconds));
        }
      }
      rows.push({
        case: c.name,
        oneWorkerRequestsPerSec: median(ones.map((l) => l.requestsPerSec)),
        oneWorkerP99Ms: median(ones.map((l) => l.p99Ms)),
        twoWorkersRequestsPerSec: median(twos.map((l) => l.requestsPerSec)),
        twoWorkersP99Ms: median(twos.map((l) => l.p99Ms)),
        speedup: median(twos.map((l, i) => l.requestsPerSec / ones[i]!.requestsPerSec)),
        oneWorkerCpuPerRequestUs: median(ones.map((l) => l.cpuPerRequestUs)),
        twoWorkersCpuPerRequestUs: median(twos.map((l) => l.cpuPerRequestUs)),
      });
    }
    return rows;
  } finally {
    await Promise.all(servers.map((server) => server.kill()));
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
