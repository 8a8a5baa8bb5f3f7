/**
 * `teamchat serve`: the reference server of this package's API (regenerating
 * what is stale first when run in this repository), or with `--mock` a mock
 * of the project's spec answering its examples. The reference server, and
 * the mock of our own API with its docs, are reached only through
 * `server/entry.ts` ({@link referenceServer}); the mock of any other
 * document is the generator's own (`cli/spec-mock.ts`).
 */
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { packageRoot } from '../../assets.js';
import { ConfigError, yargsOptions, type GenerateConfig } from '../../config.js';
import { MOCK_PEERS, requirePeers } from '../peers.js';
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

/** The reference server's one entry point, loaded only when it is served. */
const referenceServer = () => import('../../../server/entry.js');

export const serveCommand = {
  command: 'serve',
  describe: 'serve the reference server and its docs, or with --mock a mock of the spec',
  builder: (yargs: Argv) => yargs.options(serveOptions),
  handler: wrap('serve', async (args: Args, output: Output) => {
    const server = await referenceServer();
    // A process forked by --workers: serve only (the primary generated and prepared the database).
    if (server.isWorkerProcess()) {
      await server.runWorker();
      return new Promise<number>(() => undefined);
    }
    if (args.workers !== 1) await checkWorkers(args, server);
    requirePeers(args.mock ? 'teamchat serve --mock' : 'teamchat serve', args.mock ? MOCK_PEERS : server.requiredPackages);
    const config = await configFromArgs({ ...args, check: false, watch: false });
    // This repository serves its own spec through the committed bindings, docs included.
    const ownApi = config.root === packageRoot;
    const specMock = args.mock && !ownApi;
    if (ownApi && args.generate) report(config, await (await pipeline())(config), output);
    if (args.host !== undefined) process.env.HOST = args.host;
    if (args.port !== undefined) process.env.PORT = String(args.port);
    const running = specMock
      ? { ...(await startSpecMock(config)), docs: false }
      : await server.serve({ mock: args.mock, workers: args.workers, seedDemo: args.seedDemo, out: (line) => output.out(line), err: (line) => output.err(line) });
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

// Loaded only now: the mock serves the files generation may just have written.
async function startSpecMock(spec: GenerateConfig) {
  const { startSpecMock: start } = await import('../spec-mock.js');
  return start(spec);
}

async function checkWorkers(args: Args, server: Awaited<ReturnType<typeof referenceServer>>): Promise<void> {
  if (args.mock) throw new ConfigError('--workers applies to the reference server, not to --mock');
  const problem = await server.workersProblem(args.workers);
  if (problem) throw new ConfigError(problem);
}
