/**
 * A digest of every table's contents, to show that a refused request left
 * the database as it was.
 */
import type { Db } from '../../../server/store/db.js';

/**
 * Tables a refused request may change on purpose:
 * - failed_logins: a refused `POST /fetch_api_key` is recorded, which is how
 *   the login rate limit works.
 */
export const CHANGED_BY_REFUSALS = ['failed_logins'];

export type Digest = Map<string, string>;

export async function tableNames(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((r) => r.name).filter((name) => !CHANGED_BY_REFUSALS.includes(name));
}

/** One statement for all tables: per table, the md5 of its rows as text in a stable order. */
export function digestQuery(tables: string[]): string {
  const columns = tables.map(
    (t) => `(SELECT md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) FROM "${t}" x) AS "${t}"`,
  );
  return `SELECT ${columns.join(', ')}`;
}

export async function digest(db: Db, query: string): Promise<Digest> {
  const { rows } = await db.query<Record<string, string>>(query);
  return new Map(Object.entries(rows[0] ?? {}));
}

/** Names of the tables whose contents differ. */
export function changedTables(before: Digest, after: Digest): string[] {
  return [...before.keys()].filter((table) => before.get(table) !== after.get(table));
}
