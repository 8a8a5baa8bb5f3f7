import type { Db } from './db.js';
import type { CustomProfileFieldRow, CustomProfileFieldType } from './rows.js';

export interface ProfileValue {
  field_id: number;
  field_type: CustomProfileFieldType;
  value: string;
  rendered_value: string | null;
}

/** The user's custom profile values, in the fields' display order. */
export async function profileValues(db: Db, userId: number): Promise<ProfileValue[]> {
  const { rows } = await db.query<ProfileValue>(
    `SELECT v.field_id, f.field_type, v.value, v.rendered_value
     FROM custom_profile_values v JOIN custom_profile_fields f ON f.id = v.field_id
     WHERE v.user_id = $1 ORDER BY f.sort_order, f.id`,
    [userId],
  );
  return rows;
}

export async function profileFieldsByIds(db: Db, ids: readonly number[]): Promise<CustomProfileFieldRow[]> {
  const { rows } = await db.query<CustomProfileFieldRow>('SELECT * FROM custom_profile_fields WHERE id = ANY ($1::integer[])', [ids]);
  return rows;
}

export async function setProfileValue(db: Db, userId: number, fieldId: number, value: string, renderedValue: string | null): Promise<void> {
  await db.query(
    `INSERT INTO custom_profile_values (user_id, field_id, value, rendered_value) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, field_id) DO UPDATE SET value = $3, rendered_value = $4`,
    [userId, fieldId, value, renderedValue],
  );
}

export async function removeProfileValue(db: Db, userId: number, fieldId: number): Promise<void> {
  await db.query('DELETE FROM custom_profile_values WHERE user_id = $1 AND field_id = $2', [userId, fieldId]);
}

/** What the own-user view reads beyond the caller's row, in one statement. */
export interface OwnUserExtras {
  /** Newest message the user has a copy of, or null before the first. */
  max_message_id: number | null;
  /** The custom profile values, in the fields' display order. */
  profile: ProfileValue[];
}

/**
 * The columns of OwnUserExtras for the user row `users` of the statement they
 * are added to. The profile values are kept on the user's row, as this reads
 * them, by triggers (migration 0006): aggregating them here was about half
 * of the authenticating statement's time on PostgreSQL.
 */
export const OWN_USER_EXTRAS_COLUMNS = `(SELECT max(message_id) FROM user_messages WHERE user_id = users.id) AS max_message_id,
  users.own_profile AS profile`;

export async function ownUserExtras(db: Db, userId: number): Promise<OwnUserExtras> {
  const { rows } = await db.query<OwnUserExtras>(`SELECT ${OWN_USER_EXTRAS_COLUMNS} FROM users WHERE id = $1`, [userId]);
  return rows[0] ?? { max_message_id: null, profile: [] };
}
