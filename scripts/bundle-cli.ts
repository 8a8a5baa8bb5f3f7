/**
 * Bundles the compiled generator (dist/generator/, dist/package-root.js and
 * the runtime modules the conformance run imports, dist/runtime/) into one
 * CommonJS file, dist/cli.cjs, which bin/teamchat.js loads through
 * the V8 code cache (generator/code-cache.ts). Node 20 caches the code of no
 * ES module, so a cold `generate` compiled and linked some 110 of our
 * modules on every run: about 60 ms of a 0.4 s run on our spec. Decision
 * 0038.
 *
 * - Packages stay outside, loaded from node_modules by `require` (an ES-only
 *   one such as yargs as an ES module, Node 20.19 and later), and so does
 *   every other part of dist/: the reference server, the generated modules,
 *   the `types` worker (a thread's own entry), and the two modules named in
 *   `OUTSIDE`. Imports of those are rewritten to paths from dist/.
 * - Each module keeps its own `import.meta.url` (the file it was compiled
 *   to, found from the bundle's folder at run time), which the generator
 *   uses to find its package folder, the worker and packages.
 * - The bundle is strict code, as the modules were.
 * - It holds no `import()`: Node 20 loses the callback that runs one in code
 *   compiled from a code cache. The generator's dynamic imports of packages,
 *   URLs and a user's config go through generator/esm.ts, kept outside and
 *   loaded as an ES module; the others (its own lazily loaded modules, and
 *   the reference server's entry) become `require()`, which loads an ES
 *   module too (Node 20.19 and later, `engines`): the same instance.
 *
 * Run by `npm run build` after tsc, and by the test setup.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * Modules of dist/generator/ loaded from where they are: the `types` worker
 * (a thread's own entry), the module that runs `import()` for the rest
 * (generator/esm.ts), and the one whose start sample bin/teamchat.js takes
 * before the bundle loads (generator/cpu.ts), which must be the same
 * instance the bundle reads.
 */
const OUTSIDE = new Set(['generator/targets/types/worker.js', 'generator/esm.js', 'generator/cpu.js']);

/** The modules of dist/ the bundle holds; every other file of dist/ is loaded from where it is. */
function bundled(dist: string, file: string): boolean {
  const path = relative(dist, file).split(sep).join('/');
  return path === 'package-root.js' || path.startsWith('runtime/') || (path.startsWith('generator/') && !OUTSIDE.has(path));
}

/** `import.meta.url` of a bundled module: its file under dist/, from the bundle's own folder. */
const MODULE_URL = '__teamchatModuleUrl';

function distPlugin(dist: string): Plugin {
  return {
    name: 'teamchat-dist',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        if (!target.startsWith(dist + sep) || bundled(dist, target)) return undefined;
        return { path: `./${relative(dist, target).split(sep).join('/')}`, external: true };
      });
      build.onLoad({ filter: /\.js$/ }, (args) => {
        if (!bundled(dist, args.path)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (/\bimport\.meta\.(?!url\b)/.test(source)) throw new Error(`${args.path}: only import.meta.url can be kept in the CommonJS bundle`);
        const url = `${MODULE_URL}(${JSON.stringify(relative(dist, args.path).split(sep).join('/'))})`;
        return { contents: source.replace(/\bimport\.meta\.url\b/g, url), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Writes `<root>/dist/cli.cjs` from the compiled modules in `<root>/dist/`. */
export async function bundleCli(root: string): Promise<void> {
  const dist = resolve(root, 'dist');
  const result = await build({
    entryPoints: [join(dist, 'generator/cli/main.js')],
    outfile: join(dist, 'cli.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    // A module compiled from a code cache cannot run `import()` on Node 20 (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING):
    // every import() becomes a require(), which loads ES modules too (Node 20.19 and later).
    supported: { 'dynamic-import': false },
    plugins: [distPlugin(dist)],
    banner: {
      js: [
        "'use strict';",
        '// The teamchat command: dist/generator/ bundled by scripts/bundle-cli.ts. Do not edit; run `npm run build`.',
        `const ${MODULE_URL} = (path) => require('node:url').pathToFileURL(require('node:path').join(__dirname, path)).href;`,
      ].join('\n'),
    },
    logLevel: 'silent',
  });
  const problems = [...result.errors, ...result.warnings];
  if (problems.length > 0) throw new Error(`bundling dist/cli.cjs: ${problems.map((p) => p.text).join('; ')}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bundleCli(resolve(dirname(fileURLToPath(import.meta.url)), '..')).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
