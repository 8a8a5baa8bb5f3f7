/** `teamchat generate`: run the targets and write (or, with `--check`, compare) their files. */
import { existsSync, watch as watchFiles } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { generateOptions, resolveGenerateConfig, type GenerateConfig } from '../../config.js';
import type { GenerateResult } from '../pipeline.js';
import { describeFailure, formatMs, wrap, type Output } from '../wrapper.js';

type Args = ArgumentsCamelCase<InferredOptionTypes<typeof generateOptions>>;

export const generateCommand = {
  command: 'generate',
  describe: 'generate types, client, validators, server bindings and docs from the spec',
  builder: (yargs: Argv) => yargs.options(generateOptions),
  handler: wrap('generate', async (args: Args, output: Output) => {
    // The pipeline (bundler, ts-morph, every target) loads only when a command needs it.
    const [{ targetNames }, { generate }] = await Promise.all([import('../../targets/index.js'), import('../pipeline.js')]);
    const config = resolveGenerateConfig(args, process.cwd(), targetNames);
    if (config.watch) return watch(config, output, generate);
    return report(config, await generate(config), output);
  }),
};

/** Prints one line per target and, in check mode, what is stale and how to fix it. */
export function report(config: GenerateConfig, result: GenerateResult, output: Output): number {
  const width = Math.max(...result.targets.map((t) => t.name.length)) + 2;
  for (const { name, files, ms } of result.targets) {
    const count = (...statuses: string[]) => files.filter((f) => statuses.includes(f.status)).length;
    const changed = config.check ? `${count('stale', 'missing')} stale` : `${count('written')} written`;
    output.out(`${name.padEnd(width)}${changed}, ${count('unchanged')} unchanged  ${formatMs(ms)}`);
  }
  for (const message of result.reports) output.out(`note: ${message}`);
  for (const file of result.obsolete.filter((f) => f.status === 'removed')) output.out(`removed ${file.path} (no target produces it any more)`);
  const stale = [...result.targets.flatMap((t) => t.files), ...result.obsolete].filter((f) => ['stale', 'missing', 'obsolete'].includes(f.status));
  if (!config.check || stale.length === 0) return 0;
  for (const file of stale) output.err(`${file.status.padEnd(8)} ${file.path}`);
  output.err(`${stale.length} generated file${stale.length === 1 ? ' is' : 's are'} out of date with the spec: run \`${config.command}\``);
  return 1;
}

/** Regenerates on every change under the spec's folder and templates/; a failing run keeps watching. */
async function watch(config: GenerateConfig, output: Output, generate: (config: GenerateConfig) => Promise<GenerateResult>): Promise<number> {
  const folders = [dirname(join(config.root, config.spec)), config.templatesDir].filter((folder) => existsSync(folder));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = async (): Promise<void> => {
    const started = performance.now();
    try {
      report(config, await generate(config), output);
      output.err(`generated in ${formatMs(performance.now() - started)}; watching ${folders.map((f) => relative(config.root, f)).join(', ')}`);
    } catch (error) {
      output.err(describeFailure('generate', error));
    }
  };
  await run();
  return new Promise<number>(() => {
    for (const folder of folders) {
      watchFiles(folder, { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          running = running.then(run);
        }, 150);
      });
    }
  });
}
