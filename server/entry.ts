/**
 * The reference server's one entry point: what `teamchat serve` (`npm start`)
 * runs. The generator's CLI reaches `server/` only through this module
 * (`generator/cli/commands/serve.ts`), and this module imports nothing of
 * the generator. Importing it is cheap: what it serves loads inside its
 * functions, after the CLI has checked {@link requiredPackages} and
 * regenerated what was stale.
 */

/**
 * Packages the reference server needs. They are this repository's
 * development dependencies, not the generator package's peers
 * (docs/decisions/0008-package-and-dependencies.md): `teamchat serve` names
 * the missing ones before loading anything.
 */
export const requiredPackages: readonly string[] = [
  'fastify',
  '@fastify/multipart',
  '@fastify/formbody',
  '@fastify/static',
  '@electric-sql/pglite',
  'pg',
  '@tus/server',
  '@tus/file-store',
  'emoji-datasource',
  'markdown-it',
  'uri-template',
  'diff',
  '@redocly/cli',
];

export interface ServeOptions {
  /** Our API's mock (the spec's examples, any credentials) with the docs, instead of the reference server. */
  mock: boolean;
  /** Server processes sharing one port and one PostgreSQL; 1 runs in this process. */
  workers: number;
  /** Create the demo organization in an empty PostgreSQL database too. */
  seedDemo: boolean;
  /** Lines for the user (database, demo logins). */
  out(line: string): void;
  /** Lines about the server's own life (a worker replaced). */
  err(line: string): void;
}

export interface Serving {
  url: string;
  basePath: string;
  /** Whether the docs are served under `/docs/`. */
  docs: boolean;
  close(): Promise<void>;
}

/** Why `workers` server processes cannot run on the configuration from the environment, or null. */
export async function workersProblem(workers: number): Promise<string | null> {
  const [{ workersProblem: problem }, { loadConfig }] = await Promise.all([import('./cluster.js'), import('./config.js')]);
  return problem(workers, loadConfig());
}

/** Starts the mock, one server, or a cluster of them, on HOST and PORT from the environment. */
export async function serve(options: ServeOptions): Promise<Serving> {
  if (options.mock) return serveMock();
  return options.workers === 1 ? serveOne(options) : serveWorkers(options);
}

/** In a process forked by `--workers`: serves until told to stop (the primary generated and prepared the database). */
export async function runWorker(): Promise<void> {
  await (await import('./cluster.js')).runWorker();
}

/** Whether this process is a worker forked by `--workers`. */
export function isWorkerProcess(): boolean {
  return process.env.TEAMCHAT_CLUSTER_WORKER === '1';
}

async function serveMock(): Promise<Serving> {
  const [{ listenMock }, { registerDocs }] = await Promise.all([import('./mock.js'), import('./http/docs.js')]);
  const { app, url } = await listenMock({ logger: false, beforeListen: registerDocs });
  return { url, basePath: '/api/v1', docs: true, close: () => app.close() };
}

async function serveOne(options: ServeOptions): Promise<Serving> {
  const { startServer } = await import('./main.js');
  const server = await startServer({ seedDemo: options.seedDemo, logger: false });
  options.out(server.config.databaseUrl ? 'Database: PostgreSQL (DATABASE_URL)' : `Database: embedded, in ${server.config.dataDir}`);
  printLogins(server.demoLogins, server.config.demoPassword, options.out);
  return { url: server.url, basePath: '/api/v1', docs: true, close: () => server.close() };
}

async function serveWorkers(options: ServeOptions): Promise<Serving> {
  const { startCluster } = await import('./cluster.js');
  const running = await startCluster({ workers: options.workers, seedDemo: options.seedDemo }, options.err);
  options.out(`Database: PostgreSQL (DATABASE_URL), ${options.workers} server processes`);
  printLogins(running.demoLogins, running.config.demoPassword, options.out);
  return { url: running.url, basePath: '/api/v1', docs: true, close: () => running.close() };
}

function printLogins(logins: { email: string; role: number; apiKey: string }[] | null, demoPassword: string, out: (line: string) => void): void {
  if (!logins) return;
  out(`Demo organization created. Logins (password: ${demoPassword === 'demo1234' ? 'demo1234' : 'DEMO_PASSWORD'}):`);
  for (const login of logins) out(`  ${login.email.padEnd(28)} role ${String(login.role).padEnd(4)} api key ${login.apiKey}`);
}
