/**
 * Several server processes behind one port (`teamchat serve --workers N`),
 * with node:cluster: the primary prepares the database once (migrations,
 * demo seed), then forks N workers that each run startServer on the same
 * PostgreSQL; connections to the port are spread over the workers. Nothing
 * is shared between workers but the database: the shared caches follow its
 * cache_version (store/cache.ts), background jobs claim work with row locks.
 *
 * The embedded database belongs to one process, so it refuses N > 1.
 */
import cluster, { type Worker } from 'node:cluster';
import { loadServerSecret } from './auth/secret.js';
import { loadConfig, type ServerConfig } from './config.js';
import type { RunningServer } from './main.js';
import type { DemoLogin } from './seed/demo.js';

export interface ClusterOptions {
  workers: number;
  seedDemo: boolean;
  config?: ServerConfig;
}

export interface RunningCluster {
  url: string;
  demoLogins: DemoLogin[] | null;
  config: ServerConfig;
  close(): Promise<void>;
}

/** Why this many workers cannot run on this configuration, or null. */
export function workersProblem(workers: number, config: Pick<ServerConfig, 'databaseUrl'>): string | null {
  if (!Number.isInteger(workers) || workers < 1) return `--workers must be a whole number of at least 1, not ${workers}`;
  if (workers > 1 && config.databaseUrl === null) {
    return '--workers above 1 needs PostgreSQL (set DATABASE_URL): the embedded database can only be opened by one process';
  }
  return null;
}

interface Ready {
  type: 'teamchat-ready';
  url: string;
}

function isReady(message: unknown): message is Ready {
  return (message as Ready | null)?.type === 'teamchat-ready';
}

/** In the primary: prepares the database, forks the workers, resolves once all of them listen. */
export async function startCluster(options: ClusterOptions, log: (line: string) => void): Promise<RunningCluster> {
  const config = options.config ?? loadConfig();
  const problem = workersProblem(options.workers, config);
  if (problem) throw new Error(problem);
  const { openDb } = await import('./store/open.js');
  const { seedDemoIfEmpty } = await import('./seed/demo.js');
  const db = await openDb(config);
  let demoLogins: DemoLogin[] | null = null;
  try {
    if (options.seedDemo) {
      const secret = loadServerSecret(config);
      demoLogins = await seedDemoIfEmpty(db, { password: config.demoPassword, secret, videoChatProvider: config.videoCall.provider });
    }
  } finally {
    await db.close();
  }

  let closing = false;
  const workers = new Set<Worker>();
  const fork = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ TEAMCHAT_CLUSTER_WORKER: '1' });
      workers.add(worker);
      worker.on('message', (message: unknown) => {
        if (isReady(message)) resolve(message.url);
      });
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        reject(new Error(`a worker exited (${code ?? signal}) before listening`));
        if (closing) return;
        // A worker that dies while serving is replaced; the others keep serving meanwhile.
        log(`worker ${worker.process.pid} exited (${code ?? signal}); starting another`);
        fork().catch((error: unknown) => log(`could not replace the worker: ${error instanceof Error ? error.message : String(error)}`));
      });
    });

  let urls: string[];
  try {
    urls = await Promise.all(Array.from({ length: options.workers }, fork));
  } catch (error) {
    closing = true;
    for (const worker of workers) worker.kill('SIGTERM');
    throw error;
  }
  const close = async (): Promise<void> => {
    closing = true;
    await Promise.all(
      [...workers].map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            worker.kill('SIGTERM');
          }),
      ),
    );
  };
  return { url: urls[0]!, demoLogins, config, close };
}

/** In a worker: serves until told to stop, or until the primary goes away. */
export async function runWorker(): Promise<void> {
  const { startServer } = await import('./main.js');
  const server: RunningServer = await startServer({ seedDemo: false, logger: false });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  // Ctrl-C reaches the whole process group: the primary stops the workers itself, in order.
  process.on('SIGINT', () => undefined);
  process.once('disconnect', stop);
  process.send!({ type: 'teamchat-ready', url: server.url } satisfies Ready);
}

export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env.TEAMCHAT_CLUSTER_WORKER === '1';
}
