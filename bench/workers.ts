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
 *
 * Where the CPU went is measured too, per request: the server processes,
 * PostgreSQL's (postmaster and backends, from /proc) and the load generator
 * (this process), and the share of the machine left idle. Their sum gives
 * the most requests per second the machine's cores could answer at those
 * costs, whatever the number of workers: a second worker can only help
 * while one worker leaves that ceiling well above what it reaches.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, getPriority, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../server/store/postgres.js';
import { startServeProcess, type ServeProcess } from '../test/stress/serve-process.js';
import { startPostgres } from '../test/support/postgres.js';
import { machineCpuUs, median, processTreeCpuUs } from './stats.js';

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
  /** Median CPU time per request (µs) of PostgreSQL (postmaster and backends) and of the load generator. */
  oneWorkerDbCpuPerRequestUs: number;
  twoWorkersDbCpuPerRequestUs: number;
  oneWorkerLoadCpuPerRequestUs: number;
  twoWorkersLoadCpuPerRequestUs: number;
  /** Median CPU time per request (µs) of everything else on the machine (the machine's busy time less the three above). */
  oneWorkerOtherCpuPerRequestUs: number;
  twoWorkersOtherCpuPerRequestUs: number;
  /** Median share of the machine's CPU time left idle during the rounds (0-1). */
  oneWorkerIdle: number;
  twoWorkersIdle: number;
  /** The machine's cores over the one-worker rounds' total CPU per request (server + PostgreSQL + load generator): the most req/s those costs allow. */
  ceilingRequestsPerSec: number;
}

interface Round {
  requestsPerSec: number;
  p99Ms: number;
  cpuPerRequestUs: number;
  dbCpuPerRequestUs: number;
  loadCpuPerRequestUs: number;
  otherCpuPerRequestUs: number;
  idle: number;
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
      const cpuBefore = processTreeCpuUs(server.child.pid!);
      const dbBefore = processTreeCpuUs(pg.postmasterPid());
      const loadBefore = process.cpuUsage();
      const machineBefore = machineCpuUs();
      const result = await autocannon({ url: `${server.url}${path}`, headers: { authorization }, connections: 10, duration: seconds });
      const machine = machineCpuUs();
      const load = process.cpuUsage(loadBefore);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      const requests = result.requests.total;
      const idle = machine.idle - machineBefore.idle;
      const busy = machine.busy - machineBefore.busy;
      const cpuPerRequestUs = (processTreeCpuUs(server.child.pid!) - cpuBefore) / requests;
      const dbCpuPerRequestUs = (processTreeCpuUs(pg.postmasterPid()) - dbBefore) / requests;
      const loadCpuPerRequestUs = (load.user + load.system) / requests;
      return {
        requestsPerSec: result.requests.average,
        p99Ms: result.latency.p99,
        cpuPerRequestUs,
        dbCpuPerRequestUs,
        loadCpuPerRequestUs,
        otherCpuPerRequestUs: Math.max(0, busy / requests - cpuPerRequestUs - dbCpuPerRequestUs - loadCpuPerRequestUs),
        idle: idle / (idle + busy),
      };
    };
    // The servers, started above at normal priority, get the CPU before the load generator.
    const priority = getPriority();
    setPriority(Math.max(priority, options.loadNice ?? 10));
    const rows: WorkersRow[] = [];
    const cores = availableParallelism();
    for (const c of cases) {
      await load(one, c.path, 1);
      await load(two, c.path, 1);
      const ones: Round[] = [];
      const twos: Round[] = [];
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
        oneWorkerDbCpuPerRequestUs: median(ones.map((l) => l.dbCpuPerRequestUs)),
        twoWorkersDbCpuPerRequestUs: median(twos.map((l) => l.dbCpuPerRequestUs)),
        oneWorkerLoadCpuPerRequestUs: median(ones.map((l) => l.loadCpuPerRequestUs)),
        twoWorkersLoadCpuPerRequestUs: median(twos.map((l) => l.loadCpuPerRequestUs)),
        oneWorkerOtherCpuPerRequestUs: median(ones.map((l) => l.otherCpuPerRequestUs)),
        twoWorkersOtherCpuPerRequestUs: median(twos.map((l) => l.otherCpuPerRequestUs)),
        oneWorkerIdle: median(ones.map((l) => l.idle)),
        twoWorkersIdle: median(twos.map((l) => l.idle)),
        ceilingRequestsPerSec: median(ones.map((l) => (cores * 1_000_000) / (l.cpuPerRequestUs + l.dbCpuPerRequestUs + l.loadCpuPerRequestUs))),
      });
    }
    return rows;
  } finally {
    await Promise.all(servers.map((server) => server.kill()));
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
