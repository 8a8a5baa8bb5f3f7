/** `teamchat generate`: run the targets and write (or, with `--check`, compare) their files. */
import { existsSync, watch as watchFiles } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { flagsFromCwd, resolveGenerateConfig, yargsOptions, type GenerateConfig, type GenerateInput } from '../../config.js';
import { loadUserConfig } from '../../config-file.js';
import type { GenerateResult } from '../pipeline.js';
import { progressLine } from '../progress.js';
import { describeFailure, formatMs, wrap, type Output } from '../wrapper.js';

const generateOptions = yargsOptions(
  'config',
  'spec',
  'out',
  'only',
  'templates',
  'client-package-name',
  'client-package-version',
  'handlers',
  'docs-title',
  'check',
  'watch',
);

type Args = ArgumentsCamelCase<InferredOptionTypes<typeof generateOptions>>;
type Run = (config: GenerateConfig) => Promise<GenerateResult>;

export const generateCommand = {
  command: 'generate',
  describe: 'generate types, client, client package, validators, server bindings and docs from the spec',
  builder: (yargs: Argv) => yargs.options(generateOptions),
  handler: wrap('generate', async (args: Args, output: Output) => {
    const config = await configFromArgs(args);
    const run = await pipeline();
    if (config.watch) return watch(config, output, run);
    return report(config, await run(config), output);
  }),
};

/** The config file (found or named by `--config`) under the flags, whose paths are relative to the current directory. */
export async function configFromArgs(args: GenerateInput & { config?: string | undefined }): Promise<GenerateConfig> {
  // The target registry loads the emitters' modules: only now that a command needs them.
  const cwd = process.cwd();
  const [found, { targetNames }] = await Promise.all([loadUserConfig(args.config, cwd), import('../../targets/index.js')]);
  return resolveGenerateConfig(flagsFromCwd(args, cwd), found.root, targetNames, found.config);
}

/** The generate pipeline (bundler, ts-morph, every target), with per-target progress on a terminal. */
export async function pipeline(): Promise<Run> {
  const { generate } = await import('../pipeline.js');
  return async (config) => {
    const progress = progressLine();
    try {
      return await generate(config, undefined, progress.step);
    } finally {
      progress.done();
    }
  };
}

/** Prints one line per target and, in check mode, what is stale and how to fix it. */
export function report(config: GenerateConfig, result: GenerateResult, output: Output): number {
  const width = Math.max(...result.targets.map((t) => t.name.length)) + 2;
  for (const { name, files, ms } of result.targets) {
    const count = (...statuses: string[]) => files.filter((f) => statuses.includes(f.status)).length;
    const changed = config.check ? `${count('stale', 'missing')} stale` : `${count('written')} written`;
    output.out(`${name.padEnd(width)}${changed}, ${count('unchanged')} unchanged  ${formatMs(ms)}`);
  }
  for (const line of noteLines(result.reports)) output.out(line);
  for (const file of result.obsolete.filter((f) => f.status === 'removed')) output.out(`removed ${file.path} (no target produces it any more)`);
  const stale = [...result.targets.flatMap((t) => t.files), ...result.obsolete].filter((f) => ['stale', 'missing', 'obsolete'].includes(f.status));
  if (!config.check || stale.length === 0) return 0;
  for (const file of stale) output.err(`${file.status.padEnd(8)} ${file.path}`);
  output.err(`${stale.length} generated file${stale.length === 1 ? ' is' : 's are'} out of date with the spec: run \`${config.command}\``);
  return 1;
}

/** How many notes of one kind are printed with their place before the rest are counted. */
const NOTES_PER_KIND = 3;

/**
 * One line per note, except that a note repeated at many places (a large
 * document can give the same one for hundreds of operations) prints its
 * first places and then one line counting the others.
 */
export function noteLines(reports: readonly string[]): string[] {
  const kinds = new Map<string, number>();
  const lines: string[] = [];
  for (const message of reports) {
    const text = /^\S+?:\d+(?::\d+)?: (.*)$/s.exec(message)?.[1] ?? message;
    const seen = (kinds.get(text) ?? 0) + 1;
    kinds.set(text, seen);
    if (seen <= NOTES_PER_KIND) lines.push(`note: ${message}`);
  }
  for (const [text, seen] of kinds) {
    if (seen > NOTES_PER_KIND) lines.push(`note: ${seen - NOTES_PER_KIND} more like "${text}"`);
  }
  return lines;
}

/** Regenerates on every change under the spec's folder and the templates; a failing run keeps watching. */
async function watch(config: GenerateConfig, output: Output, generate: Run): Promise<number> {
  const folders = [dirname(join(config.root, config.spec)), config.userTemplatesDir ?? config.templatesDir].filter((folder) => existsSync(folder));
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
