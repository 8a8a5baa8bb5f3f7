/**
 * vitest global setup: compiles dist/ (incrementally, so a no-op build takes
 * seconds) before any suite runs, because the suites that spawn
 * `bin/teamchat.js` run the compiled CLI, as users do.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // As `npm run build`: the help text bin/teamchat.js prints without loading yargs.
  execFileSync(process.execPath, ['dist/generator/cli/help-cache.js'], { cwd: root, stdio: 'inherit' });
}
