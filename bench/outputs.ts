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
  /** Peers that could not generate from this document (only with `tolerantPeers`), with the reason. */
  failedPeers: Record<string, string>;
}

/**
 * `tolerantPeers`: a peer that fails on the document is recorded in
 * `failedPeers` instead of stopping the run (a document from elsewhere may
 * be one a peer cannot read).
 */
export function generateOutputs(root: string, bundled: Record<string, unknown>, options: { tolerantPeers?: boolean } = {}): Outputs {
  const project = scratchProject(root, bundled, 'outputs');
  timeProcess(process.execPath, ['bin/teamchat.js', 'generate', '--spec', project.spec, '--only', LIKE_FOR_LIKE], project.dir);
  const failedPeers: Record<string, string> = {};
  for (const peer of peers) {
    peer.prepare(project.dir, project.spec);
    clearOutput(project.dir, peer);
    try {
      timeProcess(process.execPath, peer.args(project.spec), project.dir);
    } catch (error) {
      if (options.tolerantPeers !== true) throw error;
      failedPeers[peer.name] = firstProblem((error as Error).message);
    }
  }
  symlinkSync(join(BENCH_DIR, 'node_modules'), join(project.dir, 'peers/node_modules'), 'dir');
  const path = (relative: string) => join(project.dir, relative);
  return {
    project,
    failedPeers,
    path,
    import: async <T>(relative: string) => (await import(pathToFileURL(path(relative)).href)) as T,
  };
}

/** The first line of a peer's output that reports a problem (orval marks them with 🛑), else the first line. */
function firstProblem(message: string): string {
  const lines = message.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return (lines.find((line) => line.includes('🛑') || /error/i.test(line) && !line.includes(' failed with ')) ?? lines[0] ?? 'failed').slice(0, 200);
}
