/** The `teamchat` command line: one yargs program, one module per command. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { conformanceCommand } from './commands/conformance.js';
import { diffCommand } from './commands/diff.js';
import { generateCommand } from './commands/generate.js';
import { initCommand } from './commands/init.js';
import { lintCommand } from './commands/lint.js';
import { serveCommand } from './commands/serve.js';

/** The program, not yet run. */
export function program(argv: string[]): Argv {
  return yargs(argv)
    .scriptName('teamchat')
    .command(initCommand)
    .command(generateCommand)
    .command(lintCommand)
    .command(serveCommand)
    .command(diffCommand)
    .command(conformanceCommand)
    .demandCommand(1, 'name a command')
    .strict()
    .help();
}

export async function main(argv: string[]): Promise<void> {
  await withoutHelpRenderedAhead(program(argv)).parseAsync();
}

/**
 * Once a command's handler has started, yargs renders that command's help
 * text in case the handler fails later; every handler goes through `wrap()`,
 * which reports its own failures, so that text is never shown. Skipping the
 * render saves about 40 ms of CPU per run (string widths and wrapping of
 * every option). yargs offers no setting for it, hence the guarded reach
 * into its usage object; should that move, the render simply happens.
 */
function withoutHelpRenderedAhead(argv: Argv): Argv {
  const internal = (argv as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (usage !== undefined && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
  return argv;
}

// Run as a script (`tsx generator/cli/main.ts`). No top-level await: the command's bundle (dist/cli.cjs) is CommonJS.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(hideBin(process.argv)).catch((error: unknown) => {
    process.exitCode = 1;
    throw error;
  });
}
