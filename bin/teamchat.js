#!/usr/bin/env node
// The `teamchat` command: runs the compiled CLI in dist/ (built by `npm run build`, run by prepare and prepack).
import { readdirSync, readFileSync, statSync } from 'node:fs';

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
  ({ main } = await import('../dist/generator/cli/main.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/dist\/generator\/(cpu|cli\/main|cli\/tiering)\.js/.test(String(error.message))) throw error;
  process.stderr.write('teamchat: the compiled CLI is missing (dist/); run `npm run build` in the teamchat-api folder\n');
  process.exit(1);
}
await main(args);

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
