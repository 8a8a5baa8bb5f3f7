/**
 * Wall time of whole `teamchat generate` runs in fresh processes (cold: module
 * loading, bundling, every target) into an empty generated/ folder, and of
 * `generate --check` against up-to-date output. Runs in a scratch copy of the
 * project, so the working tree (handlers included) is never written.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const COPIED = ['bin', 'generator', 'templates', 'spec', 'server/handlers', 'package.json', 'tsconfig.json', 'redocly.yaml'];

function scratchCopy(root: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'teamchat-bench-'));
  for (const path of COPIED) cpSync(join(root, path), join(copy, path), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

export interface TimingRow {
  name: string;
  medianMs: number;
  runs: number[];
}

function timeCommand(root: string, args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [join(root, 'bin/teamchat.js'), ...args], { cwd: root, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`teamchat ${args.join(' ')} failed:\n${result.stderr}`);
  return ms;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function benchGenerate(root: string, runs = 5): TimingRow[] {
  const copy = scratchCopy(root);
  try {
    const timed = (name: string, args: string[], fresh: boolean): TimingRow => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        if (fresh) rmSync(join(copy, 'generated'), { recursive: true, force: true });
        times.push(timeCommand(copy, args));
      }
      return { name, medianMs: median(times), runs: times };
    };
    return [
      timed('generate --only types,validators,client,server (cold)', ['generate', '--only', 'types,validators,client,server'], true),
      // Leaves a complete generated/ behind for the check runs.
      timed('generate (cold process, empty generated/)', ['generate'], true),
      timed('generate --check (output up to date)', ['generate', '--check'], false),
    ];
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
