/**
 * `teamchat --help` without loading yargs: the build renders the top-level
 * help once into `dist/help.txt`, which `bin/teamchat.js` prints when it is
 * newer than every module of the command line (else yargs runs as usual).
 * Loading yargs is most of the command's start-up (about 60 of 110 ms of
 * CPU beyond Node's own), which a loaded machine multiplies.
 *
 * Run as a script after `tsc` (`npm run build`, the test setup, the bench).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../assets.js';
import { program } from './main.js';

/** Where the bin looks for the text (kept in step with bin/teamchat.js). */
export const HELP_FILE = join(packageRoot, 'dist', 'help.txt');

/** The help yargs prints for `teamchat --help` at its default width of 80 columns. */
export async function renderHelp(): Promise<string> {
  return `${await program([]).wrap(80).getHelp()}\n`;
}

export async function writeHelpCache(): Promise<void> {
  writeFileSync(HELP_FILE, await renderHelp());
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await writeHelpCache();
