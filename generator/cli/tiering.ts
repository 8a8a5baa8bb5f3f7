/**
 * V8's optimizing compiler held back for a one-shot `generate`. V8 compiles
 * a function with TurboFan once it has run for a while (its "interrupt
 * budget"); in a run that lasts a second or two, most of those compilations
 * cost more CPU on V8's background threads than the optimized code saves
 * before the process exits (decision 0031). With a budget about fifteen
 * times V8's default only the really hot functions (the walks over a large
 * document) are optimized. Long-running commands (`serve`, `conformance`)
 * keep V8's defaults, and so does the programmatic API: flags are
 * process-wide, and only the command line owns its process.
 */
import { setFlagsFromString } from 'node:v8';

/** Commands whose run is short and whose work is spread over many functions that each run briefly. */
const ONE_SHOT = new Set(['generate']);

/** The interrupt budget (bytes of bytecode run before V8 considers optimizing a function); V8's default is 66 KiB on Node 20. */
export const ONE_SHOT_INTERRUPT_BUDGET = 1_000_000;

/** The V8 flags for a command line (`generate --spec ...`), or undefined to keep V8's defaults. */
export function tieringFlags(args: readonly string[]): string | undefined {
  // The command is the first word that is not an option; a word read wrongly only costs or saves some speed.
  const command = args.find((arg) => !arg.startsWith('-'));
  return command !== undefined && ONE_SHOT.has(command) ? `--interrupt-budget=${ONE_SHOT_INTERRUPT_BUDGET}` : undefined;
}

/** Sets `tieringFlags(args)` before any of the command's code has run. */
export function tuneTiering(args: readonly string[]): void {
  const flags = tieringFlags(args);
  if (flags !== undefined) setFlagsFromString(flags);
}
