/**
 * The programmatic API (`import { generate } from 'teamchat-api'`), for build
 * tools and scripts. Importing it is cheap: the pipeline loads on the first
 * `generate` call.
 */
import { resolveGenerateConfig, type UserConfig } from './config.js';
import { loadUserConfig } from './config-file.js';
import type { GenerateResult, Progress } from './cli/pipeline.js';

export { defineConfig, ConfigError, type UserConfig } from './config.js';
export type { GenerateResult, TargetSummary } from './cli/pipeline.js';
export type { FileResult, FileStatus } from './write.js';
export { SpecError } from './load/errors.js';

export interface GenerateOptions extends UserConfig {
  /** Project root that relative paths start from (default: the config file's folder, else the current directory). */
  root?: string;
  /**
   * A config file to read first (options given here override it); `true`
   * looks for `teamchat.config.{json,mjs,ts}` from `root`. Default: none.
   */
  config?: string | true;
  /** Write nothing; report stale and missing files. */
  check?: boolean;
  /** Called with `load`, then each target's name, as the run moves on. */
  onProgress?: Progress;
}

/**
 * Generates every target (or `targets`) of the spec; writes nothing unless
 * all of them succeed. Returns, per target, each file with its status
 * (`written`, `unchanged`, or in check mode `stale`/`missing`).
 * Throws `SpecError` (file:line) for a bad spec and `ConfigError` for bad options.
 */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const { root, config, check, onProgress, ...own } = options;
  const start = root ?? process.cwd();
  const found: { root: string; config: UserConfig } = config === undefined ? { root: start, config: {} } : await loadUserConfig(config === true ? undefined : config, start);
  const merged: UserConfig = {
    ...found.config,
    ...own,
    clientPackage: { ...found.config.clientPackage, ...own.clientPackage },
    server: { ...found.config.server, ...own.server },
    docs: { ...found.config.docs, ...own.docs },
  };
  const [{ targetNames, targets }, pipeline] = await Promise.all([import('./targets/index.js'), import('./cli/pipeline.js')]);
  const resolved = resolveGenerateConfig({ check: check ?? false }, root ?? found.root, targetNames, merged);
  return pipeline.generate(resolved, targets, onProgress);
}
