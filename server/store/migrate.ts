import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../package-root.js';
import type { Db } from './db.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

// From the package root, not this module: compiled, this module lives under dist/ and the SQL files do not.
const MIGRATIONS_DIR = join(packageRoot, 'server', 'store', 'migrations');
const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;
// Any constant works; it only has to be the same in every server process.
const MIGRATION_LOCK_KEY = 7_364_221_901;

/** The numbered SQL files of a directory, in order. */
export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = FILE_NAME.exec(file);
      if (!match) throw new Error(`migration file name must look like 0001_name.sql: ${file}`);
      const sql = readFileSync(`${dir}/${file}`, 'utf8');
      return { version: Number(match[1]), name: match[2]!, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`migrations must be numbered 1, 2, 3...: found ${migration.version} at position ${index + 1}`);
  });
  return migrations;
}

/**
 * Applies the migrations not yet recorded, in one transaction under an
 * advisory lock, so processes starting together apply each one exactly once.
 * Returns the versions applied now.
 */
export async function migrate(db: Db, migrations: Migration[] = readMigrations()): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
    );
    const applied = new Map(rows.map((row) => [row.version, row]));
    for (const [version, row] of applied) {
      const known = migrations.find((migration) => migration.version === version);
      if (!known) throw new Error(`database has migration ${version} (${row.name}) that this server does not know: is it older than the database?`);
      if (known.checksum !== row.checksum) throw new Error(`migration ${version}_${known.name}.sql changed after it was applied`);
    }
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
    }
    return pending.map((migration) => migration.version);
  });
}
