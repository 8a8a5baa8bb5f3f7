import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));
const runtimeDir = join(root, 'runtime');
const fixtureDir = join(root, 'test/bindings/fixture/generated');

/**
 * The bindings fixture stores only what is generated per document; its
 * runtime imports (`./server-runtime/index.js`) resolve to `runtime/`, as
 * tsconfig.json's `rootDirs` make them for the type-checker.
 */
function fixtureRuntime(): Plugin {
  return {
    name: 'fixture-runtime',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer === undefined || !source.startsWith('.') || !resolve(dirname(importer)).startsWith(fixtureDir)) return null;
      const target = resolve(dirname(importer), source);
      if (existsSync(target.replace(/\.js$/, '.ts'))) return null;
      const inRuntime = join(runtimeDir, target.slice(fixtureDir.length)).replace(/\.js$/, '.ts');
      return existsSync(inRuntime) ? inRuntime : null;
    },
  };
}

export default defineConfig({
  plugins: [fixtureRuntime()],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
