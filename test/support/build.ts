/**
 * vitest global setup: compiles dist/ (incrementally, so a no-op build takes
 * seconds) and bundles it into dist/cli.cjs before any suite runs, because
 * the suites that spawn `bin/teamchat.js` run the compiled CLI, as users do.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleCli } from '../../scripts/bundle-cli.js';

export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // As `npm run build`: the help text bin/teamchat.js prints without loading yargs, and the command's bundle.
  execFileSync(process.execPath, ['dist/generator/cli/help-cache.js'], { cwd: root, stdio: 'inherit' });
  await bundleCli(root);
}
