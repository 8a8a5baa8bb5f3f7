/**
 * `npm run bench`: ours against peer tools (generation, validators, client,
 * server). Prints markdown tables and writes every figure to
 * bench/results/latest.json. Benchmarks report; they never fail on a figure.
 *
 *   npm run bench -- --only generation,package,validators,client,server
 *   npm run bench -- --factors 1,10 --runs 3 --cap-seconds 300
 *   npm run bench -- --only server --server-sets pglite,postgres
 *
 * The peers and load tools live in bench/package.json, installed here on
 * first use, so the project's own install stays lean.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

const root = process.cwd();
const benchDir = join(root, 'bench');

function ensureBenchPackage(): void {
  const manifest = JSON.parse(readFileSync(join(benchDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const missing = Object.keys(manifest.dependencies).filter((name) => !existsSync(join(benchDir, 'node_modules', name, 'package.json')));
  if (missing.length === 0) return;
  process.stderr.write(`bench: installing the benchmark-only packages into bench/node_modules (missing: ${missing.join(', ')}): npm ci --prefix bench\n`);
  const result = spawnSync('npm', ['ci', '--prefix', 'bench', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write('bench: `npm ci --prefix bench` failed; the benchmarks need the npm registry once. Nothing was measured.\n');
    process.exit(1);
  }
}

const USAGE = `Usage: npm run bench -- [options]

  --only LIST          sections, comma-separated (default: generation,package,validators,client,bundle,server,narrows,conformance;
                       also: workers, teamchat serve --workers 1 against 2 on PostgreSQL)
  --factors LIST       synthetic document sizes for generation (default: 1,10,100)
  --runs N             cold runs per contender (default: 5 at 1x, 3 above)
  --cap-seconds N      give up on a contender after N seconds (default: 300)
  --server-sets LIST   server section: bindings,pglite,postgres (default: all three)
  --rounds N           server and narrows sections: alternating rounds per request (default: 3)
  --narrow-sets LIST   narrows section: pglite,postgres (default: both)
  --narrow-sizes LIST  narrows section: messages added to the demo (default: 100,100000)
  --load-nice N        nice level of the load generator (default: 10)
  --skip-synthetic     generation: leave out the synthetic document
  --generation-spec PATH  generation: also time this document (OpenAPI YAML or JSON), e.g. GitHub's description
                       (\`npm pack @octokit/openapi\`, then package/generated/api.github.com.json)
  --bundle-spec PATH   bundle section: also measure this document (OpenAPI YAML or JSON, any size), all three
                       clients generated for it in the same run
  --bundle-operation ID  the operation the --bundle-spec apps call (default: get-message)
  --help               print this text

Figures go to stdout as markdown and to bench/results/latest.json.
`;

function readArgs() {
  try {
    return parseArgs({
      options: {
        help: { type: 'boolean', default: false },
        only: { type: 'string', default: 'generation,package,validators,client,bundle,server,narrows,conformance' },
        factors: { type: 'string', default: '1,10,100' },
        runs: { type: 'string' },
        'cap-seconds': { type: 'string', default: '300' },
        'server-sets': { type: 'string', default: 'bindings,pglite,postgres' },
        rounds: { type: 'string', default: '3' },
        'narrow-sets': { type: 'string', default: 'pglite,postgres' },
        'narrow-sizes': { type: 'string', default: '100,100000' },
        'load-nice': { type: 'string', default: '10' },
        'skip-synthetic': { type: 'boolean', default: false },
        'bundle-spec': { type: 'string' },
        'generation-spec': { type: 'string' },
        'bundle-operation': { type: 'string', default: 'get-message' },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

const args = readArgs();
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
// `workers` (teamchat serve --workers 1 vs 2 on PostgreSQL) runs only when asked for.
const sections = new Set(args.only.split(','));
const factors = args.factors.split(',').map(Number);

ensureBenchPackage();
// Every run of our CLI here runs the compiled dist/, as users do: bring it up to date first (incremental).
if (
  spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' }).status !== 0 ||
  spawnSync(process.execPath, ['dist/generator/cli/help-cache.js'], { cwd: root, stdio: 'inherit' }).status !== 0
) {
  process.stderr.write('bench: `npm run build` failed; nothing was measured.\n');
  process.exit(1);
}

const { median, table, fmt } = await import('./stats.js');
const { benchGeneration, BASELINE, LIKE_FOR_LIKE } = await import('./generate.js');
const { bundledSpec } = await import('./specs.js');
const { version } = await import('./peers.js');
const { buildModel } = await import('../generator/model/build.js');
const { loadSpec } = await import('../generator/load/index.js');

const loads: number[] = [];
const log = (line: string) => {
  loads.push(loadavg()[0]!);
  process.stderr.write(`bench: ${line}\n`);
};

const rootVersion = (pkg: string) => (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const machine = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  startedAt: new Date().toISOString(),
};
const versions = {
  '@hey-api/openapi-ts': version('@hey-api/openapi-ts'),
  orval: version('orval'),
  zod: version('zod'),
  autocannon: version('autocannon'),
  esbuild: version('esbuild'),
  ajv: rootVersion('ajv'),
  fastify: rootVersion('fastify'),
};
console.log(`Machine: Node ${machine.node}, ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB; load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`Peers: ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);

const results: Record<string, unknown> = { machine, versions };
const bundled = await bundledSpec(root);

if (sections.has('generation')) {
  const runs = args.runs === undefined ? (factor: number) => (factor > 1 ? 3 : 5) : () => Number(args.runs);
  const capMs = Number(args['cap-seconds']) * 1000;
  // The large synthetic document of test/support/synthetic-spec.ts (1,052 operations, OpenAPI 3.0, deep allOf, a 120-kind union).
  const { syntheticSpec } = await import('../test/support/synthetic-spec.js');
  const extraRuns = args.runs === undefined ? 3 : Number(args.runs);
  const extra = !args['skip-synthetic'] ? [{ label: 'synthetic', doc: syntheticSpec(), runs: extraRuns }] : [];
  const own = args['generation-spec'];
  if (own !== undefined) {
    const { readDocument } = await import('./specs.js');
    extra.push({ label: basename(own).replace(/\.(ya?ml|json)$/i, ''), doc: readDocument(own), runs: extraRuns });
  }
  const rows = await benchGeneration(root, bundled, { factors, runs, log, capMs, extra });
  results.generation = rows;
  console.log(`## Generation: cold runs, wall time (median of ${factors.map((f) => `${runs(f)} at ${f}x`).join(', ')})\n`);
  console.log(`Ratio: the tool's time over \`${BASELINE}\` (our ${LIKE_FOR_LIKE} targets, what the peers also produce) in the same round, median over rounds; >1 is slower than ours. orval's client alone is compared with our \`types,client\` instead (the row above it). CPU: user + system time of every Node process of the run (its threads and any child processes), which the machine's load moves far less than wall time. Growth: median at this size over median at 1x. A run longer than ${capMs / 1000} s is stopped and the tool not run again at that size.\n`);
  console.log(
    table(
      ['spec', 'tool', 'median', 'ratio vs ours (no docs)', 'CPU median', 'CPU ratio vs ours', 'growth vs 1x'],
      rows.map((r) =>
        r.failed !== undefined
          ? [`${r.spec ?? `${r.factor}x`} (${r.operations} ops)`, r.tool, `failed: ${r.failed}`, 'n/a', 'n/a', 'n/a', 'n/a']
          : r.cappedAtMs !== undefined
          ? [`${r.spec ?? `${r.factor}x`} (${r.operations} ops)`, r.tool, `> ${fmt.ms(r.cappedAtMs)} (stopped)`, 'n/a', 'n/a', 'n/a', 'n/a']
          : [
              `${r.spec ?? `${r.factor}x`} (${r.operations} ops)`,
              r.tool,
              fmt.ms(r.medianMs),
              fmt.ratio(r.ratioVsBaseline),
              fmt.ms(r.cpuMedianMs),
              fmt.ratio(r.cpuRatioVsBaseline),
              r.factor === 1 ? '1' : r.spec !== undefined ? 'n/a' : fmt.ratio(r.growth),
            ],
      ),
    ),
  );
}

const needsOutputs = sections.has('validators') || sections.has('client') || sections.has('bundle') || sections.has('package');
const { generateOutputs } = await import('./outputs.js');
const outputs = needsOutputs ? generateOutputs(root, bundled) : undefined;
try {
  if (outputs !== undefined) {
    const model = buildModel(await loadSpec('spec/openapi.yaml', root));
    if (sections.has('package')) {
      const { benchInstall, benchStartup, clientSizes } = await import('./package.js');
      log('package: start-up');
      const startup = benchStartup(root, 7);
      log('package: install size');
      const install = benchInstall(root);
      const clients = clientSizes(outputs);
      results.package = { startup, install, clients };
      console.log('\n## Start-up: `--help` in a fresh process (median of 7 rounds; ratio: the tool over ours in the same round)\n');
      console.log(table(['command', 'median', 'runs', 'ratio vs ours'], startup.map((r) => [r.tool, fmt.ms(r.medianMs), r.runs.join(', '), fmt.ratio(r.ratioVsOurs)])));
      console.log('\n## Install: our tarball into an empty project (npm, local cache)\n');
      console.log(
        table(
          ['install', 'packages', 'size on disk', 'tarball', 'files in tarball'],
          install.map((r) => [r.install, String(r.packages), `${(r.bytes / 2 ** 20).toFixed(1)} MiB`, r.tarballBytes ? fmt.kib(r.tarballBytes) : '-', r.tarballFiles ? String(r.tarballFiles) : '-']),
        ),
      );
      console.log('\n## Generated clients as written (no bundling; see the bundle sizes below)\n');
      console.log(table(['client', 'files', 'bytes', 'gzip'], clients.map((c) => [c.client, String(c.files), fmt.kib(c.bytes), fmt.kib(c.gzipBytes)])));
    }
    if (sections.has('validators')) {
      const { benchValidators } = await import('./validators.js');
      const { benchZod } = await import('./zod.js');
      // bench/validators.ts reports the best of its rounds; three calls give a median of those.
      const ajvRuns: Awaited<ReturnType<typeof benchValidators>>[] = [];
      for (let i = 0; i < 3; i++) {
        log(`validators vs ajv: run ${i + 1}/3`);
        ajvRuns.push(await benchValidators({ root }));
      }
      const ajvRows = ajvRuns[0]!.map((row, i) => ({
        name: row.name,
        opsPerSec: median(ajvRuns.map((run) => run[i]!.opsPerSec)),
        ratioVsAjv: median(ajvRuns.map((run) => run[i]!.ratioVsAjv)),
      }));
      log('validators vs zod');
      const zodRows = await benchZod(model, outputs, { rounds: 5, msPerRound: 200 });
      results.validators = { ajv: ajvRows, zod: zodRows };
      console.log('\n## Validators: ops/s on the spec\'s largest examples (medians; ratios: ours over theirs in the same round)\n');
      console.log('zod: the schemas hey-api and orval generated, zod ' + versions.zod + '. Decoding: zod gets the fields split, JSON fields parsed and scalars coerced first (see bench/zod.ts).\n');
      console.log(
        table(
          ['case', 'ours', 'ajv', 'ours/ajv', 'zod (hey-api)', 'ours/zod (hey-api)', 'zod (orval)', 'ours/zod (orval)'],
          zodRows.map((z) => {
            const ours = ajvRows.find((r) => r.name === z.name)!;
            const ajv = ajvRows.find((r) => r.name === `${z.name} (ajv)`)!;
            const cell = (peer: string) => (z.opsPerSec[peer] === undefined ? ['n/a', 'n/a'] : [fmt.int(z.opsPerSec[peer]!), fmt.ratio(z.ratioVsOurs[peer]!)]);
            return [z.name, fmt.int(ours.opsPerSec), fmt.int(ajv.opsPerSec), fmt.ratio(ours.ratioVsAjv), ...cell('zod (hey-api)'), ...cell('zod (orval)')];
          }),
        ),
      );
      // The composed and union cases of the synthetic document have no zod counterpart.
      const withZod = new Set(zodRows.map((z) => z.name));
      const composed = ajvRows.filter((r) => !r.name.endsWith(' (ajv)') && !withZod.has(r.name));
      console.log('\nComposed and union schemas (the large synthetic document; ajv with its `discriminator` option):\n');
      console.log(
        table(
          ['case', 'ours', 'ajv', 'ours/ajv'],
          composed.map((ours) => {
            const ajv = ajvRows.find((r) => r.name === `${ours.name} (ajv)`)!;
            return [ours.name, fmt.int(ours.opsPerSec), fmt.int(ajv.opsPerSec), fmt.ratio(ours.ratioVsAjv)];
          }),
        ),
      );
    }
    if (sections.has('client')) {
      const { benchClients, bundleSizes } = await import('./client.js');
      log('clients: per call');
      const calls = await benchClients(model, outputs, { rounds: 5, msPerRound: 300 });
      log('clients: bundle sizes');
      const sizes = await bundleSizes(outputs);
      results.client = { calls, sizes };
      const us = (ops: number | undefined) => (ops === undefined ? 'n/a' : `${(1e6 / ops).toFixed(1)} µs`);
      console.log('\n## Client: time per call with an injected fetch returning a canned body (medians; ratio: theirs over ours in the same round)\n');
      console.log('`fetch + JSON only` is the floor every client pays (the canned fetch and reading its body); the rest is the client\'s own work.\n');
      console.log(
        table(
          ['call', 'fetch + JSON only', 'ours', 'hey-api', 'hey-api/ours', 'orval', 'orval/ours', 'request differs from ours'],
          calls.map((c) => [
            c.name,
            us(c.opsPerSec['fetch + JSON only']),
            us(c.opsPerSec.ours),
            us(c.opsPerSec['hey-api']),
            fmt.ratio(c.ratioVsOurs['hey-api']!),
            us(c.opsPerSec.orval),
            fmt.ratio(c.ratioVsOurs.orval!),
            Object.entries(c.wireDifferences).filter(([, d]) => d.length > 0).map(([peer, d]) => `${peer}: ${d.join(', ')}`).join('; ').replace(/\|/g, '\\|') || 'no',
          ]),
        ),
      );
      console.log('\n## Client: bundle size (esbuild, minified, ESM, every operation)\n');
      console.log(
        table(
          ['client', 'minified', 'gzip', 'lazy chunk minified', 'lazy chunk gzip'],
          sizes.map((s) => [s.client, fmt.kib(s.minifiedBytes), fmt.kib(s.gzipBytes), s.lazyMinifiedBytes ? fmt.kib(s.lazyMinifiedBytes) : '-', s.lazyGzipBytes ? fmt.kib(s.lazyGzipBytes) : '-']),
        ),
      );
      console.log('\nOur lazy chunks are the response checks, one per operation, imported only when `validateResponses` is set.');
    }
    if (sections.has('bundle')) {
      const { APP_NAMES, appBundles, bundledOperation } = await import('./bundle.js');
      log('bundle: one-operation apps');
      const documents = [{ document: 'spec/ (ours)', operation: await bundledOperation(outputs, 'get-message', 'spec/'), apps: await appBundles(outputs) }];
      const other = args['bundle-spec'];
      if (other !== undefined) {
        log(`bundle: ${other}: generating the three clients`);
        const { readDocument } = await import('./specs.js');
        const otherOutputs = generateOutputs(root, readDocument(other), { tolerantPeers: true });
        try {
          const operation = await bundledOperation(otherOutputs, args['bundle-operation'], other);
          log(`bundle: ${other}: one-operation apps (${operation.id})`);
          const failed = Object.keys(otherOutputs.failedPeers);
          for (const peer of failed) console.log(`${basename(other)}: ${peer} could not generate from it, so its app is left out: ${otherOutputs.failedPeers[peer]}`);
          const apps = APP_NAMES.filter((app) => !failed.some((peer) => app.startsWith(`${peer}:`)));
          documents.push({ document: basename(other), operation, apps: await appBundles(otherOutputs, operation, apps) });
        } finally {
          otherOutputs.project.remove();
        }
      }
      results.bundle = documents;
      console.log('\n## A browser app calling one operation: esbuild --bundle --minify --splitting --format=esm\n');
      console.log('Eager: the entry chunk and the chunks it imports statically. Targets (issue 20): our entry within 1.25x hey-api\'s; with `validateResponses`, at most 40 KB over all chunks.\n');
      console.log(
        table(
          ['document', 'operation', 'app', 'entry', 'entry gzip', 'eager', 'all chunks', 'all chunks (bytes)', 'chunks', 'entry / hey-api'],
          documents.flatMap(({ document, operation, apps }) => {
            const hey = apps.find((a) => a.app.startsWith('hey-api'));
            return apps.map((a) => [document, operation.id, a.app, fmt.kib(a.entryBytes), fmt.kib(a.entryGzipBytes), fmt.kib(a.eagerBytes), fmt.kib(a.totalBytes), fmt.int(a.totalBytes), String(a.chunks), hey === undefined ? 'n/a' : fmt.ratio(a.entryBytes / hey.entryBytes)]);
          }),
        ),
      );
    }
  }
} finally {
  outputs?.project.remove();
}

// Targets for the slowdown against the bare route (issue 11): me / message / narrow.
const SERVER_TARGETS: Record<string, number[]> = { bindings: [1.15, 1.15, 1.15], pglite: [8, 12, 30], postgres: [6, 10, 15] };

if (sections.has('server')) {
  const { benchServers } = await import('./server.js');
  const rounds = Number(args.rounds);
  const rows = await benchServers({ sets: args['server-sets'].split(','), rounds, seconds: 4, log });
  results.server = rows;
  console.log(`\n## Server: autocannon, 10 connections, loopback, ${rounds} rounds of 4 s per side (medians)\n`);
  console.log(
    '`bindings`: the generated bindings (auth, decoding, envelope) in front of handlers that do no I/O (server/mock.ts). Slowdown: bare req/s over ours in the same round. CPU / request: CPU time of the server process (its own thread and pool; on PGlite the database included, on PostgreSQL the database server not) over requests answered, ours and bare, and their per-round ratio, steadier than req/s when other processes take the cores. Statements: database statements one request runs once the caches are warm (BEGIN/COMMIT count). Load: median 1-minute load average of the machine (2 cores) while that row was measured.\n',
  );
  const caseIndex = new Map<string, number>();
  console.log(
    table(
      ['server', 'request', 'req/s', 'p99', 'bare Fastify req/s', 'bare p99', 'slowdown vs bare', 'target', 'CPU / request', 'bare CPU / request', 'CPU ratio', 'statements / request', 'load (1 min)'],
      rows.map((r) => {
        const index = caseIndex.get(r.set) ?? 0;
        caseIndex.set(r.set, index + 1);
        const target = SERVER_TARGETS[r.set]?.[index];
        return [
          r.set,
          r.case,
          fmt.int(r.requestsPerSec),
          `${r.p99Ms} ms`,
          fmt.int(r.bareRequestsPerSec),
          `${r.bareP99Ms} ms`,
          fmt.ratio(r.slowdown),
          target === undefined ? '-' : `≤ ${target}x`,
          `${Math.round(r.cpuPerRequestUs)} µs`,
          `${Math.round(r.bareCpuPerRequestUs)} µs`,
          fmt.ratio(r.cpuSlowdown),
          r.statements === null ? '-' : String(r.statements),
          r.loadAverage.toFixed(1),
        ];
      }),
    ),
  );

  const withDatabase = rows.filter((r) => r.database !== undefined);
  if (withDatabase.length > 0) {
    console.log('\n### PostgreSQL: CPU per request with the database server\n');
    console.log(
      "The same rounds. The CPU ratio above counts the server process only; on PostgreSQL the database server's processes (postmaster and children, from /proc) take CPU time from the same cores for every statement. Total: the server's plus the database's CPU per request; its ratio is over the bare route's CPU per request (the bare route uses no database).\n",
    );
    console.log(
      table(
        ['request', 'server CPU / request', 'PostgreSQL CPU / request', 'total CPU / request', 'bare CPU / request', 'total CPU ratio', 'statements / request'],
        withDatabase.map((r) => [
          r.case,
          `${Math.round(r.cpuPerRequestUs)} µs`,
          `${Math.round(r.database!.cpuPerRequestUs)} µs`,
          `${Math.round(r.database!.totalCpuPerRequestUs)} µs`,
          `${Math.round(r.bareCpuPerRequestUs)} µs`,
          fmt.ratio(r.database!.totalCpuSlowdown),
          r.statements === null ? '-' : String(r.statements),
        ]),
      ),
    );
  }

  const serialising = rows.filter((r) => r.bareJson !== undefined);
  if (serialising.length > 0) {
    console.log('\n### Bindings against a bare route that serialises\n');
    console.log(
      'The same rounds: a bare Fastify route answering the same body as an object, which Fastify serialises with `JSON.stringify` on every request, as the bindings do. Its slowdown against the bare route answering stored bytes is what serialising alone costs; the bindings against it is what the bindings add beyond serialising.\n',
    );
    console.log(
      table(
        ['request', 'bare + JSON.stringify req/s', 'its CPU / request', 'it vs bare bytes', 'its CPU ratio vs bare bytes', 'bindings vs bare + JSON.stringify', 'bindings CPU ratio vs it'],
        serialising.map((r) => [
          r.case,
          fmt.int(r.bareJson!.requestsPerSec),
          `${Math.round(r.bareJson!.cpuPerRequestUs)} µs`,
          fmt.ratio(r.bareJson!.slowdownOfBare),
          fmt.ratio(r.bareJson!.cpuSlowdownOfBare),
          fmt.ratio(r.bareJson!.slowdown),
          fmt.ratio(r.bareJson!.cpuSlowdown),
        ]),
      ),
    );
  }
}

// Issue 22: each narrow shape at most this many times the bare route on PostgreSQL at demo size, and under this database time at 100,000 messages.
const NARROW_TARGET = { slowdown: 15, databaseMs: 5 };

if (sections.has('narrows')) {
  const { benchServers } = await import('./server.js');
  const rounds = Number(args.rounds);
  const sets = args['narrow-sets'].split(',').flatMap((driver) => args['narrow-sizes'].split(',').map((size) => `${driver}-narrows-${size}`));
  const rows = await benchServers({ sets, rounds, seconds: 4, log });
  results.narrows = rows;
  console.log(`\n## Narrows: POST /messages/flags/narrow by shape, autocannon, 10 connections, ${rounds} rounds of 4 s per side (medians)\n`);
  console.log(
    "The demo organization plus N messages in general; the member has read all but the middle one and her demo messages (bench/narrows.ts). Each round first serves 2 s of GET /messages/{id} (the member's oldest message), then the narrow and the bare route. Slowdown and CPU ratio as in the server section. Database time: planning plus execution of the shape's statement as the server prepares it (after six executions), EXPLAIN ANALYZE, median of five.\n",
  );
  console.log(
    table(
      ['database', 'messages', 'shape', 'req/s', 'p99', 'slowdown vs bare', 'CPU ratio', 'database time', 'target', 'load (1 min)'],
      rows.map((r) => {
        const [driver, , size] = r.set.split('-');
        const demo = Number(size) <= 100;
        const target = driver !== 'postgres' ? '-' : demo ? `≤ ${NARROW_TARGET.slowdown}x` : `< ${NARROW_TARGET.databaseMs} ms`;
        return [
          driver!,
          fmt.int(Number(size)),
          r.case.replace(/^narrow: /, ''),
          fmt.int(r.requestsPerSec),
          `${r.p99Ms} ms`,
          fmt.ratio(r.slowdown),
          fmt.ratio(r.cpuSlowdown),
          r.databaseMs === undefined ? '-' : `${r.databaseMs.toFixed(2)} ms`,
          target,
          r.loadAverage.toFixed(1),
        ];
      }),
    ),
  );
}

if (sections.has('conformance')) {
  const { benchConformance } = await import('./conformance.js');
  log('conformance: in process, then against serve --mock');
  const rows = await benchConformance({ root, requests: 2000, rounds: 3 });
  const byTransport = (name: string) => rows.filter((r) => r.transport === name);
  const summary = ['in process (no network)', 'HTTP, serve --mock'].map((transport) => {
    const runs = byTransport(transport);
    return {
      transport,
      requests: median(runs.map((r) => r.requests)),
      requestsPerSec: median(runs.map((r) => r.requestsPerSec)),
      requestsPerCpuSec: median(runs.map((r) => r.requestsPerCpuSec)),
      failures: Math.max(...runs.map((r) => r.failures)),
    };
  });
  results.conformance = summary;
  console.log('\n## teamchat conformance: requests per second (median of 3 runs of up to 2,000 requests, writes allowed, every operation)\n');
  console.log('In process: the run with a transport that answers in the bench process as a conforming server would (its request decoding included), so the figure is generation, serialisation, classification and checking. Per CPU second: the bench process\'s user + system time, one core.\n');
  console.log(
    table(
      ['transport', 'requests', 'req/s (wall)', 'req/s per CPU second', 'failures'],
      summary.map((r) => [r.transport, fmt.int(r.requests), fmt.int(r.requestsPerSec), fmt.int(r.requestsPerCpuSec), String(r.failures)]),
    ),
  );
}

if (sections.has('workers')) {
  const { benchWorkers } = await import('./workers.js');
  const rounds = Number(args.rounds);
  const rows = await benchWorkers({ rounds, seconds: 4, loadNice: Number(args['load-nice']), log });
  results.workers = rows;
  console.log(`\n## teamchat serve --workers: 1 vs 2 processes on one PostgreSQL, autocannon, 10 connections, ${rounds} rounds of 4 s (medians)\n`);
  console.log(`The load generator ran at nice ${args['load-nice']} (the servers at the default priority). CPU / request: the server processes' CPU time (primary and workers, not PostgreSQL) over requests answered.\n`);
  console.log(
    table(
      ['request', '1 worker req/s', '1 worker p99', '2 workers req/s', '2 workers p99', '2 over 1 (per round)', '1 worker CPU / request', '2 workers CPU / request'],
      rows.map((r) => [
        r.case,
        fmt.int(r.oneWorkerRequestsPerSec),
        `${r.oneWorkerP99Ms} ms`,
        fmt.int(r.twoWorkersRequestsPerSec),
        `${r.twoWorkersP99Ms} ms`,
        fmt.ratio(r.speedup),
        `${Math.round(r.oneWorkerCpuPerRequestUs)} µs`,
        `${Math.round(r.twoWorkersCpuPerRequestUs)} µs`,
      ]),
    ),
  );
  const us = (value: number) => `${Math.round(value)} µs`;
  const percent = (value: number) => `${Math.round(value * 100)}%`;
  console.log(
    `\nWhere the CPU went, per request (medians): the server processes, PostgreSQL (postmaster and backends), the load generator (autocannon, in the bench process), everything else the machine ran meanwhile, and the share of the machine left idle. Ceiling: ${machine.cpus} cores over the one-worker total, the most req/s these costs allow with any number of workers.\n`,
  );
  console.log(
    table(
      ['request', 'workers', 'server', 'PostgreSQL', 'load generator', 'total', 'other processes', 'machine idle', 'req/s', 'ceiling req/s', 'req/s of ceiling'],
      rows.flatMap((r) => [
        [
          r.case, '1', us(r.oneWorkerCpuPerRequestUs), us(r.oneWorkerDbCpuPerRequestUs), us(r.oneWorkerLoadCpuPerRequestUs),
          us(r.oneWorkerCpuPerRequestUs + r.oneWorkerDbCpuPerRequestUs + r.oneWorkerLoadCpuPerRequestUs), us(r.oneWorkerOtherCpuPerRequestUs), percent(r.oneWorkerIdle),
          fmt.int(r.oneWorkerRequestsPerSec), fmt.int(r.ceilingRequestsPerSec), percent(r.oneWorkerRequestsPerSec / r.ceilingRequestsPerSec),
        ],
        [
          r.case, '2', us(r.twoWorkersCpuPerRequestUs), us(r.twoWorkersDbCpuPerRequestUs), us(r.twoWorkersLoadCpuPerRequestUs),
          us(r.twoWorkersCpuPerRequestUs + r.twoWorkersDbCpuPerRequestUs + r.twoWorkersLoadCpuPerRequestUs), us(r.twoWorkersOtherCpuPerRequestUs), percent(r.twoWorkersIdle),
          fmt.int(r.twoWorkersRequestsPerSec), '', percent(r.twoWorkersRequestsPerSec / r.ceilingRequestsPerSec),
        ],
      ]),
    ),
  );
}

loads.push(loadavg()[0]!);
const loadDuring = { min: Math.min(...loads), median: median(loads), max: Math.max(...loads) };
results.loadAverage1m = loadDuring;
console.log(`\nLoad average (1 min) during the run: median ${loadDuring.median.toFixed(1)}, min ${loadDuring.min.toFixed(1)}, max ${loadDuring.max.toFixed(1)} on ${machine.cpus} cores.`);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('Wrote bench/results/latest.json');
