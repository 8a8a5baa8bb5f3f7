#!/usr/bin/env node
// The `teamchat` command: runs the compiled CLI in dist/ (built by `npm run build`, run by prepare and prepack).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--help' || args[0] === '--version') && process.env.TEAMCHAT_HELP_CACHE !== 'off') {
  const text = args[0] === '--version' ? `${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n` : cachedHelp();
  if (text !== undefined) {
    process.stdout.write(text);
    process.exit(0);
  }
}

let main;
try {
  // Before the command's modules load: how busy the cores are from here on (dist/generator/cpu.js),
  // and the V8 flags of a one-shot run (dist/generator/cli/tiering.js).
  (await import('../dist/generator/cpu.js')).markStart();
  (await import('../dist/generator/cli/tiering.js')).tuneTiering(args);
  main = await loadMain();
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/dist\/generator\/(cpu|code-cache|cli\/main|cli\/tiering)\.js/.test(String(error.message))) throw error;
  process.stderr.write('teamchat: the compiled CLI is missing (dist/); run `npm run build` in the teamchat-api folder\n');
  process.exit(1);
}
await main(args);

/**
 * The command's `main`: from dist/cli.cjs, the compiled modules bundled into one CommonJS file
 * (scripts/bundle-cli.ts) and loaded through the V8 code cache (dist/generator/code-cache.js),
 * which Node 20 has for no ES module (docs/decisions/0038-cli-bundle.md). The compiled modules
 * themselves are loaded instead when the bundle is missing, older than the last compile
 * (dist/.tsbuildinfo, which a package leaves out), or `TEAMCHAT_CLI_BUNDLE=off`.
 */
async function loadMain() {
  const bundle = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
  const built = statSync(bundle, { throwIfNoEntry: false })?.mtimeMs;
  const compiled = statSync(new URL('../dist/.tsbuildinfo', import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
  if (process.env.TEAMCHAT_CLI_BUNDLE !== 'off' && built !== undefined && (compiled === undefined || built >= compiled)) {
    const { requireCached } = await import('../dist/generator/code-cache.js');
    return requireCached(createRequire(import.meta.url), bundle).main;
  }
  return (await import('../dist/generator/cli/main.js')).main;
}

/**
 * The top-level help as the build rendered it (dist/generator/cli/help-cache.js), without
 * loading yargs: only at yargs' default width (80 columns, or output that is not a terminal)
 * and while the file is newer than every module the help is made from.
 */
function cachedHelp() {
  if (process.stdout.isTTY && (process.stdout.columns ?? 80) < 80) return undefined;
  try {
    const cache = statSync(new URL('../dist/help.txt', import.meta.url)).mtimeMs;
    const cli = new URL('../dist/generator/cli/', import.meta.url);
    const sources = [
      new URL('../dist/generator/config.js', import.meta.url),
      ...readdirSync(cli).filter((f) => f.endsWith('.js')).map((f) => new URL(f, cli)),
      ...readdirSync(new URL('commands/', cli)).filter((f) => f.endsWith('.js')).map((f) => new URL(`commands/${f}`, cli)),
    ];
    if (sources.some((source) => statSync(source).mtimeMs > cache)) return undefined;
    return readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}
