/**
 * `teamchat serve`: regenerate what is stale, then serve the reference server
 * (or, with `--mock`, the spec's examples) with its docs.
 */
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { resolveGenerateConfig } from '../../config.js';
import { report } from './generate.js';
import { wrap, type Output } from '../wrapper.js';

const serveOptions = {
  host: { type: 'string', describe: 'address to listen on (default: HOST, then 127.0.0.1)' },
  port: { type: 'number', describe: 'port to listen on (default: PORT, then 9991)' },
  mock: { type: 'boolean', default: false, describe: 'answer every operation with its spec example; any credentials' },
  'seed-demo': { type: 'boolean', default: false, describe: 'create the demo organization in an empty PostgreSQL database too' },
  generate: { type: 'boolean', default: true, describe: 'regenerate stale output first (--no-generate skips it)' },
} as const;

type Args = ArgumentsCamelCase<InferredOptionTypes<typeof serveOptions>>;

export const serveCommand = {
  command: 'serve',
  describe: 'serve the reference server (or the mock) and its docs',
  builder: (yargs: Argv) => yargs.options(serveOptions),
  handler: wrap('serve', async (args: Args, output: Output) => {
    if (args.generate) {
      const [{ targetNames }, { generate }] = await Promise.all([import('../../targets/index.js'), import('../pipeline.js')]);
      const config = resolveGenerateConfig({ spec: 'spec/openapi.yaml', out: 'generated', check: false, watch: false }, process.cwd(), targetNames);
      report(config, await generate(config), output);
    }
    // Loaded only now: the server imports the files generation may just have written.
    if (args.host !== undefined) process.env.HOST = args.host;
    if (args.port !== undefined) process.env.PORT = String(args.port);
    const running = args.mock ? await startMock() : await startReal(args.seedDemo, output);
    output.out(`API:  ${running.url}/api/v1`);
    output.out(`Docs: ${running.url}/docs/`);
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

async function startMock(): Promise<{ url: string; close(): Promise<void> }> {
  const { listenMock } = await import('../../../server/mock.js');
  const { registerDocs } = await import('../../../server/http/docs.js');
  const { app, url } = await listenMock({ logger: false, beforeListen: registerDocs });
  return { url, close: () => app.close() };
}

async function startReal(seedDemo: boolean, output: Output): Promise<{ url: string; close(): Promise<void> }> {
  const { startServer } = await import('../../../server/main.js');
  const server = await startServer({ seedDemo, logger: false });
  output.out(server.config.databaseUrl ? 'Database: PostgreSQL (DATABASE_URL)' : `Database: embedded, in ${server.config.dataDir}`);
  if (server.demoLogins) {
    output.out(`Demo organization created. Logins (password: ${server.config.demoPassword === 'demo1234' ? 'demo1234' : 'DEMO_PASSWORD'}):`);
    for (const login of server.demoLogins) {
      output.out(`  ${login.email.padEnd(28)} role ${String(login.role).padEnd(4)} api key ${login.apiKey}`);
    }
  }
  return server;
}
