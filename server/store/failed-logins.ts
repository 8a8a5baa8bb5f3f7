import { nowSeconds, type Db } from './db.js';

export async function recordFailedLogin(db: Db, username: string, at: number = nowSeconds()): Promise<void> {
  await db.query('INSERT INTO failed_logins (username, attempted_at) VALUES ($1, $2)', [username, at]);
}

export async function countRecentFailedLogins(db: Db, username: string, windowSeconds: number, now: number = nowSeconds()): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'SELECT count(*)::integer AS count FROM failed_logins WHERE lower(username) = lower($1) AND attempted_at > $2',
    [username, now - windowSeconds],
  );
  return rows[0]!.count;
}

/** Old attempts only matter for the rate limit window. */
export async function pruneFailedLogins(db: Db, olderThan: number): Promise<void> {
  await db.query('DELETE FROM failed_logins WHERE attempted_at <= $1', [olderThan]);
}
