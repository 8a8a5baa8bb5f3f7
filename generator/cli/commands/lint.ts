/** `teamchat lint`: Redocly's lint of the spec with the project's redocly.yaml. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { ConfigError, OPTIONS, yargsOptions } from '../../config.js';
import { loadUserConfig } from '../../config-file.js';
import { requirePeers } from '../peers.js';
import { wrap, type Output } from '../wrapper.js';

const lintOptions = yargsOptions('config', 'spec');

type Args = ArgumentsCamelCase<InferredOptionTypes<typeof lintOptions>>;

export const lintCommand = {
  command: 'lint',
  describe: 'lint the spec with redocly (the rules of redocly.yaml)',
  builder: (yargs: Argv) => yargs.options(lintOptions),
  handler: wrap('lint', async (args: Args, output: Output) => {
    requirePeers('teamchat lint', ['@redocly/cli']);
    const found = await loadUserConfig(args.config, process.cwd());
    // A --spec flag is relative to the current directory, the config's spec to the config's folder.
    const spec = args.spec === undefined ? (found.config.spec ?? OPTIONS.spec.default) : resolve(args.spec);
    const code = await runRedocly(found.root, ['lint', spec, '--format=stylish']);
    output.out(code === 0 ? `lint: ${spec} has no problems` : `lint: redocly reported problems in ${spec} (exit ${code})`);
    return code === 0 ? 0 : 1;
  }),
};

/**
 * Runs @redocly/cli with node (no shell, no PATH lookup), output passed through: the project's
 * own, else the one beside the generator, where `requirePeers` found it.
 */
function runRedocly(root: string, args: string[]): Promise<number> {
  const manifestPath = redoclyManifest(root);
  const manifest = createRequire(manifestPath)(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.redocly;
  if (bin === undefined) throw new Error('@redocly/cli declares no redocly executable');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dirname(manifestPath), bin), ...args], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function redoclyManifest(root: string): string {
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from).resolve('@redocly/cli/package.json');
    } catch {
      // not installed there
    }
  }
  throw new ConfigError('teamchat lint needs @redocly/cli, not installed: `npm install --save-dev @redocly/cli`');
}
