/**
 * Optional packages: what only `serve --mock`, `lint` and the docs target need
 * is not installed with the generator (docs/decisions/0008-package-and-dependencies.md).
 * A command that needs them checks first and names the install command; the
 * reference server lists its own packages at its entry point.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ConfigError } from '../config.js';

/** Packages the mock server (the generated bindings on Fastify) needs. */
export const MOCK_PEERS = ['fastify', '@fastify/multipart'] as const;

export function requirePeers(command: string, names: readonly string[]): void {
  const missing = names.filter((name) => !installed(name));
  if (missing.length === 0) return;
  throw new ConfigError(`${command} needs ${missing.join(', ')}, not installed: \`npm install --save-dev ${missing.join(' ')}\``);
}

/**
 * Found beside the generator by ESM resolution, or (for packages with no
 * entry point, like @redocly/cli) by its manifest; with `root`, also from the
 * project there.
 */
export function installed(name: string, root?: string): boolean {
  const attempts = [() => import.meta.resolve(name), () => createRequire(import.meta.url).resolve(`${name}/package.json`)];
  if (root !== undefined) attempts.push(() => createRequire(join(root, 'package.json')).resolve(`${name}/package.json`));
  for (const attempt of attempts) {
    try {
      attempt();
      return true;
    } catch {
      // try the next way
    }
  }
  return false;
}
