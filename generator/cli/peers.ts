/**
 * Optional peer dependencies: what only `serve` and the docs page need is not
 * installed with the generator (docs/decisions/0008-package-and-dependencies.md).
 * A command that needs them checks first and names the install command.
 */
import { createRequire } from 'node:module';
import { ConfigError } from '../config.js';

/** Packages the mock server (the generated bindings on Fastify) needs. */
export const MOCK_PEERS = ['fastify', '@fastify/multipart'] as const;

/** Packages the reference server needs besides the mock's. */
export const SERVER_PEERS = [
  ...MOCK_PEERS,
  '@fastify/formbody',
  '@fastify/static',
  '@electric-sql/pglite',
  'pg',
  '@tus/server',
  '@tus/file-store',
  'emoji-datasource',
  'markdown-it',
  'uri-template',
  'diff',
  '@redocly/cli',
] as const;

export function requirePeers(command: string, names: readonly string[]): void {
  const missing = names.filter((name) => !resolvable(name));
  if (missing.length === 0) return;
  throw new ConfigError(`${command} needs ${missing.join(', ')}, not installed: \`npm install --save-dev ${missing.join(' ')}\``);
}

/** Found by ESM resolution, or (for packages with no entry point, like @redocly/cli) by its manifest. */
function resolvable(name: string): boolean {
  for (const attempt of [() => import.meta.resolve(name), () => createRequire(import.meta.url).resolve(`${name}/package.json`)]) {
    try {
      attempt();
      return true;
    } catch {
      // try the next way
    }
  }
  return false;
}
