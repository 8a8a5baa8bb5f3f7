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

// The largest id an integer column holds.
const MAX_ID = 2_147_483_647;

/** GET /messages/{message_id}'s id, as the bindings will decode it, when it is a plain id a message can have. */
function messageIdOf(params: unknown): number | undefined {
  const text = (params as { message_id?: unknown } | undefined)?.message_id;
  if (typeof text !== 'string' || !/^[0-9]{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_ID ? id : undefined;
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
    // GET /users/me and GET /messages/{id} read everything they need in the authenticating statement.
    authenticate: ({ username, password }, request) =>
      authenticate(options.db, username, password, services.cache, {
        withOwnUser: request.method === 'GET' && request.routeOptions.url === routes.getOwnUser.path,
        withMessage: request.method === 'GET' && request.routeOptions.url === routes.getMessage.path ? messageIdOf(request.params) : undefined,
      }),
    realm: 'teamchat',
    validateResponses: options.validateResponses ?? false,
  });
  await registerDocs(app);
  await registerUploads(app);
  return app;
}
