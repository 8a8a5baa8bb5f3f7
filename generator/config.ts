/**
 * Every generator option, defined once with its default, and the resolution
 * of user input into one `GenerateConfig` that downstream code takes as is.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { builtinTemplatesDir } from './assets.js';

/** The command that regenerates the output, printed in banners and `--check` failures. */
export const REGENERATE_COMMAND = 'npm run generate';

/** yargs option definitions shared by the commands that generate. */
export const generateOptions = {
  spec: { type: 'string', default: 'spec/openapi.yaml', describe: 'root file of the OpenAPI document' },
  out: { type: 'string', default: 'generated', describe: 'directory generated files are written to' },
  only: { type: 'string', describe: 'comma-separated target names to run (default: all)' },
  check: { type: 'boolean', default: false, describe: 'write nothing; exit 1 if any file is stale or missing' },
  watch: { type: 'boolean', default: false, describe: 'regenerate when files under spec/ or templates/ change' },
} as const;

export interface GenerateInput {
  spec: string;
  out: string;
  only?: string | undefined;
  check: boolean;
  watch: boolean;
}

export interface GenerateConfig {
  /** Absolute project root; every other path is relative to it. */
  root: string;
  /** Root spec file, relative to `root`. */
  spec: string;
  /** Output directory, relative to `root`, POSIX separators. */
  outDir: string;
  /** Absolute path of the templates folder. */
  templatesDir: string;
  /** Target names to run, in registry order; every registered target when `--only` is absent. */
  targets: string[];
  check: boolean;
  watch: boolean;
  command: string;
}

export function resolveGenerateConfig(input: GenerateInput, root: string, known: readonly string[]): GenerateConfig {
  const wanted = input.only === undefined ? [...known] : input.only.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new ConfigError(`unknown target ${unknown.map((n) => `\`${n}\``).join(', ')}; known targets: ${known.join(', ')}`);
  }
  if (wanted.length === 0) throw new ConfigError('--only names no target');
  return {
    root,
    spec: inside(root, input.spec, '--spec'),
    outDir: inside(root, input.out, '--out'),
    templatesDir: builtinTemplatesDir,
    targets: known.filter((name) => wanted.includes(name)),
    check: input.check,
    watch: input.watch,
    command: REGENERATE_COMMAND,
  };
}

/** Wrong command-line input: reported as one line, exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A path given on the command line, relative to root and kept inside it. */
function inside(root: string, path: string, option: string): string {
  const rel = relative(root, isAbsolute(path) ? path : resolve(root, path)).split('\\').join('/');
  if (rel === '' || rel.startsWith('..')) throw new ConfigError(`${option} must name a path inside ${root}`);
  return rel;
}
