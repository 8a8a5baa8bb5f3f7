import type { Db } from './db.js';

/** Old attempts only matter for the rate limit window. */
export async function pruneFailedLogins(db: Db, olderThan: number): Promise<void> {
  await db.query('DELETE FROM failed_logins WHERE attempted_at <= $1', [olderThan]);
}

/** Who attempted a login: the username given and the client's network address (null: unknown). */
export interface LoginAttempt {
  username: string;
  clientAddress: string | null;
}

export async function recordFailedLoginAttempt(db: Db, attempt: LoginAttempt, at: number): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO failed_logins (username, client_address, attempted_at) VALUES ($1, $2, $3) RETURNING id',
    [attempt.username, attempt.clientAddress, at],
  );
  return rows[0]!.id;
}

/** Removes an attempt recorded in advance that turned out right. */
export async function forgetFailedLoginAttempt(db: Db, id: number): Promise<void> {
  await db.query('DELETE FROM failed_logins WHERE id = $1', [id]);
}

/** Taken in a transaction, makes concurrent check-then-record steps of logins run one at a time (released at its end). */
export async function lockLoginAttempts(tx: Db): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('teamchat:failed_logins'))");
}

export interface RecentFailures {
  count: number;
  /** Time of the oldest failure still inside the window, or null when there is none. */
  oldestAt: number | null;
}

/** Failures within the window for this username (any address) and for this address (any username; none when unknown). */
export async function recentFailedLogins(
  db: Db,
  attempt: LoginAttempt,
  windowSeconds: number,
  now: number,
): Promise<{ byUsername: RecentFailures; byAddress: RecentFailures }> {
  const { rows } = await db.query<{ user_count: number; user_oldest: number | null; address_count: number; address_oldest: number | null }>(
    `SELECT
       count(*) FILTER (WHERE lower(username) = lower($1))::integer AS user_count,
       min(attempted_at) FILTER (WHERE lower(username) = lower($1)) AS user_oldest,
       count(*) FILTER (WHERE client_address = $2)::integer AS address_count,
       min(attempted_at) FILTER (WHERE client_address = $2) AS address_oldest
     FROM failed_logins
     WHERE attempted_at > $3 AND attempted_at <= $4 AND (lower(username) = lower($1) OR client_address = $2)`,
    [attempt.username, attempt.clientAddress, now - windowSeconds, now],
  );
  const row = rows[0]!;
  return {
    byUsername: { count: row.user_count, oldestAt: row.user_oldest },
    byAddress: { count: row.address_count, oldestAt: row.address_oldest },
  };
}
