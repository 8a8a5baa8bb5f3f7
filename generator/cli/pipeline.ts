/**
 * The generate pipeline: load -> model -> targets (all in memory) -> write.
 * Nothing is written unless the spec loaded and every target succeeded.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { GenerateConfig } from '../config.js';
import { loadSpec, type SourceMap } from '../load/index.js';
import { buildModel } from '../model/build.js';
import type { ApiModel } from '../model/types.js';
import { targets as registry } from '../targets/index.js';
import type { OutputFile, Target, TargetContext, WarmUp } from '../targets/types.js';
import { effectiveTemplatesDir } from '../templates.js';
import { installed } from './peers.js';
import { removeObsolete, Writer, type FileResult } from '../write.js';

export interface TargetSummary {
  name: string;
  files: FileResult[];
  ms: number;
}

export interface GenerateResult {
  targets: TargetSummary[];
  /** Non-fatal findings the targets reported. */
  reports: string[];
  /** Absolute paths of the spec's files, for watching. */
  specFiles: string[];
  /** Generated files no target produced (removed, or listed in check mode); empty when `--only` limited the run. */
  obsolete: FileResult[];
}

/** Called as the run moves on: `load` before the spec is read, then each target's name before it runs. */
export type Progress = (step: string) => void;

export interface Produced {
  targets: { target: Target; files: OutputFile[]; ms: number }[];
  /** The model the targets read, and where each node of the bundled document was written. */
  model: ApiModel;
  sources: SourceMap;
  reports: string[];
  specFiles: string[];
}

/** Called with a target's files as soon as that target has them, in whatever order targets finish. */
export type FilesReady = (files: readonly OutputFile[]) => void;

/**
 * Load, model and run the selected targets, all in memory: nothing is
 * written. The targets are started in registry order without waiting for one
 * another, so a target working in a thread (`types`) overlaps the next ones;
 * `ready` sees each target's files as soon as they are there. A failure is
 * the first failing target's in registry order, after every target settled.
 */
export async function produce(
  config: GenerateConfig,
  available: readonly Target[] = registry,
  progress: Progress = () => {},
  ready: FilesReady = () => {},
): Promise<Produced> {
  progress('load');
  const skipped: string[] = [];
  const selected = available.filter((t) => config.targets.includes(t.name) && !leftOut(config, t) && !skippedByDefault(config, t, available, skipped));
  const spec = resolve(config.root, config.spec);
  const warm = new Map(selected.flatMap((t) => (t.warmUp === undefined ? [] : [[t.name, t.warmUp(spec)] as const])));
  try {
    const templatesDir = effectiveTemplatesDir(config.userTemplatesDir);
    const loaded = await loadSpec(config.spec, config.root);
    for (const started of warm.values()) started?.loaded?.(loaded.document);
    const model = buildModel(loaded);
    const targetReports = new Map<string, string[]>();
    const times = new Map<string, number>();

    // The chosen targets and, through `dependsOn`, every target whose files they read.
    const producing = new Set<string>();
    const include = (target: Target): void => {
      if (producing.has(target.name)) return;
      producing.add(target.name);
      for (const name of target.dependsOn ?? []) {
        const found = dependency(available, target, name);
        if (!leftOut(config, found)) include(found);
      }
    };
    selected.forEach(include);

    // Each target runs at most once per run, even when another target reads its files.
    const outputs = new Map<string, Promise<OutputFile[]>>();
    const run = (target: Target): Promise<OutputFile[]> => {
      let files = outputs.get(target.name);
      if (files === undefined) {
        const filesOf = (name: string): Promise<OutputFile[]> => {
          const found = dependency(available, target, name);
          return leftOut(config, found) ? Promise.resolve([]) : run(found);
        };
        const reports: string[] = [];
        targetReports.set(target.name, reports);
        const ctx = context(config, model, templatesDir, reports, filesOf, (name) => producing.has(name), warm.get(target.name));
        // A target that throws before its first await rejects its promise like any other.
        files = (async () => {
          const since = performance.now();
          const result = target.generate(ctx);
          // A target's own time: its synchronous work, or until its promise settled.
          const own = performance.now() - since;
          const done = await result;
          times.set(target.name, result instanceof Promise ? performance.now() - since : own);
          return done;
        })();
        outputs.set(target.name, files);
      }
      return files;
    };
    const started = selected.map((target) => {
      progress(target.name);
      return run(target).then((files) => {
        ready(files);
        return { target, files, ms: times.get(target.name) ?? 0 };
      });
    });
    const settled = await Promise.allSettled(started);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const produced = settled.map((s) => (s as PromiseFulfilledResult<Produced['targets'][number]>).value);
    const reports = [...(model.warnings ?? []), ...skipped, ...available.flatMap((t) => targetReports.get(t.name) ?? [])];
    return { targets: produced, model, sources: loaded.sources, reports, specFiles: loaded.files };
  } finally {
    for (const started of warm.values()) started?.stop();
  }
}

