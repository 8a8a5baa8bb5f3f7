/**
 * Finding and reading `teamchat.config.{json,mjs,ts}`. A `.ts` config is
 * compiled with the TypeScript compiler the generator already depends on
 * (openapi-typescript needs it), so no loader is needed at run time; see
 * docs/decisions/0008-package-and-dependencies.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { typescript } from './cjs.js';
import { ConfigError, type UserConfig } from './config.js';
import { importModule } from './esm.js';

export const CONFIG_FILES = ['teamchat.config.json', 'teamchat.config.mjs', 'teamchat.config.ts'] as const;

export interface FoundConfig {
  /** Absolute path of the config file, if one was found. */
  file: string | undefined;
  /** The project root: the config file's folder, else the current directory. */
  root: string;
  config: UserConfig;
}

/** The config named by `--config`, else the first `teamchat.config.*` in `cwd` or a parent up to the package root. */
export async function loadUserConfig(explicit: string | undefined, cwd: string): Promise<FoundConfig> {
  const file = explicit === undefined ? findConfigFile(cwd) : resolve(cwd, explicit);
  if (file === undefined) return { file: undefined, root: cwd, config: {} };
  if (!existsSync(file)) throw new ConfigError(`--config: ${file} does not exist`);
  return { file, root: dirname(file), config: checkShape(await readConfig(file), file) };
}

export function findConfigFile(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const found = CONFIG_FILES.map((name) => join(dir, name)).filter((path) => existsSync(path));
    if (found.length > 1) throw new ConfigError(`${dir} holds ${found.map((f) => basename(f)).join(' and ')}: keep one`);
    if (found[0] !== undefined) return found[0];
    // A project's own package.json bounds the search: a config further up belongs to another project.
    const parent = dirname(dir);
    if (existsSync(join(dir, 'package.json')) || parent === dir) return undefined;
    dir = parent;
  }
}

async function readConfig(file: string): Promise<unknown> {
  if (file.endsWith('.json')) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch (error) {
      throw new ConfigError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (file.endsWith('.mjs') || file.endsWith('.js')) return defaultExport(await importConfig(file, file), file);
  if (file.endsWith('.ts') || file.endsWith('.mts')) return defaultExport(await importTsConfig(file), file);
  throw new ConfigError(`${file}: a config file ends in .json, .mjs or .ts`);
}

/**
 * Compiles the config to JavaScript next to itself (so its relative and
 * package imports resolve as written), imports it and removes the copy.
 */
async function importTsConfig(file: string): Promise<unknown> {
  const ts = typescript();
  const output = ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  });
  const problem = output.diagnostics?.[0];
  if (problem) throw new ConfigError(`${file}: ${ts.flattenDiagnosticMessageText(problem.messageText, '\n')}`);
  const compiled = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.mjs`);
  await writeFile(compiled, output.outputText);
  try {
    return await importConfig(compiled, file);
  } finally {
    await rm(compiled, { force: true });
  }
}

async function importConfig(path: string, shownAs: string): Promise<unknown> {
  try {
    return await importModule<unknown>(pathToFileURL(path).href);
  } catch (error) {
    throw new ConfigError(`${shownAs}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function defaultExport(module: unknown, file: string): unknown {
  const value = (module as { default?: unknown }).default;
  if (value === undefined) throw new ConfigError(`${file}: export the config as default (export default defineConfig({ ... }))`);
  return value;
}

const SHAPE: Record<string, 'string' | 'string[]' | Record<string, 'string'>> = {
  spec: 'string',
  out: 'string',
  targets: 'string[]',
  templates: 'string',
  clientPackage: { name: 'string', version: 'string' },
  server: { handlers: 'string' },
  docs: { title: 'string' },
};

/** Refuses unknown keys and wrong types, naming the file and the key. */
function checkShape(value: unknown, file: string): UserConfig {
  const fail = (key: string, want: string) => {
    throw new ConfigError(`${file}: ${key} must be ${want}`);
  };
  if (!isRecord(value)) fail('the config', 'an object');
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const want = SHAPE[key];
    if (want === undefined) fail(key, `one of the known options (${Object.keys(SHAPE).join(', ')}), not an unknown key`);
    else if (want === 'string') typeof entry === 'string' || fail(key, 'a string');
    else if (want === 'string[]') (Array.isArray(entry) && entry.every((e) => typeof e === 'string')) || fail(key, 'a list of strings');
    else {
      if (!isRecord(entry)) fail(key, 'an object');
      for (const [inner, innerValue] of Object.entries(entry as Record<string, unknown>)) {
        if (want[inner] === undefined) fail(`${key}.${inner}`, `one of ${Object.keys(want).join(', ')}, not an unknown key`);
        if (typeof innerValue !== 'string') fail(`${key}.${inner}`, 'a string');
      }
    }
  }
  return value as UserConfig;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
