import type { Db } from './db.js';
import type { CustomEmojiRow } from './rows.js';

/** The organization's custom emoji with this id, unless deactivated. */
export async function activeCustomEmojiById(db: Db, id: number): Promise<CustomEmojiRow | null> {
  const { rows } = await db.query<CustomEmojiRow>('SELECT * FROM custom_emoji WHERE id = $1 AND NOT deactivated', [id]);
  return rows[0] ?? null;
}

export async function activeCustomEmojiByName(db: Db, name: string): Promise<CustomEmojiRow | null> {
  const { rows } = await db.query<CustomEmojiRow>('SELECT * FROM custom_emoji WHERE name = $1 AND NOT deactivated', [name]);
  return rows[0] ?? null;
}
