import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../server/store/migrate.js';
import { openDb } from '../../server/store/open.js';

const dataDir = mkdtempSync(join(tmpdir(), 'teamchat-open-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('openDb with the embedded database', () => {
  it('keeps data in DATA_DIR across restarts and migrates only once', async () => {
    const first = await openDb({ databaseUrl: null, dataDir });
    await first.query(`INSERT INTO realm_domains (domain) VALUES ('persisted.example')`);
    await first.close();

    const second = await openDb({ databaseUrl: null, dataDir });
    try {
      const { rows } = await second.query<{ domain: string }>('SELECT domain FROM realm_domains');
      expect(rows).toEqual([{ domain: 'persisted.example' }]);
      const migrations = await second.query('SELECT version FROM schema_migrations');
      expect(migrations.rowCount).toBe(readMigrations().length);
    } finally {
      await second.close();
    }
  });
});
