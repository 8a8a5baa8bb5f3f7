/**
 * The one wrapper every command handler goes through: it times the run and
 * turns failures into one message and an exit code, so command modules only
 * return their own exit code.
 */
import { ConfigError } from '../config.js';
import { SpecError } from '../load/errors.js';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Exit codes: 0 fine, 1 the spec or the output is not right (or the run failed), 2 bad command-line input. */
export function exitCodeOf(error: unknown): number {
  return error instanceof ConfigError ? 2 : 1;
}

/** One line for a failure: `file:line: message` for the spec, `teamchat <command>: message` otherwise. */
export function describeFailure(command: string, error: unknown): string {
  if (error instanceof SpecError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const detail = process.env.TEAMCHAT_DEBUG && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  return `teamchat ${command}: ${message}${detail}`;
}

export function wrap<A>(command: string, run: (args: A, output: Output) => Promise<number>, output: Output = consoleOutput) {
  return async (args: A): Promise<void> => {
    const started = performance.now();
    let code: number;
    try {
      code = await run(args, output);
    } catch (error) {
      output.err(describeFailure(command, error));
      code = exitCodeOf(error);
    }
    output.err(`${command} ${code === 0 ? 'done' : 'failed'} in ${formatMs(performance.now() - started)}`);
    process.exitCode = code;
  };
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
