/**
 * Wall time of whole generator runs in fresh processes (cold: module loading,
 * bundling, every target, writing into an empty output folder), ours and the
 * peers', on our spec and on synthetic specs 10x and 100x its size. Every
 * tool runs once per round, in a scratch project outside the working tree;
 * ratios are taken within a round, then the median over the rounds.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { clearOutput, orvalClient, peers, type Peer } from './peers.js';
import { scaledSpec, scratchProject, type ScratchProject } from './specs.js';
import { median, timeNodeProcess } from './stats.js';

/** Our targets that have a counterpart in the peers' output (everything but the Redocly docs). */
export const LIKE_FOR_LIKE = 'types,validators,client,server';
/** The row every ratio of a size divides by, but those of tools with a counterpart of their own (`base`). */
export const BASELINE = 'teamchat generate --only (no docs)';
/** Our run that orval's client alone is compared with. */
const CLIENT_ONLY = 'teamchat generate --only types,client';

interface Tool {
  name: string;
  /** The tool whose time in the same round this one's is divided by (default `BASELINE`). */
  base?: string;
  /** Wall and CPU time, or undefined past `capMs`. */
  run(project: ScratchProject, capMs?: number): { ms: number; cpuMs: number } | undefined;
}

function ours(name: string, extra: string[], fresh: boolean): Tool {
  return {
    name,
    run: (project, capMs) => {
      if (fresh) rmSync(join(project.dir, 'generated'), { recursive: true, force: true });
      return timeNodeProcess(['bin/teamchat.js', 'generate', '--spec', project.spec, ...extra], project.dir, capMs);
    },
  };
}

function peer(p: Peer, base?: string): Tool {
  return {
    name: p.name,
    ...(base !== undefined && { base }),
    run: (project, capMs) => {
      clearOutput(project.dir, p);
      return timeNodeProcess(p.args(project.spec), project.dir, capMs);
    },
  };
}

// The order matters: each --check runs right after the generate that made its output up to date.
const TOOLS: Tool[] = [
  ours('teamchat generate (all targets, docs via Redocly)', [], true),
  ours('teamchat generate --check (all targets)', ['--check'], false),
  ours(BASELINE, ['--only', LIKE_FOR_LIKE], true),
  ours('teamchat generate --check --only (no docs)', ['--check', '--only', LIKE_FOR_LIKE], false),
  ...peers.map((p) => peer(p)),
  ours(CLIENT_ONLY, ['--only', 'types,client'], true),
  peer(orvalClient, CLIENT_ONLY),
];

export interface GenerationRow {
  /** Copies of our spec (0 for a document of its own, named by `spec`). */
  factor: number;
  /** Set for a document other than copies of ours (`synthetic`). */
  spec?: string;
  operations: number;
  tool: string;
  medianMs: number;
  runs: number[];
  /** Set when a run passed the time cap: the tool was not run again at this size and has no median. */
  cappedAtMs?: number;
  /** Set when a run failed (its first line of output): the tool was not run again at this size and has no median. */
  failed?: string;
  /** The row `ratioVsBaseline` divides by. */
  base: string;
  /** Median over rounds of this tool's time over its base's in the same round (>1: slower than ours). */
  ratioVsBaseline: number;
  /** CPU time (user + system) of each run, as `runs`. */
  cpuRuns: number[];
  cpuMedianMs: number;
  /** As `ratioVsBaseline`, of CPU time. */
  cpuRatioVsBaseline: number;
  /** Median time at this size over the same tool's median at 1x. */
  growth: number;
}

export interface GenerationOptions {
  factors: number[];
  /** Timed rounds per size. */
  runs: (factor: number) => number;
  /** Longest single run allowed; a tool that passes it is reported as capped. */
  capMs: number;
  log: (line: string) => void;
  /** Documents of their own timed after the copies of ours (e.g. the large synthetic one). */
  extra?: { label: string; doc: Record<string, unknown>; runs: number }[];
}

export async function benchGeneration(root: string, bundled: Record<string, unknown>, options: GenerationOptions): Promise<GenerationRow[]> {
  const rows: GenerationRow[] = [];
  const cases = [
    ...options.factors.map((factor) => ({ factor, label: `${factor}x`, doc: () => scaledSpec(bundled, factor), runs: options.runs(factor), spec: undefined })),
    ...(options.extra ?? []).map((e) => ({ factor: 0, label: e.label, doc: () => e.doc, runs: e.runs, spec: e.label })),
  ];
  for (const { factor, label, doc, runs: rounds, spec } of cases) {
    const project = scratchProject(root, doc(), label);
    try {
      for (const p of peers) p.prepare(project.dir, project.spec);
      // Writes the handler scaffolds of the copied operations once, so every timed run finds them in place.
      options.log(`generation ${label} (${project.operations} operations): scaffolds`);
      ours('scaffolds', ['--only', 'server'], true).run(project);
      const times: Record<string, number[]> = Object.fromEntries(TOOLS.map((t) => [t.name, []]));
      const cpu: Record<string, number[]> = Object.fromEntries(TOOLS.map((t) => [t.name, []]));
      const capped = new Set<string>();
      const failed = new Map<string, string>();
      for (let round = 0; round < rounds; round++) {
        options.log(`generation ${label}: round ${round + 1}/${rounds}`);
        for (const tool of TOOLS) {
          if (capped.has(tool.name) || failed.has(tool.name)) continue;
          let measured: ReturnType<Tool['run']>;
          try {
            measured = tool.run(project, options.capMs);
          } catch (error) {
            // A peer that cannot read the document (orval's zod output on some large ones) is reported, not fatal.
            const reason = failureLine(error);
            options.log(`generation ${label}: ${tool.name} failed: ${reason}`);
            failed.set(tool.name, reason);
            continue;
          }
          if (measured === undefined) capped.add(tool.name);
          else {
            times[tool.name]!.push(measured.ms);
            cpu[tool.name]!.push(measured.cpuMs);
          }
        }
      }
      for (const tool of TOOLS) {
        const out = capped.has(tool.name) || failed.has(tool.name);
        const runs = out ? [] : times[tool.name]!;
        const cpuRuns = out ? [] : cpu[tool.name]!;
        const baseName = tool.base ?? BASELINE;
        const base = times[baseName]!;
        const baseCpu = cpu[baseName]!;
        const at1 = spec === undefined ? rows.find((r) => r.factor === 1 && r.tool === tool.name) : undefined;
        const medianMs = median(runs);
        rows.push({
          factor,
          ...(spec !== undefined && { spec }),
          operations: project.operations,
          tool: tool.name,
          medianMs,
          runs: runs.map(Math.round),
          ...(capped.has(tool.name) && { cappedAtMs: options.capMs }),
          ...(failed.has(tool.name) && { failed: failed.get(tool.name)! }),
          base: baseName,
          ratioVsBaseline: median(runs.map((ms, i) => ms / base[i]!)),
          cpuRuns: cpuRuns.map(Math.round),
          cpuMedianMs: median(cpuRuns),
          cpuRatioVsBaseline: median(cpuRuns.map((ms, i) => ms / baseCpu[i]!)),
          growth: at1 ? medianMs / at1.medianMs : factor === 1 ? 1 : Number.NaN,
        });
      }
    } finally {
      project.remove();
    }
  }
  return rows;
}

/** The first line of a failed run's output that says what went wrong. */
function failureLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  return (lines.find((line) => /error/i.test(line) && !line.startsWith('at ')) ?? lines[0] ?? 'failed').slice(0, 200);
}
