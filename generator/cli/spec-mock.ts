/**
 * `teamchat serve --mock` for any project's spec: the generated bindings and
 * mock handlers of that spec, produced in memory, compiled to JavaScript in a
 * temporary folder and served on Fastify. The same code `generate` writes,
 * so the mock parses, authenticates, decodes and answers as the bindings do.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { typescript } from '../cjs.js';
import { ConfigError, type GenerateConfig } from '../config.js';
import { produce } from './pipeline.js';
import { importModule, resolveModule } from '../esm.js';

/** Where the in-memory output pretends to live; nothing is written there. */
const MOCK_OUT = '.teamchat-mock';

export interface RunningMock {
  url: string;
  /** Path prefix of every operation (from the spec's first server URL). */
  basePath: string;
  close(): Promise<void>;
}

/** HOST and PORT from the environment (the `--host`/`--port` flags set them), else 127.0.0.1:9991. */
export function listenAddress(env: NodeJS.ProcessEnv = process.env): { host: string; port: number } {
  const port = env.PORT === undefined || env.PORT === '' ? 9991 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be an integer from 0 to 65535, not "${env.PORT}"`);
  return { host: env.HOST || '127.0.0.1', port };
}

export async function startSpecMock(config: GenerateConfig, listen = listenAddress()): Promise<RunningMock> {
  const mockConfig: GenerateConfig = { ...config, outDir: MOCK_OUT, targets: ['types', 'validators', 'server'], check: true };
  const { targets } = await produce(mockConfig);
  const modules = targets
    .flatMap((t) => t.files)
    .filter((file) => file.ownership === 'generated' && file.path.startsWith(`${MOCK_OUT}/`) && file.path.endsWith('.ts'))
    // The handlers index imports the project's hand-written handlers; the mock answers examples instead.
    .filter((file) => file.path !== `${MOCK_OUT}/handlers.ts`);
  const ts = typescript();
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-mock-'));
  try {
    for (const file of modules) {
      const { outputText } = ts.transpileModule(file.contents, {
        fileName: file.path,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      const path = join(dir, posix.relative(MOCK_OUT, file.path).replace(/\.ts$/, '.js'));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, packagesResolvedHere(outputText));
    }
    const [{ default: Fastify }, server, mock] = await Promise.all([
      importModule<typeof import('fastify')>('fastify'),
      importModule<GeneratedServer>(pathToFileURL(join(dir, 'server.js')).href),
      importModule<{ mockHandlers: unknown }>(pathToFileURL(join(dir, 'mock-handlers.js')).href),
    ]);
    // Errors Fastify raises before routing answer in the document's error body too.
    const app = Fastify({ frameworkErrors: server.frameworkErrors, logger: false });
    // Any credential is accepted; the handlers see it as the user.
    await server.registerRoutes(app, { handlers: mock.mockHandlers, authenticate: (credential: unknown) => ({ credential }) });
    const url = await app.listen(listen);
    return {
      url,
      basePath: server.basePath ?? '',
      close: async () => {
        await app.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

interface GeneratedServer {
  registerRoutes: (app: FastifyInstance, options: { handlers: unknown; authenticate: (credential: unknown) => unknown }) => Promise<void>;
  frameworkErrors: FastifyServerOptions['frameworkErrors'];
  basePath?: string;
}

/**
 * The compiled modules live in a temporary folder with no node_modules above
 * it, so package imports (`@fastify/multipart`) are pointed at the copies
 * this package resolves.
 */
function packagesResolvedHere(code: string): string {
  return code.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"./][^'"]*)\2/g, (whole, lead: string, quote: string, specifier: string) =>
    specifier.startsWith('node:') ? whole : `${lead}${quote}${resolveModule(specifier)}${quote}`,
  );
}
