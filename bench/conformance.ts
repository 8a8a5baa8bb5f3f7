/**
 * `teamchat conformance` speed: requests per second against `serve --mock`
 * over HTTP, and the generation and checking side alone (no network): the
 * same run with a transport that answers in process as a conforming server
 * would (401 without credentials, 400 where the document's decoder refuses,
 * else the operation's first success example). CPU time is the bench
 * process's user + system time, so the second figure is per core.
 */
import { resolveGenerateConfig } from '../generator/config.js';
import { loadDocument } from '../generator/conformance/document.js';
import { runConformance, type RunOptions } from '../generator/conformance/run.js';
import { listenMock } from '../server/mock.js';
import { inProcessServer } from '../test/conformance/support.js';

export interface ConformanceRow {
  transport: string;
  requests: number;
  wallMs: number;
  cpuMs: number;
  requestsPerSec: number;
  requestsPerCpuSec: number;
  failures: number;
}

export async function benchConformance(options: { root: string; requests: number; rounds: number }): Promise<ConformanceRow[]> {
  const doc = await loadDocument(resolveGenerateConfig({}, options.root, ['validators']));
  const inProcess = inProcessServer(doc);
  const base: Omit<RunOptions, 'baseUrl' | 'seed'> = {
    maxRequests: options.requests,
    allowWrites: true,
    strict: false,
    credentials: { values: new Map([['basicAuth', 'owner@example.com:key']]) },
  };
  const rows: ConformanceRow[] = [];
  const measure = async (transport: string, baseUrl: string, fetch: RunOptions['fetch'] | undefined, seed: number) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await runConformance(doc, { ...base, baseUrl, seed, ...(fetch !== undefined && { fetch }) });
    const used = process.cpuUsage(cpu);
    const wallMs = performance.now() - started;
    const cpuMs = (used.user + used.system) / 1000;
    rows.push({
      transport,
      requests: result.summary.requests,
      wallMs,
      cpuMs,
      requestsPerSec: result.summary.requests / (wallMs / 1000),
      requestsPerCpuSec: result.summary.requests / (cpuMs / 1000),
      failures: result.failures.length,
    });
  };
  // A warm-up run compiles the hot paths before anything is measured.
  await measure('warm-up', 'http://127.0.0.1:9', inProcess, 0);
  rows.length = 0;
  for (let round = 1; round <= options.rounds; round += 1) await measure('in process (no network)', 'http://127.0.0.1:9', inProcess, round);
  const { app, url } = await listenMock({ host: '127.0.0.1', port: 0 });
  try {
    for (let round = 1; round <= options.rounds; round += 1) await measure('HTTP, serve --mock', url, undefined, round);
  } finally {
    await app.close();
  }
  return rows;
}

/** `npx tsx bench/conformance.ts`: the section alone. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchConformance({ root: process.cwd(), requests: 2000, rounds: 3 });
  for (const row of rows) console.log(JSON.stringify(row));
}
