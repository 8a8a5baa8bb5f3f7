/**
 * What every handler reaches through its request: the database, settings and
 * clock of the app that serves it. Held per app (a Fastify decoration), never
 * in module globals, so several apps can run in one process (tests) and
 * several processes can share one database (scaling out).
 */
import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from './config.js';
import type { SharedCache } from './store/cache.js';
import type { Db } from './store/db.js';
import type { UserRow } from './store/rows.js';

export interface Services {
  db: Db;
  config: ServerConfig;
  /** Seals stored API keys (server/auth/secret.ts). */
  secret: Buffer;
  /** The feature level this server reports and implements. */
  featureLevel: number;
  /** Organization settings and linkifiers, current within authenticated requests (store/cache.ts). */
  cache: SharedCache;
  /** Current UNIX time in seconds; tests move it. */
  now(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

declare module '../generated/server.js' {
  interface ServerTypes {
    user: UserRow;
  }
}

/** The services of the app that received `request`. */
export function services(request: FastifyRequest): Services {
  return request.server.services;
}
