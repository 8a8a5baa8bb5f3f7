/**
 * Child processes for the acceptance tests: run a command to completion with
 * a hard time limit, capturing its output, so a hung child fails the test
 * with what it printed instead of hanging the run.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const require = createRequire(import.meta.url);
/** The installed tsx and tsc entry points, run with this Node so no npx or PATH lookup is involved. */
export const tsxCli = require.resolve('tsx/cli');
export const tscCli = require.resolve('typescript/bin/tsc');

export interface RunResult {
  /** Exit code, or null when the process was killed (see `timedOut`). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Text written to the child's standard input, which is then closed. */
  input?: string;
}

export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut, ms: performance.now() - started });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs a Node script (e.g. the tsx or tsc entry point) with the current Node binary. */
export function runNode(script: string, args: string[], options: RunOptions): Promise<RunResult> {
  return run(process.execPath, [script, ...args], options);
}

/** One block of text saying how a process ended and what it printed, for assertion messages. */
export function describeRun(label: string, result: RunResult): string {
  const ending = result.timedOut ? 'timed out and was killed' : `exited with ${result.code}`;
  return `${label} ${ending} after ${Math.round(result.ms)} ms\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
}
