/**
 * The generate pipeline: load -> model -> targets (all in memory) -> write.
 * Nothing is written unless the spec loaded and every target succeeded.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { GenerateConfig } from '../config.js';
import { loadSpec } from '../load/index.js';
import { buildModel } from '../model/build.js';
import type { ApiModel } from '../model/types.js';
import { targets as registry } from '../targets/index.js';
import type { OutputFile, Target, TargetContext } from '../targets/types.js';
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

export async function generate(config: GenerateConfig, available: readonly Target[] = registry): Promise<GenerateResult> {
  const loaded = await loadSpec(config.spec, config.root);
  const model = buildModel(loaded);
  const reports: string[] = [...(model.warnings ?? [])];
  const selected = available.filter((t) => config.targets.includes(t.name));

  const produced: { target: Target; files: OutputFile[]; ms: number }[] = [];
  for (const target of selected) {
    const started = performance.now();
    const files = await target.generate(context(config, model, reports));
    produced.push({ target, files, ms: performance.now() - started });
  }

  const all = produced.flatMap((p) => p.files);
  const results = await writeFiles(config.root, all, { check: config.check });
  let offset = 0;
  const summaries = produced.map(({ target, files, ms }) => {
    const mine = results.slice(offset, offset + files.length);
    offset += files.length;
    return { name: target.name, files: mine, ms };
  });
  // Only a run of every target knows which generated files nobody produces any more.
  const complete = available.every((t) => config.targets.includes(t.name));
  const obsolete = complete ? await removeObsolete(config.root, config.outDir, all, { check: config.check }) : [];
  return { targets: summaries, reports, specFiles: loaded.files, obsolete };
}

function context(config: GenerateConfig, model: ApiModel, reports: string[]): TargetContext {
  return {
    model,
    root: config.root,
    outDir: config.outDir,
    templatesDir: config.templatesDir,
    command: config.command,
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
