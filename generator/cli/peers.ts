/**
 * Optional packages: what only `serve --mock`, `lint` and the docs target need
 * is not installed with the generator (docs/decisions/0008-package-and-dependencies.md).
 * A command that needs them checks first and names the install command; the
 * reference server lists its own packages at its entry point.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../config.js';

/** Packages the mock server (the generated bindings on Fastify) needs. */
export const MOCK_PEERS = ['fastify', '@fastify/multipart'] as const;

export function requirePeers(command: string, names: readonly string[]): void {
  const missing = names.filter((name) => !installed(name));
  if (missing.length === 0) return;
  throw new ConfigError(`${command} needs ${missing.join(', ')}, not installed: \`npm install --save-dev ${missing.join(' ')}\``);
}

/**
 * Installed where Node looks for it from the generator: a `node_modules/<name>`
 * folder with a `package.json` in this module's folder or any above it; with
 * `root`, also from the project there. The manifest is looked for, not the
 * entry point, so a package with no entry point (@redocly/cli) or only an ESM
 * one counts, and the answer does not depend on how this module was loaded
 * (the command's bundle is CommonJS).
 */
export function installed(name: string, root?: string): boolean {
  const starts = [dirname(fileURLToPath(import.meta.url)), ...(root === undefined ? [] : [resolve(root)])];
  return starts.some((start) => {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
      if (dirname(dir) === dir) return false;
    }
  });
}
