/**
 * An end-to-end test server: the real app on a fresh database (embedded
 * PGlite in memory, or a throwaway PostgreSQL), seeded with the demo
 * organization, listening on 127.0.0.1, with a generated client per login.
 * Every response is checked by the generated validators in strict mode, on
 * the server side (bindings) and on the client side.
 */
import type { FastifyInstance } from 'fastify';
import { createClient, type Client, type ClientOptions } from '../../generated/client.js';
import { maxFeatureLevel } from '../../generated/server.js';
import { createApp } from '../../server/app.js';
import { loadServerSecret } from '../../server/auth/secret.js';
import { loadConfig, type ServerConfig } from '../../server/config.js';
import { seedDemoIfEmpty, type DemoLogin } from '../../server/seed/demo.js';
import type { Services } from '../../server/services.js';
import type { DbHandle } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';
import { openPostgres } from '../../server/store/postgres.js';
import { startPostgres, type ThrowawayPostgres } from './postgres.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Driver = 'pglite' | 'postgres';
export const drivers: Driver[] = ['pglite', 'postgres'];

export type Who = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'bot';
const EMAIL: Record<Who, string> = {
  owner: 'owner@example.com',
  admin: 'admin@example.com',
  moderator: 'moderator@example.com',
  member: 'member@example.com',
  guest: 'guest@example.com',
  bot: 'deploy-bot@example.com',
};

export interface TestServer {
  driver: Driver;
  url: string;
  app: FastifyInstance;
  db: DbHandle;
  services: Services;
  config: ServerConfig;
  logins: Record<Who, DemoLogin>;
  /** A generated client logged in as `who`, validating every response strictly. */
  client(who: Who, options?: Partial<ClientOptions>): Client;
  /** Moves the server's clock (UNIX seconds). */
  setNow(seconds: number): void;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Environment overrides for loadConfig (e.g. VIDEO_CALL_PROVIDER). */
  env?: Record<string, string>;
}

export async function startTestServer(driver: Driver, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'teamchat-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', SECRET_KEY: 'a'.repeat(64), ...options.env });
  let pg: ThrowawayPostgres | undefined;
  let db: DbHandle;
  if (driver === 'postgres') {
    pg = await startPostgres();
    db = await openPostgres({ url: pg.url });
  } else {
    db = await openPglite({ dataDir: null, checkHandleUse: true });
  }
  await migrate(db);
  const secret = loadServerSecret(config);
  const seeded = await seedDemoIfEmpty(db, { password: config.demoPassword, secret, videoChatProvider: config.videoCall.provider });
  if (!seeded) throw new Error('the test database was not empty');
  let now: number | undefined;
  const app = await createApp({
    db,
    config,
    secret,
    featureLevel: config.featureLevel ?? maxFeatureLevel,
    validateResponses: true,
    now: () => now ?? Math.floor(Date.now() / 1000),
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const logins = Object.fromEntries(
    (Object.keys(EMAIL) as Who[]).map((who) => {
      const login = seeded.find((l) => l.email === EMAIL[who]);
      if (!login) throw new Error(`the demo organization has no ${EMAIL[who]}`);
      return [who, login];
    }),
  ) as Record<Who, DemoLogin>;
  return {
    driver,
    url,
    app,
    db,
    services: app.services,
    config,
    logins,
    client: (who, clientOptions = {}) =>
      createClient({ baseUrl: url, email: logins[who].email, apiKey: logins[who].apiKey, validateResponses: 'strict', ...clientOptions }),
    setNow: (seconds) => {
      now = seconds;
    },
    close: async () => {
      await app.close();
      await db.close();
      await pg?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
