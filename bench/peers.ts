/**
 * The peer generators, installed in bench/node_modules only: how to run each
 * on a scratch project's spec, and where its output lands.
 *   - @hey-api/openapi-ts: fetch client, SDK functions, types and zod schemas.
 *   - orval: fetch client (types included) and, as a second output, zod schemas.
 */
import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BENCH_DIR = import.meta.dirname;

export interface Peer {
  name: string;
  /** Output folder, relative to the scratch project. */
  outDir: string;
  /** Writes any config file the tool needs into the project. */
  prepare(projectDir: string, spec: string): void;
  /** Arguments of `node` that run the tool once, from the project folder. */
  args(spec: string): string[];
}

function bin(name: string): string {
  return realpathSync(join(BENCH_DIR, 'node_modules/.bin', name));
}

export function version(pkg: string): string {
  return (JSON.parse(readFileSync(join(BENCH_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

export const heyApi: Peer = {
  name: 'hey-api',
  outDir: 'peers/hey-api',
  prepare: () => undefined,
  args: (spec) => [
    bin('openapi-ts'),
    '--input', `./${spec}`,
    '--output', 'peers/hey-api',
    '--client', '@hey-api/client-fetch',
    '--plugins', '@hey-api/typescript', '@hey-api/sdk', 'zod',
    '--no-log-file', '--silent',
  ],
};

export const orval: Peer = {
  name: 'orval',
  outDir: 'peers/orval',
  prepare: (projectDir, spec) => {
    const config = {
      client: { input: { target: `./${spec}` }, output: { target: './peers/orval/client.ts', client: 'fetch', mode: 'single', baseUrl: 'http://127.0.0.1/api/v1' } },
      zod: { input: { target: `./${spec}` }, output: { target: './peers/orval/zod.ts', client: 'zod', mode: 'single' } },
    };
    // orval loads its config with require(): a CommonJS file avoids its ESM loader quirks.
    writeFileSync(join(projectDir, 'orval.config.cjs'), `module.exports = ${JSON.stringify(config, null, 2)};\n`);
  },
  args: () => [bin('orval'), '--config', 'orval.config.cjs'],
};

/** orval's fetch client alone (the `client` project of the same config): the counterpart of our `types,client`. */
export const orvalClient: Peer = {
  ...orval,
  name: 'orval (client only)',
  args: () => [bin('orval'), '--config', 'orval.config.cjs', '--project', 'client'],
};

export const peers: Peer[] = [heyApi, orval];

export function clearOutput(projectDir: string, peer: Peer): void {
  rmSync(join(projectDir, peer.outDir), { recursive: true, force: true });
}
