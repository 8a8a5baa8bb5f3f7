/**
 * Starting and stopping a reference server process: open and migrate the
 * database, seed the demo organization when asked, serve, run background
 * jobs, and shut down cleanly.
 */
import type { FastifyInstance } from 'fastify';
import { maxFeatureLevel } from '../generated/server.js';
import { createApp } from './app.js';
import { loadServerSecret } from './auth/secret.js';
import { loadConfig, type ServerConfig } from './config.js';
import { startJobs } from './jobs.js';
import { seedDemoIfEmpty, type DemoLogin } from './seed/demo.js';
import { openDb } from './store/open.js';

export interface StartOptions {
  config?: ServerConfig;
  /** Seed the demo organization into an empty database (always on for the embedded database). */
  seedDemo?: boolean;
  logger?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Logins of a demo organization created by this start, or null. */
  demoLogins: DemoLogin[] | null;
  config: ServerConfig;
  close(): Promise<void>;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config = options.config ?? loadConfig();
  const db = await openDb(config);
  try {
    const secret = loadServerSecret(config);
    const seed = options.seedDemo === true || config.databaseUrl === null;
    const demoLogins = seed
      ? await seedDemoIfEmpty(db, { password: config.demoPassword, secret, videoChatProvider: config.videoCall.provider })
      : null;
    const app = await createApp({
      db,
      config,
      secret,
      featureLevel: config.featureLevel ?? maxFeatureLevel,
      logger: options.logger ?? false,
    });
    const url = await app.listen({ host: config.host, port: config.port });
    const stopJobs = startJobs(app.services, (message) => app.log.info(message));
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        await stopJobs();
        await app.close();
        await db.close();
      })());
    return { app, url, demoLogins, config, close };
  } catch (error) {
    await db.close();
    throw error;
  }
}
