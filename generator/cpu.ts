/**
 * How busy the machine's cores are while a command starts, for work that
 * pays only with a core to spare (the `types` thread, decision 0031). The CLI
 * entry takes a sample of the cores' time (`/proc/stat`) before its modules
 * load (`markStart`); `idleCoresSinceStart` then tells how many cores, on
 * average, sat idle since, which the process's own start-up (one core
 * busy) spans: about a tenth of a second.
 *
 * The load average cannot tell this. It covers the last minute, so a run
 * right after another reads as busy on idle cores; and on some virtual
 * machines it counts tasks that use no CPU (1.5 on an idle 2-core machine
 * where this was measured).
 */
import { readFileSync } from 'node:fs';

/** Time of all cores together since boot, in clock ticks: all of it, and the idle part (idle and iowait). */
export interface CpuSample {
  readonly total: number;
  readonly idle: number;
}

/** Fewer ticks than this between the samples (10 ms each on Linux, per core) tell too little. */
const MIN_TICKS = 10;

let atStart: CpuSample | undefined;

/** The first line of `/proc/stat` (`cpu  user nice system idle iowait ...`), or undefined where there is none. */
export function sampleCpu(read: () => string = () => readFileSync('/proc/stat', 'latin1')): CpuSample | undefined {
  let text: string;
  try {
    text = read();
  } catch {
    return undefined;
  }
  const end = text.indexOf('\n');
  const fields = (end === -1 ? text : text.slice(0, end)).trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 5) return undefined;
  const ticks = fields.slice(1).map(Number);
  if (ticks.some((n) => !Number.isFinite(n))) return undefined;
  return { total: ticks.reduce((sum, n) => sum + n, 0), idle: ticks[3]! + (ticks[4] ?? 0) };
}

/** How many of `cores` sat idle on average between two samples; undefined when the window is too short to tell. */
export function idleCores(from: CpuSample, to: CpuSample, cores: number): number | undefined {
  const total = to.total - from.total;
  if (total < MIN_TICKS) return undefined;
  return ((to.idle - from.idle) / total) * cores;
}

/** Called by the CLI entry first thing: the sample `idleCoresSinceStart` measures from. */
export function markStart(): void {
  atStart = sampleCpu();
}

/** Idle cores since `markStart`, or undefined when it was not called (a program using the generator), or where there is no `/proc/stat`. */
export function idleCoresSinceStart(cores: number): number | undefined {
  if (atStart === undefined) return undefined;
  const now = sampleCpu();
  return now === undefined ? undefined : idleCores(atStart, now, cores);
}
