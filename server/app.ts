/**
 * The reference server: the generated bindings with the hand-written
 * handlers, plus the routes outside the API (docs, uploaded files, the
 * resumable-upload endpoint). Building the app opens nothing: the caller
 * passes an open database, so tests and the CLI share one path.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { handlers } from '../generated/handlers.js';
import { registerRoutes, routes } from '../generated/server.js';
import { authenticate } from './auth/credentials.js';
import type { ServerConfig } from './config.js';
import { registerDocs } from './http/docs.js';
import { reportFeatureLevel } from './http/feature-level.js';
import { withSafeRequestLog } from './http/request-log.js';
import type { Services } from './services.js';
import { registerUploads } from './uploads/index.js';
import { SharedCache } from './store/cache.js';
import type { Db } from './store/db.js';
import type { UserRow } from './store/rows.js';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors.js';

export interface AppOptions {
  db: Db;
  config: ServerConfig;
  secret: Buffer;
  featureLevel: number;
  logger?: FastifyServerOptions['logger'];
  /** Check every success body against the spec in strict mode (tests). */
  validateResponses?: boolean;
  now?: () => number;
}

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ frameworkErrors, clientErrorHandler, logger: withSafeRequestLog(options.logger) });
  const services: Services = {
    db: options.db,
    config: options.config,
    secret: options.secret,
    featureLevel: options.featureLevel,
    // Store functions called with options.db find this cache; transaction handles never do.
    cache: new SharedCache(options.db),
    now: options.now ?? (() => Math.floor(Date.now() / 1000)),
  };
  app.decorate('services', services);
  const headers = reportFeatureLevel(app, options.featureLevel, routes);
  await registerRoutes<UserRow>(app, {
    headers,
    handlers,
    // GET /users/me reads everything it needs in the authenticating statement.
    authenticate: ({ username, password }, request) =>
      authenticate(options.db, username, password, services.cache, {
        withOwnUser: request.method === 'GET' && request.routeOptions.url === routes.getOwnUser.path,
      }),
    realm: 'teamchat',
    validateResponses: options.validateResponses ?? false,
  });
  await registerDocs(app);
  await registerUploads(app);
  return app;
}
