import type { Db } from './db.js';
import type { CodePlaygroundRow, LinkifierRow, RealmDomainRow, RealmRow } from './rows.js';

/** The organization, or null before it is created (fresh database without the demo seed). */
export async function getRealm(db: Db): Promise<RealmRow | null> {
  const { rows } = await db.query<RealmRow>('SELECT * FROM realm WHERE id = 1');
  return rows[0] ?? null;
}

/** In the order clients must apply them. */
export async function listLinkifiers(db: Db): Promise<LinkifierRow[]> {
  const { rows } = await db.query<LinkifierRow>('SELECT * FROM linkifiers ORDER BY sort_order, id');
  return rows;
}

export async function listRealmDomains(db: Db): Promise<RealmDomainRow[]> {
  const { rows } = await db.query<RealmDomainRow>('SELECT * FROM realm_domains ORDER BY domain');
  return rows;
}

export async function listCodePlaygrounds(db: Db): Promise<CodePlaygroundRow[]> {
  const { rows } = await db.query<CodePlaygroundRow>('SELECT * FROM code_playgrounds ORDER BY id');
  return rows;
}

/** Returns false when the domain is not one of the organization's allowed domains. */
export async function setRealmDomainAllowSubdomains(db: Db, domain: string, allowSubdomains: boolean): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE realm_domains SET allow_subdomains = $2 WHERE domain = lower($1)', [
    domain,
    allowSubdomains,
  ]);
  return rowCount > 0;
}

/** The new playground's id, or null when one with this name already serves this language. */
export async function insertCodePlayground(db: Db, playground: Omit<CodePlaygroundRow, 'id'>): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO code_playgrounds (name, pygments_language, url_template) VALUES ($1, $2, $3)
     ON CONFLICT (name, pygments_language) DO NOTHING RETURNING id`,
    [playground.name, playground.pygments_language, playground.url_template],
  );
  return rows[0]?.id ?? null;
}