export async function generate(config: GenerateConfig, available: readonly Target[] = registry, progress: Progress = () => {}): Promise<GenerateResult> {
  // Files are staged (compared, and written under temporary names) as each target finishes, and put in place once all have.
  const writer = new Writer(config.root, { check: config.check });
  let produced: Produced;
  try {
    produced = await produce(config, available, progress, (files) => writer.stage(files));
  } catch (error) {
    writer.discard();
    throw error;
  }
  const { targets, reports, specFiles } = produced;
  const all = targets.flatMap((p) => p.files);
  const results = writer.commit(all);
  const summaries = targets.map(({ target, files, ms }) => ({ name: target.name, files: files.map((file) => results.get(file)!), ms }));
  // Only a run of every target knows which generated files nobody produces any more; a target off by
  // default that nobody named produces nothing, so what it wrote before is obsolete too.
  const complete = available.every((t) => targets.some((p) => p.target.name === t.name) || leftOut(config, t));
  const obsolete = complete ? await removeObsolete(config.root, config.outDir, all, { check: config.check }) : [];
  return { targets: summaries, reports, specFiles, obsolete };
}

function context(
  config: GenerateConfig,
  model: ApiModel,
  templatesDir: string,
  reports: string[],
  filesOf: (target: string) => Promise<OutputFile[]>,
  produces: (target: string) => boolean,
  warm: WarmUp | undefined,
): TargetContext {
  return {
    ...(warm === undefined ? {} : { warm }),
    model,
    root: config.root,
    outDir: config.outDir,
    templatesDir,
    options: config.options,
    command: config.command,
    filesOf,
    produces,
    readExisting(path) {
      try {
        return readFileSync(resolve(config.root, path), 'utf8');
      } catch {
        return undefined;
      }
    },
    report(message) {
      reports.push(message);
    },
  };
}

/** A target `target` declared in its `dependsOn`. */
function dependency(available: readonly Target[], target: Target, name: string): Target {
  if (target.dependsOn?.includes(name) !== true) throw new Error(`the ${target.name} target reads the ${name} target's files without naming it in dependsOn`);
  const found = available.find((t) => t.name === name);
  if (found === undefined) throw new Error(`the ${target.name} target depends on ${name}, which is not a target`);
  return found;
}

/**
 * A target off by default (`byDefault: false`) that neither `--only` nor
 * the config's `targets` names: it does not run, not even for a target that
 * reads its files (that one gets none).
 */
function leftOut(config: GenerateConfig, target: Target): boolean {
  if (target.byDefault !== false) return false;
  const named = config.named ?? (config.targetsChosen === false ? [] : config.targets);
  return !named.includes(target.name);
}

/** The optional peers a target needs, its dependencies' (those not left out) included, that cannot be found from the generator or the project. */
function missingPeers(config: GenerateConfig, target: Target, available: readonly Target[]): string[] {
  const names = new Set<string>();
  const visit = (t: Target): void => {
    for (const peer of t.peers ?? []) names.add(peer);
    for (const name of t.dependsOn ?? []) {
      const found = dependency(available, t, name);
      if (!leftOut(config, found)) visit(found);
    }
  };
  visit(target);
  return [...names].filter((name) => !installed(name, config.root));
}

/**
 * A target left out of a run whose targets nobody chose, because an optional
 * peer it (or a target it depends on) declares is not installed
 * (docs/decisions/0008-package-and-dependencies.md), so a first run does not
 * fail on a package the user never asked for. Named with `--only` or
 * `targets`, it runs and fails with the install command instead.
 */
function skippedByDefault(config: GenerateConfig, target: Target, available: readonly Target[], reports: string[]): boolean {
  if (config.targetsChosen !== false) return false;
  const missing = missingPeers(config, target, available);
  if (missing.length === 0) return false;
  reports.push(
    `the ${target.name} target was skipped: it needs ${missing.join(', ')} (\`npm install --save-dev ${missing.join(' ')}\`); name the targets with --only or \`targets\` to choose`,
  );
  return true;
}
