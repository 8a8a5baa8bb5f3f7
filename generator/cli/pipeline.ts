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
import type { OutputFile, Target, TargetContext } from '../targets/types.js';
import { effectiveTemplatesDir } from '../templates.js';
import { installed } from './peers.js';
import { removeObsolete, writeFiles, type FileResult } from '../write.js';

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

/** Load, model and run the selected targets, all in memory: nothing is written. */
export async function produce(config: GenerateConfig, available: readonly Target[] = registry, progress: Progress = () => {}): Promise<Produced> {
  progress('load');
  const templatesDir = effectiveTemplatesDir(config.userTemplatesDir);
  const loaded = await loadSpec(config.spec, config.root);
  const model = buildModel(loaded);
  const reports: string[] = [...(model.warnings ?? [])];
  const selected = available.filter((t) => config.targets.includes(t.name) && !leftOut(config, t) && !skippedByDefault(config, t, available, reports));

  // Each target runs at most once per run, even when another target reads its files.
  const outputs = new Map<string, Promise<OutputFile[]>>();
  const run = (target: Target): Promise<OutputFile[]> => {
    let files = outputs.get(target.name);
    if (files === undefined) {
      const filesOf = (name: string): Promise<OutputFile[]> => {
        const found = dependency(available, target, name);
        return leftOut(config, found) ? Promise.resolve([]) : run(found);
      };
      files = Promise.resolve(target.generate(context(config, model, templatesDir, reports, filesOf)));
      outputs.set(target.name, files);
    }
    return files;
  };
  const produced: Produced['targets'] = [];
  for (const target of selected) {
    progress(target.name);
    const started = performance.now();
    const files = await run(target);
    produced.push({ target, files, ms: performance.now() - started });
  }
  return { targets: produced, model, sources: loaded.sources, reports, specFiles: loaded.files };
}

export async function generate(config: GenerateConfig, available: readonly Target[] = registry, progress: Progress = () => {}): Promise<GenerateResult> {
  const { targets: produced, reports, specFiles } = await produce(config, available, progress);
  const all = produced.flatMap((p) => p.files);
  const results = await writeFiles(config.root, all, { check: config.check });
  let offset = 0;
  const summaries = produced.map(({ target, files, ms }) => {
    const mine = results.slice(offset, offset + files.length);
    offset += files.length;
    return { name: target.name, files: mine, ms };
  });
  // Only a run of every target knows which generated files nobody produces any more; a target off by
  // default that nobody named produces nothing, so what it wrote before is obsolete too.
  const complete = available.every((t) => produced.some((p) => p.target.name === t.name) || leftOut(config, t));
  const obsolete = complete ? await removeObsolete(config.root, config.outDir, all, { check: config.check }) : [];
  return { targets: summaries, reports, specFiles, obsolete };
}

function context(
  config: GenerateConfig,
  model: ApiModel,
  templatesDir: string,
  reports: string[],
  filesOf: (target: string) => Promise<OutputFile[]>,
): TargetContext {
  return {
    model,
    root: config.root,
    outDir: config.outDir,
    templatesDir,
    options: config.options,
    command: config.command,
    filesOf,
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
