import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
// initdb and postgres refuse to run as root: drop to this account when we are root.
const UNPRIVILEGED_USER = 'postgres';

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres, trust authentication. */
  url: string;
  /** Stops the server and deletes its directory. */
  stop(): Promise<void>;
  /** Process id of the server's postmaster (its backends are its children). */
  postmasterPid(): number;
}

/**
 * A private PostgreSQL 15 for one test file: a temporary cluster on a free
 * loopback port with fsync off, its socket inside its own directory.
 */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-pg-'));
  const dataDir = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', UNPRIVILEGED_USER]);
    const { stdout: gid } = await run('id', ['-g', UNPRIVILEGED_USER]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', UNPRIVILEGED_USER, '--', join(BIN, command), ...args]) : run(join(BIN, command), args);

  try {
    await as('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    let port = 0;
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      try {
        await as('pg_ctl', [
          '-D', dataDir, '-w', '-t', '60', '-l', join(dir, 'server.log'), 'start',
          '-o', `-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`,
        ]);
        break;
      } catch (error) {
        // Another process may have taken the port between probing and binding.
        if (attempt >= 3) throw error;
      }
    }
    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      postmasterPid: () => Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await as('pg_ctl', ['-D', dataDir, '-w', '-m', 'fast', 'stop']).catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
