/**
 * `npm test`'s pretest step: installs Debian's chromium for the docs browser
 * test when it is missing and this is root with apt-get; otherwise says in
 * one line what to run. It never stops the suites: without chromium only the
 * browser test fails, with the same line.
 *
 * `--dry-run` prints the install command instead of running it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { adviceLine, chromiumPlan, commandLine, thisMachine } from './chromium.js';

const dryRun = process.argv.includes('--dry-run');
const machine = thisMachine();
const plan = chromiumPlan(machine);

if (plan.kind === 'advise') {
  console.log(`pretest: ${plan.line}`);
} else if (plan.kind === 'install') {
  if (dryRun) {
    console.log(`pretest: would install chromium for the docs browser test: ${commandLine(plan.commands)}`);
  } else {
    console.log(`pretest: installing chromium for the docs browser test: ${commandLine(plan.commands)}`);
    const failed = plan.commands.find((command) => {
      const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      // apt's notes on a good run are noise; on a failed one they say why.
      if (result.status !== 0) process.stderr.write(result.stderr ?? '');
      return result.status !== 0;
    });
    if (failed !== undefined) console.log(`pretest: \`${failed.join(' ')}\` failed; ${adviceLine(machine.path)}`);
    else if (!existsSync(machine.path)) console.log(`pretest: chromium is installed, but ${machine.path} is not there; set TEAMCHAT_CHROMIUM to its binary`);
  }
}
