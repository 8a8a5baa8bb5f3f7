/**
 * A V8 code cache for TypeScript's 9 MB `typescript.js`, which the `types`
 * target (through openapi-typescript), the client package and `.ts` configs
 * load, and for the command's own bundle (`dist/cli.cjs`, which
 * `bin/teamchat.js` loads here; decision 0038). Compiling TypeScript is about
 * half of the CPU of a cold `generate` of a small spec; with the cache V8
 * skips parsing and compiling the functions a run used, about 0.12 s per
 * process. Node 22 has `module.enableCompileCache()`; Node 20 does not,
 * hence this. Code compiled from the cache cannot run `import()` on Node 20,
 * so a module loaded here must have none (`generator/esm.ts`).
 *
 * The module is compiled with `vm.Script` and registered in `require.cache`
 * under its own path before it runs, so every later `require('typescript')`
 * that resolves to the same file (openapi-typescript's, ours) gets this
 * instance. The cache is written at exit when there was none or V8 refused it
 * (a new Node or TypeScript), so it holds the functions the run compiled.
 * It lives in a folder of the current user under the system temp folder
 * (`TEAMCHAT_CACHE_DIR` overrides, `TEAMCHAT_CACHE_DIR=off` disables); any
 * failure falls back to a plain `require`.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';

type Wrapped = (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;

/** `require(specifier)` from `from`, through the code cache. */
export function requireCached(from: NodeJS.Require, specifier: string): unknown {
  const filename = from.resolve(specifier);
  const loaded = from.cache[filename];
  if (loaded !== undefined) return loaded.exports;
  const folder = cacheFolder();
  if (folder === undefined) return from(specifier);
  try {
    return load(filename, folder);
  } catch {
    delete from.cache[filename];
    return from(specifier);
  }
}

/**
 * A module's text. TypeScript's 9 MB are plain ASCII, which reads as Latin-1
 * without UTF-8 decoding in about half the CPU time and gives the same
 * string; any other text is decoded as UTF-8.
 */
export function moduleSource(filename: string): string {
  const bytes = readFileSync(filename);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function load(filename: string, folder: string): unknown {
  const source = moduleSource(filename);
  const { size, mtimeMs } = statSync(filename);
  const key = createHash('sha256').update(`${filename}\0${size}\0${mtimeMs}\0${process.version}\0${cachedDataVersionTag()}`).digest('hex').slice(0, 24);
  const cacheFile = join(folder, `${key}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename, cachedData });
  const wrapped = script.runInThisContext() as Wrapped;
  const module = new Module(filename);
  module.filename = filename;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(filename));
  const require = createRequire(filename);
  require.cache[filename] = module;
  wrapped.call(module.exports, module.exports, require, module, filename, dirname(filename));
  module.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected === true) {
    process.once('exit', () => {
      try {
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // A cache that cannot be written costs the next run its time, nothing else.
      }
    });
  }
  return module.exports;
}

/** The user's own cache folder, or undefined when it cannot be used safely (also the template cache's). */
export function cacheFolder(): string | undefined {
  const setting = process.env.TEAMCHAT_CACHE_DIR;
  if (setting === 'off') return undefined;
  const uid = process.getuid?.();
  const folder = setting || join(tmpdir(), `teamchat-api-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // In a shared temp folder, only a folder of our own: nobody else's compiled code runs here.
    const stat = statSync(folder);
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}
