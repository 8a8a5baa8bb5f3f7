/** Shared measuring and printing helpers of the benchmarks. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// /proc counts CPU time in clock ticks; Linux reports them at 100 per second to user space.
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, µs) of a process and all its descendants, from /proc (Linux); -1 where unreadable. */
export function processTreeCpuUs(root: number): number {
  const ticks = new Map<number, number>();
  const children = new Map<number, number[]>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^[0-9]+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // gone meanwhile
      }
      // Fields after the command name (which may hold spaces): state, ppid, ... utime is field 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const parent = Number(fields[1]);
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent)!.push(pid);
    }
  } catch {
    return -1;
  }
  if (!ticks.has(root)) return -1;
  let total = 0;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    total += ticks.get(pid) ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return (total * 1_000_000) / TICKS_PER_SECOND;
}

/** The machine's CPU time so far, all cores (µs): busy and idle (idle + iowait), from /proc/stat (Linux); NaN elsewhere. */
export function machineCpuUs(): { busy: number; idle: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user).
    const idle = fields[3]! + fields[4]!;
    const busy = fields.slice(0, 8).reduce((sum, value) => sum + value, 0) - idle;
    return { busy: (busy * 1_000_000) / TICKS_PER_SECOND, idle: (idle * 1_000_000) / TICKS_PER_SECOND };
  } catch {
    return { busy: Number.NaN, idle: Number.NaN };
  }
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fmt = {
  ms: (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`),
  ratio: (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}x` : 'n/a'),
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  kib: (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`,
};

const CPU_REPORT = fileURLToPath(new URL('./cpu-report.cjs', import.meta.url));

/**
 * Wall time and CPU time (user + system of every Node process it ran, its
 * own and any children) of one Node command, or undefined past `timeoutMs`.
 */
export function timeNodeProcess(args: string[], cwd: string, timeoutMs?: number): { ms: number; cpuMs: number } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-bench-cpu-'));
  const file = join(dir, 'cpu');
  try {
    const env = { ...process.env, TEAMCHAT_BENCH_CPU_FILE: file, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(CPU_REPORT)}`.trim() };
    const ms = timeProcess(process.execPath, args, cwd, timeoutMs, env);
    if (ms === undefined) return undefined;
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // No Node process reached its exit handler.
    }
    const cpuMs = text.split('\n').filter(Boolean).map(Number).reduce((a, b) => a + b, 0);
    return { ms, cpuMs: text === '' ? Number.NaN : cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Wall time of one child process, or undefined when it ran longer than
 * `timeoutMs` (it is then killed); throws with its output when it fails.
 */
export function timeProcess(command: string, args: string[], cwd: string, timeoutMs?: number, env?: NodeJS.ProcessEnv): number | undefined {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    ...(env !== undefined && { env }),
    ...(timeoutMs !== undefined && { timeout: timeoutMs, killSignal: 'SIGKILL' }),
  });
  const ms = performance.now() - started;
  if (timeoutMs !== undefined && result.signal === 'SIGKILL' && ms >= timeoutMs) return undefined;
  if (result.status !== 0) throw new Error(`${args.join(' ')} (in ${cwd}) failed with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return ms;
}

let sink = 0;

/** Consumes results so the measured calls cannot be optimised away. */
export function keep(value: number): void {
  sink += value;
  if (sink === Number.NEGATIVE_INFINITY) throw new Error('unreachable');
}

/** Synchronous calls per second of `fn` over at least `ms`. */
export function rate(fn: () => number, ms: number): number {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 500; i++) keep(fn());
    calls += 500;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return calls / (elapsed / 1000);
}

/** Asynchronous calls per second of `fn` (awaited one after another) over at least `ms`. */
export async function rateAsync(fn: () => Promise<number>, ms: number): Promise<number> {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 100; i++) keep(await fn());
    calls += 100;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return calls / (elapsed / 1000);
}

export interface Compared {
  /** Median calls per second of each contender over the rounds. */
  opsPerSec: Record<string, number>;
  /** Median over the rounds of (ours / theirs) measured in the same round; key: the other contender. */
  ratioVsOurs: Record<string, number>;
}

/**
 * Contenders measured in alternating rounds, so each round's ratio compares
 * runs under the same machine load; figures are medians over the rounds.
 * `ours` must be one of the contenders.
 */
export async function compareRounds(
  contenders: Record<string, () => number | Promise<number>>,
  options: { rounds: number; msPerRound: number; ours: string },
): Promise<Compared> {
  const names = Object.keys(contenders);
  const measure = async (name: string, ms: number) => {
    const fn = contenders[name]!;
    const probe = fn();
    return probe instanceof Promise ? rateAsync(fn as () => Promise<number>, ms) : rate(fn as () => number, ms);
  };
  for (const name of names) await measure(name, options.msPerRound / 2);
  const perRound: Record<string, number>[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const rates: Record<string, number> = {};
    // Rotate the order so no contender always runs first.
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      rates[name] = await measure(name, options.msPerRound);
    }
    perRound.push(rates);
  }
  const opsPerSec = Object.fromEntries(names.map((n) => [n, median(perRound.map((r) => r[n]!))]));
  const ratioVsOurs = Object.fromEntries(
    names.filter((n) => n !== options.ours).map((n) => [n, median(perRound.map((r) => r[options.ours]! / r[n]!))]),
  );
  return { opsPerSec, ratioVsOurs };
}
