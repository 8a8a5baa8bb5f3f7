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
import { redoclyInstalled } from '../targets/docs/redoc.js';
import { targets as registry } from '../targets/index.js';
import type { OutputFile, Target, TargetContext } from '../targets/types.js';
import { effectiveTemplatesDir } from '../templates.js';
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
  const selected = available.filter((t) => config.targets.includes(t.name) && !skippedByDefault(config, t.name, reports));

  // Each target runs at most once per run, even when another target asks for its files.
  const outputs = new Map<string, Promise<OutputFile[]>>();
  const ctx: TargetContext = context(config, model, templatesDir, reports, (name) => {
    let files = outputs.get(name);
    if (files === undefined) {
      const target = available.find((t) => t.name === name);
      if (target === undefined) throw new Error(`no target named ${name}`);
      files = Promise.resolve(target.generate(ctx));
      outputs.set(name, files);
    }
    return files;
  });
  const produced: Produced['targets'] = [];
  for (const target of selected) {
    progress(target.name);
    const started = performance.now();
    const files = await ctx.filesOf(target.name);
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
  // Only a run of every target knows which generated files nobody produces any more.
  const complete = available.every((t) => produced.some((p) => p.target.name === t.name));
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

/**
 * A target left out of a run whose targets nobody chose, because the optional
 * peer it needs is not installed (docs/decisions/0008-package-and-dependencies.md):
 * `docs` without `@redocly/cli`. Named with `--only` or `targets`, it runs and
 * fails with the install command instead.
 */
function skippedByDefault(config: GenerateConfig, name: string, reports: string[]): boolean {
  if (config.targetsChosen !== false || name !== 'docs' || redoclyInstalled(config.root)) return false;
  reports.push('the docs target was skipped: it needs @redocly/cli (`npm install --save-dev @redocly/cli`); name the targets with --only or `targets` to choose');
  return true;
}
