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
