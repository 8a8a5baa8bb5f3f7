import type { Db } from './db.js';

/** The recipient row of a channel, created with the channel. */
export async function channelRecipientId(db: Db, channelId: number): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM recipients WHERE channel_id = $1', [channelId]);
  return rows[0]?.id ?? null;
}

/**
 * The recipient of a direct conversation among these users (the sender
 * included), found or created. One row per distinct set of participants.
 */
export async function directRecipientId(tx: Db, userIds: readonly number[]): Promise<number> {
  const members = [...new Set(userIds)].sort((a, b) => a - b);
  if (members.length === 0) throw new Error('a direct message needs at least one participant');
  const memberKey = members.join(',');
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO recipients (type, member_key) VALUES ('private', $1) ON CONFLICT (member_key) DO NOTHING RETURNING id`,
    [memberKey],
  );
  if (inserted.rows[0]) {
    await tx.query('INSERT INTO recipient_members (recipient_id, user_id) SELECT $1, unnest($2::integer[])', [
      inserted.rows[0].id,
      members,
    ]);
    return inserted.rows[0].id;
  }
  const { rows } = await tx.query<{ id: number }>('SELECT id FROM recipients WHERE member_key = $1', [memberKey]);
  return rows[0]!.id;
}

/** Participants of a direct conversation, ascending. */
export async function recipientMemberIds(db: Db, recipientId: number): Promise<number[]> {
  const { rows } = await db.query<{ user_id: number }>(
    'SELECT user_id FROM recipient_members WHERE recipient_id = $1 ORDER BY user_id',
    [recipientId],
  );
  return rows.map((row) => row.user_id);
}
