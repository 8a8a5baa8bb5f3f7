/**
 * The package as users get it: start-up time of each command line (`--help`,
 * fresh processes, the same rounds for every tool), the size of an install of
 * our tarball into an empty project (generator only, then with the mock's
 * optional peers), and the size of the generated client package beside the
 * peers' generated clients.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Outputs } from './outputs.js';
import { BENCH_DIR, peers } from './peers.js';
import { median, timeProcess } from './stats.js';

export interface StartupRow {
  tool: string;
  medianMs: number;
  runs: number[];
  /** Median over rounds of this tool's time over ours in the same round. */
  ratioVsOurs: number;
}

const HELP: { tool: string; args: (root: string) => string[] }[] = [
  { tool: 'teamchat --help', args: (root) => [join(root, 'bin/teamchat.js'), '--help'] },
  { tool: 'orval --help', args: () => [join(BENCH_DIR, 'node_modules/orval/dist/bin/orval.js'), '--help'] },
  { tool: 'openapi-ts --help (hey-api)', args: () => [join(BENCH_DIR, 'node_modules/@hey-api/openapi-ts/bin/run.js'), '--help'] },
];

export function benchStartup(root: string, rounds: number): StartupRow[] {
  const times: number[][] = HELP.map(() => []);
  for (let round = 0; round < rounds; round++) {
    HELP.forEach((entry, i) => times[i]!.push(timeProcess(process.execPath, entry.args(root), root)!));
  }
  return HELP.map((entry, i) => ({
    tool: entry.tool,
    medianMs: median(times[i]!),
    runs: times[i]!.map(Math.round),
    ratioVsOurs: median(times[i]!.map((ms, round) => ms / times[0]![round]!)),
  }));
}

export interface InstallRow {
  install: string;
  packages: number;
  bytes: number;
  tarballBytes?: number;
  tarballFiles?: number;
}

function npm(args: string[], cwd: string): string {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

function installedPackages(project: string): number {
  const lock = JSON.parse(readFileSync(join(project, 'node_modules/.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  return Object.keys(lock.packages).filter((path) => path.startsWith('node_modules/')).length;
}

/** `npm pack` of the project (dist/ must be built), installed into an empty folder from the npm cache where possible. */
export function benchInstall(root: string): InstallRow[] {
  const scratch = mkdtempSync(join(tmpdir(), 'teamchat-bench-install-'));
  try {
    const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], root)) as { filename: string; size: number; entryCount: number }[];
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
    const project = join(scratch, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "empty", "private": true }\n');
    const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
    npm(['install', join(scratch, packed!.filename), ...flags], project);
    const rows: InstallRow[] = [
      {
        install: 'teamchat-api (generate, init, serve --mock needs its peers)',
        packages: installedPackages(project),
        bytes: folderBytes(join(project, 'node_modules')),
        tarballBytes: packed!.size,
        tarballFiles: packed!.entryCount,
      },
    ];
    npm(['install', `fastify@${manifest.peerDependencies.fastify}`, `@fastify/multipart@${manifest.peerDependencies['@fastify/multipart']}`, ...flags], project);
    rows.push({ install: '+ fastify, @fastify/multipart (serve --mock)', packages: installedPackages(project), bytes: folderBytes(join(project, 'node_modules')) });
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export interface ClientSizeRow {
  client: string;
  files: number;
  bytes: number;
  gzipBytes: number;
}

/** Bytes of each generated client as written (our client package: its JavaScript and .d.ts; the peers: their client output). */
export function clientSizes(outputs: Outputs): ClientSizeRow[] {
  timeProcess(process.execPath, ['bin/teamchat.js', 'generate', '--spec', outputs.project.spec, '--only', 'client-package'], outputs.project.dir);
  const measure = (client: string, dir: string, keep: (name: string) => boolean): ClientSizeRow => {
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => keep(name) && statSync(join(dir, name)).isFile())
      .sort();
    const contents = files.map((name) => readFileSync(join(dir, name)));
    return { client, files: files.length, bytes: contents.reduce((n, c) => n + c.length, 0), gzipBytes: gzipSync(Buffer.concat(contents), { level: 9 }).length };
  };
  return [
    measure('teamchat client package (.js + .d.ts)', outputs.path('generated/client-package'), (name) => name.endsWith('.js') || name.endsWith('.d.ts')),
    ...peers.map((peer) => measure(`${peer.name} (generated .ts, zod included)`, outputs.path(peer.outDir), (name) => name.endsWith('.ts'))),
  ];
}
