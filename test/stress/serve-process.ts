/**
 * The real server as a child process (`teamchat serve`), as an operator runs
 * it, so a test can kill it outright and start it again on the same database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../support/process.js';

export interface ServeProcess {
  url: string;
  /** email -> API key, printed when this start seeded the demo organization. */
  apiKeys: Map<string, string>;
  child: ChildProcess;
  output(): string;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const LOGIN_LINE = /^\s+(\S+@\S+)\s+role \d+\s+api key (\S+)\s*$/gm;

/** Starts `teamchat serve --no-generate` with these settings; resolves once it prints its API address. */
export async function startServeProcess(env: Record<string, string>, args: string[] = [], timeoutMs = 60_000): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(repoRoot, 'bin/teamchat.js'), 'serve', '--no-generate', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const apiLine = new RegExp(`^API:\\s+(http://127\\.0\\.0\\.1:${port})/api/v1$`, 'm');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start within ${timeoutMs} ms`)), timeoutMs);
    const stopWatching = () => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', onExit);
    };
    const fail = (error: Error) => {
      stopWatching();
      void kill().then(() => reject(new Error(`${error.message}\n--- output\n${output}`)));
    };
    const check = () => {
      const match = apiLine.exec(output);
      if (!match) return;
      stopWatching();
      resolve(match[1]!);
    };
    const onExit = (code: number | null, signal: string | null) => fail(new Error(`the server exited (${code ?? signal}) before listening`));
    child.stdout!.on('data', check);
    child.once('exit', onExit);
  });
  const apiKeys = new Map([...output.matchAll(LOGIN_LINE)].map((match) => [match[1]!, match[2]!]));
  return { url, apiKeys, child, output: () => output, kill };
}
