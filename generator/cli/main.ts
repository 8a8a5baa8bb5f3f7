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
  await program(argv).parseAsync();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(hideBin(process.argv));
}
