import type { Db } from './db.js';
import type { ReactionType, UserStatusRow } from './rows.js';

export async function getUserStatus(db: Db, userId: number): Promise<UserStatusRow | null> {
  const { rows } = await db.query<UserStatusRow>('SELECT * FROM user_status WHERE user_id = $1', [userId]);
  return rows[0] ?? null;
}

/** What a status update changes: absent fields keep their values. */
export interface StatusChange {
  statusText?: string;
  emoji?: { emoji_name: string; emoji_code: string; reaction_type: ReactionType };
}

/** Creates or updates the user's status with only the given fields. */
export async function updateUserStatus(db: Db, userId: number, change: StatusChange, at: number): Promise<void> {
  await db.query(
    `INSERT INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, updated_at)
     VALUES ($1, COALESCE($2, ''), COALESCE($3, ''), COALESCE($4, ''), COALESCE($5, 'unicode_emoji'), $6)
     ON CONFLICT (user_id) DO UPDATE SET
       status_text = COALESCE($2, user_status.status_text),
       emoji_name = COALESCE($3, user_status.emoji_name),
       emoji_code = COALESCE($4, user_status.emoji_code),
       reaction_type = COALESCE($5, user_status.reaction_type),
       updated_at = $6`,
    [userId, change.statusText ?? null, change.emoji?.emoji_name ?? null, change.emoji?.emoji_code ?? null, change.emoji?.reaction_type ?? null, at],
  );
}
