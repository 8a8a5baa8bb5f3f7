/**
 * The mock server: the real generated bindings (parsing, authentication,
 * decoding, envelopes, errors) in front of handlers that answer every
 * operation with the first success example of the spec. Any HTTP Basic
 * credentials are accepted. `tsx server/mock.ts` serves it on HOST:PORT.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { pathToFileURL } from 'node:url';
import { mockHandlers } from '../generated/mock-handlers.js';
import { maxFeatureLevel, registerRoutes, routes } from '../generated/server.js';
import { reportFeatureLevel } from './http/feature-level.js';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors.js';

/** Who the mock says the caller is: whoever the credentials name. */
export interface MockUser {
  email: string;
}

export interface MockOptions {
  logger?: FastifyServerOptions['logger'];
  /** Largest accepted request body or upload, in bytes (the bindings' default otherwise). */
  bodyLimit?: number;
}

export interface ListenOptions extends MockOptions {
  host?: string;
  port?: number;
  /** Adds routes (e.g. the docs) before the server starts listening. */
  beforeListen?: (app: FastifyInstance) => Promise<void>;
}

export async function createMockApp(options: MockOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ frameworkErrors, clientErrorHandler, logger: options.logger ?? false });
  const headers = reportFeatureLevel(app, maxFeatureLevel, routes);
  await registerRoutes<MockUser>(app, {
    headers,
    handlers: mockHandlers,
    authenticate: ({ username }) => ({ email: username }),
    realm: 'teamchat',
    ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
  });
  return app;
}

/** Starts the mock on `host`/`port`, defaulting to HOST and PORT from the environment, then 127.0.0.1:9991. */
export async function listenMock(options: ListenOptions = {}): Promise<{ app: FastifyInstance; url: string }> {
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  const port = options.port ?? portFromEnv(process.env.PORT);
  const app = await createMockApp(options);
  await options.beforeListen?.(app);
  const url = await app.listen({ host, port });
  return { app, url };
}

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 9991;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer from 0 to 65535, not "${value}"`);
  return port;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await listenMock({ logger: true });
  console.log(`Mock server (spec examples, any credentials) at ${url}/api/v1`);
}
