/**
 * Every generator option, defined once with its default, and the resolution
 * of user input (config file, then flags on top) into one `GenerateConfig`
 * that downstream code takes as is.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { builtinTemplatesDir } from './assets.js';

/** The command that regenerates the output, printed in banners and `--check` failures. */
export const REGENERATE_COMMAND = 'npm run generate';

/**
 * What a `teamchat.config.{json,mjs,ts}` file holds (and what the
 * programmatic `generate()` takes). Relative paths are relative to the
 * config file's folder (the project root).
 */
export interface UserConfig {
  /** Root file of the OpenAPI 3.0 or 3.1 document. */
  spec?: string;
  /** Directory generated files are written to. */
  out?: string;
  /** Targets to run, by name (default: all but those that run only when named, such as `query`). */
  targets?: string[];
  /** Folder of templates replacing built-in ones of the same name (`<target>/<file>.hbs`). */
  templates?: string;
  /** The `client-package` target: the publishable client's package.json. */
  clientPackage?: { name?: string; version?: string };
  /** The `server` target: where handler scaffolds are written (once, then hand-owned). */
  server?: { handlers?: string };
  /** The `docs` target: the reference page's title. */
  docs?: { title?: string };
}

/** Typed identity, so a `.ts` or `.mjs` config gets completion and checking. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

/**
 * Every option: its flag, its default and its description. yargs gets no
 * defaults (so "not given" can fall back to the config file); the defaults
 * below are applied once, in `resolveGenerateConfig`.
 */
export const OPTIONS = {
  spec: { type: 'string', default: 'spec/openapi.yaml', describe: 'root file of the OpenAPI document' },
  out: { type: 'string', default: 'generated', describe: 'directory generated files are written to' },
  only: { type: 'string', default: undefined, describe: 'comma-separated target names to run (default: `targets` of the config, or every target but query, which runs only when named)' },
  templates: { type: 'string', default: undefined, describe: 'folder of templates replacing built-in ones of the same name' },
  'client-package-name': { type: 'string', default: 'teamchat-api-client', describe: 'name in generated/client-package/package.json' },
  'client-package-version': { type: 'string', default: '0.1.0', describe: 'version in generated/client-package/package.json' },
  handlers: { type: 'string', default: 'server/handlers', describe: 'folder of the handler scaffolds (written once, then yours)' },
  'docs-title': { type: 'string', default: undefined, describe: 'title of the reference docs (default: the spec title and version)' },
  check: { type: 'boolean', default: false, describe: 'write nothing; exit 1 if any file is stale or missing' },
  watch: { type: 'boolean', default: false, describe: 'regenerate when files of the spec or the templates change' },
  config: { type: 'string', default: undefined, describe: 'config file (default: teamchat.config.{json,mjs,ts} in the current folder or above)' },
} as const;

type OptionName = keyof typeof OPTIONS;

/** The yargs definitions of some options, descriptions carrying the default. */
export function yargsOptions<K extends OptionName>(...names: K[]): { [P in K]: { type: (typeof OPTIONS)[P]['type']; describe: string } } {
  const entries = names.map((name) => {
    const { type, default: fallback, describe } = OPTIONS[name];
    const shown = fallback === undefined || typeof fallback === 'boolean' ? '' : ` [default: ${fallback}]`;
    return [name, { type, describe: `${describe}${shown}` }];
  });
  return Object.fromEntries(entries) as { [P in K]: { type: (typeof OPTIONS)[P]['type']; describe: string } };
}

/** Flags as yargs parsed them: absent flags are undefined. */
export interface GenerateInput {
  spec?: string | undefined;
  out?: string | undefined;
  only?: string | undefined;
  templates?: string | undefined;
  clientPackageName?: string | undefined;
  clientPackageVersion?: string | undefined;
  handlers?: string | undefined;
  docsTitle?: string | undefined;
  check?: boolean | undefined;
  watch?: boolean | undefined;
}

/** Per-target options, resolved. */
export interface TargetOptions {
  clientPackage: { name: string; version: string };
  /** Handler scaffolds folder, relative to the root, POSIX separators. */
  server: { handlersDir: string };
  /** Undefined: the spec's title and version. */
  docs: { title: string | undefined };
}

/** Every per-target option at its default. */
export const DEFAULT_TARGET_OPTIONS: TargetOptions = {
  clientPackage: { name: OPTIONS['client-package-name'].default, version: OPTIONS['client-package-version'].default },
  server: { handlersDir: OPTIONS.handlers.default },
  docs: { title: OPTIONS['docs-title'].default },
};

