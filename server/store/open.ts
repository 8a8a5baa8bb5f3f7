import { join } from 'node:path';
import type { ServerConfig } from '../config.js';
import type { DbHandle } from './db.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** The configured database (PostgreSQL when DATABASE_URL is set), migrated. */
export async function openDb(
  config: Pick<ServerConfig, 'databaseUrl' | 'dataDir'> & Partial<Pick<ServerConfig, 'databaseFollowChanges'>>,
): Promise<DbHandle> {
  const db = config.databaseUrl
    ? await openPostgres({ url: config.databaseUrl, followChanges: config.databaseFollowChanges })
    : await openPglite({ dataDir: join(config.dataDir, 'pglite') });
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
