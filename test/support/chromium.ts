/**
 * The browser the docs test drives: Debian's chromium, through
 * playwright-core. `npm test`'s pretest step installs it when it is missing
 * and it can (`test/support/ensure-chromium.ts`), so a fresh machine needs
 * only README's two commands. `TEAMCHAT_CHROMIUM` names another binary.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.TEAMCHAT_CHROMIUM || DEFAULT_CHROMIUM;
}

/** The install, as root: Debian's package, without questions. */
export const INSTALL_COMMANDS: readonly (readonly string[])[] = [
  ['apt-get', 'update', '-qq'],
  ['apt-get', 'install', '-y', '-qq', 'chromium'],
];

export interface Machine {
  /** The binary the test will launch. */
  path: string;
  present: boolean;
  root: boolean;
  aptGet: boolean;
}

export type ChromiumPlan = { kind: 'present' } | { kind: 'install'; commands: readonly (readonly string[])[] } | { kind: 'advise'; line: string };

/** What to do before the suites run: nothing, install, or say in one line what to run. */
export function chromiumPlan(machine: Machine): ChromiumPlan {
  if (machine.present) return { kind: 'present' };
  if (machine.root && machine.aptGet) return { kind: 'install', commands: INSTALL_COMMANDS };
  return { kind: 'advise', line: adviceLine(machine.path) };
}

export function adviceLine(path: string): string {
  return `the docs browser test needs chromium at ${path}: run \`sudo apt-get install chromium\` (Debian), or set TEAMCHAT_CHROMIUM to a Chromium binary`;
}

export function commandLine(commands: readonly (readonly string[])[]): string {
  return commands.map((command) => command.join(' ')).join(' && ');
}

/** This machine, as far as the plan cares. */
export function thisMachine(env: NodeJS.ProcessEnv = process.env): Machine {
  const path = chromiumPath(env);
  return {
    path,
    present: existsSync(path),
    root: process.getuid?.() === 0,
    aptGet: (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, 'apt-get'))),
  };
}
