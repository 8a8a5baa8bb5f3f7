/**
 * The three generators' output for our spec, in one scratch project outside
 * the working tree, for the runtime benchmarks (validators, client): ours in
 * `generated/`, the peers' in `peers/<name>/`. The peers' code imports zod,
 * which only the bench package has, so `peers/node_modules` points at it.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LIKE_FOR_LIKE } from './generate.js';
import { BENCH_DIR, clearOutput, peers } from './peers.js';
import { scratchProject, type ScratchProject } from './specs.js';
import { timeProcess } from './stats.js';

export interface Outputs {
  project: ScratchProject;
  /** Absolute path of a file in the project. */
  path(relative: string): string;
  import<T = Record<string, unknown>>(relative: string): Promise<T>;
}

export function generateOutputs(root: string, bundled: Record<string, unknown>): Outputs {
  const project = scratchProject(root, bundled, 'outputs');
  timeProcess(process.execPath, ['bin/teamchat.js', 'generate', '--spec', project.spec, '--only', LIKE_FOR_LIKE], project.dir);
  for (const peer of peers) {
    peer.prepare(project.dir, project.spec);
    clearOutput(project.dir, peer);
    timeProcess(process.execPath, peer.args(project.spec), project.dir);
  }
  symlinkSync(join(BENCH_DIR, 'node_modules'), join(project.dir, 'peers/node_modules'), 'dir');
  const path = (relative: string) => join(project.dir, relative);
  return {
    project,
    path,
    import: async <T>(relative: string) => (await import(pathToFileURL(path(relative)).href)) as T,
  };
}