export interface GenerateConfig {
  /** Absolute project root; every other path is relative to it. */
  root: string;
  /** Root spec file, relative to `root`. */
  spec: string;
  /** Output directory, relative to `root`, POSIX separators. */
  outDir: string;
  /** Absolute path of the user's templates folder, if any. */
  userTemplatesDir: string | undefined;
  /** Absolute path of the templates folder targets read (built-in, or built-in overlaid with the user's). */
  templatesDir: string;
  /** Target names to run, in registry order. */
  targets: string[];
  /**
   * False when nobody chose the targets (no `--only`, no `targets` in the
   * config): then a target whose optional peer is missing is skipped with a
   * note instead of failing the run. Absent means chosen.
   */
  targetsChosen?: boolean;
  /**
   * Every target `--only` or the config's `targets` names, even those
   * `--only` leaves out of this run: a target off by default runs, for a
   * target reading its files, when named in either (so `--only
   * client-package` packs what the config's full run packs). Absent means
   * `targets` when chosen, else none.
   */
  named?: string[];
  options: TargetOptions;
  check: boolean;
  watch: boolean;
  command: string;
}

/**
 * Resolves flags over a config file's values over the defaults. `root` is
 * the config file's folder (or the current directory without one).
 */
export function resolveGenerateConfig(input: GenerateInput, root: string, known: readonly string[], file: UserConfig = {}): GenerateConfig {
  const fromFlags = input.only?.split(',').map((s) => s.trim()).filter(Boolean);
  const wanted = fromFlags ?? file.targets ?? [...known];
  const unknown = wanted.filter((name) => !known.includes(name));
  const where = fromFlags ? '--only' : 'targets';
  if (unknown.length > 0) {
    throw new ConfigError(`${where}: unknown target ${unknown.map((n) => `\`${n}\``).join(', ')}; known targets: ${known.join(', ')}`);
  }
  if (wanted.length === 0) throw new ConfigError(`${where} names no target`);
  const templates = input.templates ?? file.templates;
  return {
    root,
    spec: readable(root, input.spec ?? file.spec ?? OPTIONS.spec.default),
    outDir: inside(root, input.out ?? file.out ?? OPTIONS.out.default, input.out ? '--out' : 'out'),
    userTemplatesDir: templates === undefined ? undefined : resolve(root, templates),
    templatesDir: builtinTemplatesDir,
    targets: known.filter((name) => wanted.includes(name)),
    targetsChosen: fromFlags !== undefined || file.targets !== undefined,
    named: [...new Set([...(fromFlags ?? []), ...(file.targets ?? [])])].filter((name) => known.includes(name)),
    options: {
      clientPackage: {
        name: packageName(input.clientPackageName ?? file.clientPackage?.name ?? DEFAULT_TARGET_OPTIONS.clientPackage.name),
        version: packageVersion(input.clientPackageVersion ?? file.clientPackage?.version ?? DEFAULT_TARGET_OPTIONS.clientPackage.version),
      },
      server: {
        handlersDir: inside(root, input.handlers ?? file.server?.handlers ?? DEFAULT_TARGET_OPTIONS.server.handlersDir, input.handlers ? '--handlers' : 'server.handlers'),
      },
      docs: { title: input.docsTitle ?? file.docs?.title ?? DEFAULT_TARGET_OPTIONS.docs.title },
    },
    check: input.check ?? OPTIONS.check.default,
    watch: input.watch ?? OPTIONS.watch.default,
    command: REGENERATE_COMMAND,
  };
}

/** Wrong command-line or config input: reported as one line, exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Path flags as a shell user means them: relative to the current directory,
 * which may differ from the project root (a config found in a parent folder,
 * or named by `--config`). Made absolute here; values of the config file stay
 * relative to its folder.
 */
export function flagsFromCwd<T extends GenerateInput>(input: T, cwd: string): T {
  const absolute = (path: string | undefined) => (path === undefined ? undefined : resolve(cwd, path));
  return { ...input, spec: absolute(input.spec), out: absolute(input.out), templates: absolute(input.templates), handlers: absolute(input.handlers) };
}

/** The spec, relative to root; it is only read, so it may lie outside (a document shared by several packages). */
function readable(root: string, path: string): string {
  return relative(root, resolve(root, path)).split('\\').join('/');
}

/** A path given by the user, relative to root and kept inside it (generated files are written and removed there). */
function inside(root: string, path: string, option: string): string {
  const rel = relative(root, isAbsolute(path) ? path : resolve(root, path)).split('\\').join('/');
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new ConfigError(`${option} must name a path inside ${root}`);
  return rel;
}

// npm's rules: lowercase, URL-safe, optionally scoped, at most 214 characters.
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

function packageName(name: string): string {
  if (name.length > 214 || !PACKAGE_NAME.test(name)) throw new ConfigError(`clientPackage.name: "${name}" is not a valid npm package name`);
  return name;
}

function packageVersion(version: string): string {
  if (!SEMVER.test(version)) throw new ConfigError(`clientPackage.version: "${version}" is not a semantic version (like 1.2.3)`);
  return version;
}
