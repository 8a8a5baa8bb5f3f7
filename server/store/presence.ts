import { nowSeconds, type Db } from './db.js';
import type { PresenceRow } from './rows.js';

/**
 * Records a client's presence and returns the update id it was given. Call
 * inside a transaction: the presence_sequence row stays locked until commit,
 * so update ids become visible in the order they were handed out and a reader
 * asking for "after N" never misses a smaller id committed later.
 */
export async function recordPresence(tx: Db, userId: number, client: string, status: 'active' | 'idle', at: number = nowSeconds()): Promise<number> {
  const { rows } = await tx.query<{ last_update_id: number }>(
    'UPDATE presence_sequence SET last_update_id = last_update_id + 1 WHERE id = 1 RETURNING last_update_id',
  );
  const updateId = rows[0]!.last_update_id;
  await tx.query(
    `INSERT INTO user_presence (user_id, client, last_active_at, last_connected_at, update_id)
     VALUES ($1, $2, CASE WHEN $3 THEN $4::bigint END, $4, $5)
     ON CONFLICT (user_id, client) DO UPDATE SET
       last_active_at = CASE WHEN $3 THEN $4::bigint ELSE user_presence.last_active_at END,
       last_connected_at = $4, update_id = $5`,
    [userId, client, status === 'active', at, updateId],
  );
  return updateId;
}

/** The highest update id handed out so far (0 before any). */
export async function lastPresenceUpdateId(db: Db): Promise<number> {
  const { rows } = await db.query<{ last_update_id: number }>('SELECT last_update_id FROM presence_sequence WHERE id = 1');
  return rows[0]!.last_update_id;
}

/** Rows changed after `afterUpdateId` and connected at or after `since`, of users with presence enabled. */
export async function presenceChanges(db: Db, afterUpdateId: number, since: number): Promise<PresenceRow[]> {
  const { rows } = await db.query<PresenceRow>(
    `SELECT p.* FROM user_presence p JOIN users u ON u.id = p.user_id
     WHERE p.update_id > $1 AND p.last_connected_at >= $2 AND u.is_active AND u.presence_enabled
     ORDER BY p.user_id, p.client`,
    [afterUpdateId, since],
  );
  return rows;
}

/** One client's row, locked until the transaction ends so concurrent reports of it queue. */
export async function lockPresence(tx: Db, userId: number, client: string): Promise<PresenceRow | null> {
  const { rows } = await tx.query<PresenceRow>('SELECT * FROM user_presence WHERE user_id = $1 AND client = $2 FOR UPDATE', [userId, client]);
  return rows[0] ?? null;
}

export interface PresenceListingRow extends PresenceRow {
  email: string;
}

export interface PresenceListingQuery {
  afterUpdateId: number;
  /** Rows connected before this time are left out. */
  since: number;
  /** The caller, whose own rows are left out. */
  viewerId: number;
  /** Only users sharing a channel subscription or a direct-message conversation with the viewer. */
  onlyUsersViewerShares: boolean;
}

/**
 * Every row of the other active human users with presence enabled who have a
 * row changed after `afterUpdateId` and connected since `since`: all of a
 * user's clients, so their sum is right. By user then client.
 */
export async function presenceListing(db: Db, query: PresenceListingQuery): Promise<PresenceListingRow[]> {
  const { rows } = await db.query<PresenceListingRow>(
    `SELECT p.*, u.email FROM user_presence p JOIN users u ON u.id = p.user_id
     WHERE p.user_id IN (SELECT q.user_id FROM user_presence q WHERE q.update_id > $1 AND q.last_connected_at >= $2)
       AND p.user_id <> $3
       AND u.is_active AND NOT u.is_bot AND u.presence_enabled
       AND (NOT $4 OR EXISTS (
         SELECT 1 FROM subscriptions mine JOIN subscriptions theirs ON theirs.channel_id = mine.channel_id
         WHERE mine.user_id = $3 AND mine.active AND theirs.user_id = p.user_id AND theirs.active
         UNION ALL
         SELECT 1 FROM recipient_members mine JOIN recipient_members theirs ON theirs.recipient_id = mine.recipient_id
         WHERE mine.user_id = $3 AND theirs.user_id = p.user_id))
     ORDER BY p.user_id, p.client`,
    [query.afterUpdateId, query.since, query.viewerId, query.onlyUsersViewerShares],
  );
  return rows;
}
