/**
 * `teamchat serve`: the reference server of this package's API (regenerating
 * what is stale first when run in this repository), or with `--mock` a mock
 * of the project's spec answering its examples.
 */
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { packageRoot } from '../../assets.js';
import { ConfigError, yargsOptions, type GenerateConfig } from '../../config.js';
import { MOCK_PEERS, SERVER_PEERS, requirePeers } from '../peers.js';
import { configFromArgs, pipeline, report } from './generate.js';
import { wrap, type Output } from '../wrapper.js';

const serveOptions = {
  host: { type: 'string', describe: 'address to listen on (default: HOST, then 127.0.0.1)' },
  port: { type: 'number', describe: 'port to listen on (default: PORT, then 9991)' },
  mock: { type: 'boolean', default: false, describe: "answer every operation of the project's spec with its example; any credentials" },
  'seed-demo': { type: 'boolean', default: false, describe: 'create the demo organization in an empty PostgreSQL database too' },
  generate: { type: 'boolean', default: true, describe: 'in this repository, regenerate stale output first (--no-generate skips it)' },
  workers: { type: 'number', default: 1, describe: 'server processes sharing one port and one PostgreSQL (DATABASE_URL); 1 on the embedded database' },
  ...yargsOptions('config', 'spec'),
} as const;

type Args = ArgumentsCamelCase<InferredOptionTypes<typeof serveOptions>>;

export const serveCommand = {
  command: 'serve',
  describe: 'serve the reference server and its docs, or with --mock a mock of the spec',
  builder: (yargs: Argv) => yargs.options(serveOptions),
  handler: wrap('serve', async (args: Args, output: Output) => {
    // A process forked by --workers: serve only (the primary generated and prepared the database).
    if (process.env.TEAMCHAT_CLUSTER_WORKER === '1') {
      await (await import('../../../server/cluster.js')).runWorker();
      return new Promise<number>(() => undefined);
    }
    if (args.workers !== 1) await checkWorkers(args);
    requirePeers(args.mock ? 'teamchat serve --mock' : 'teamchat serve', args.mock ? MOCK_PEERS : SERVER_PEERS);
    const config = await configFromArgs({ ...args, check: false, watch: false });
    // This repository serves its own spec through the committed bindings, docs included.
    const ownApi = config.root === packageRoot;
    if (ownApi && args.generate) report(config, await (await pipeline())(config), output);
    if (args.host !== undefined) process.env.HOST = args.host;
    if (args.port !== undefined) process.env.PORT = String(args.port);
    const running = args.mock
      ? await startMock(ownApi ? undefined : config)
      : args.workers === 1
        ? await startReal(args.seedDemo, output)
        : await startWorkers(args.workers, args.seedDemo, output);
    output.out(`API:  ${running.url}${running.basePath}`);
    if (running.docs) output.out(`Docs: ${running.url}/docs/`);
    return new Promise<number>((resolve) => {
      const stop = (signal: string) => {
        output.err(`${signal}: shutting down`);
        running.close().then(
          () => resolve(0),
          (error: unknown) => {
            output.err(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
            resolve(1);
          },
        );
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
  }),
};

interface Running {
  url: string;
  basePath: string;
  docs: boolean;
  close(): Promise<void>;
}

// Loaded only now: the server imports the files generation may just have written.
async function startMock(spec: GenerateConfig | undefined): Promise<Running> {
  if (spec !== undefined) {
    const { startSpecMock } = await import('../spec-mock.js');
    const running = await startSpecMock(spec);
    return { ...running, docs: false };
  }
  const { listenMock } = await import('../../../server/mock.js');
  const { registerDocs } = await import('../../../server/http/docs.js');
  const { app, url } = await listenMock({ logger: false, beforeListen: registerDocs });
  return { url, basePath: '/api/v1', docs: true, close: () => app.close() };
}

function printLogins(logins: { email: string; role: number; apiKey: string }[] | null, demoPassword: string, output: Output): void {
  if (!logins) return;
  output.out(`Demo organization created. Logins (password: ${demoPassword === 'demo1234' ? 'demo1234' : 'DEMO_PASSWORD'}):`);
  for (const login of logins) output.out(`  ${login.email.padEnd(28)} role ${String(login.role).padEnd(4)} api key ${login.apiKey}`);
}

async function checkWorkers(args: Args): Promise<void> {
  if (args.mock) throw new ConfigError('--workers applies to the reference server, not to --mock');
  const [{ workersProblem }, { loadConfig }] = await Promise.all([import('../../../server/cluster.js'), import('../../../server/config.js')]);
  const problem = workersProblem(args.workers, loadConfig());
  if (problem) throw new ConfigError(problem);
}

async function startWorkers(workers: number, seedDemo: boolean, output: Output): Promise<Running> {
  const { startCluster } = await import('../../../server/cluster.js');
  const running = await startCluster({ workers, seedDemo }, (line) => output.err(line));
  output.out(`Database: PostgreSQL (DATABASE_URL), ${workers} server processes`);
  printLogins(running.demoLogins, running.config.demoPassword, output);
  return { url: running.url, basePath: '/api/v1', docs: true, close: () => running.close() };
}

async function startReal(seedDemo: boolean, output: Output): Promise<Running> {
  const { startServer } = await import('../../../server/main.js');
  const server = await startServer({ seedDemo, logger: false });
  output.out(server.config.databaseUrl ? 'Database: PostgreSQL (DATABASE_URL)' : `Database: embedded, in ${server.config.dataDir}`);
  printLogins(server.demoLogins, server.config.demoPassword, output);
  return { url: server.url, basePath: '/api/v1', docs: true, close: () => server.close() };
}
