import { SharedCache } from './cache.js';
import type { Db } from './db.js';
import type { CustomEmojiRow } from './rows.js';

// On the app's own handle, once authentication has read the cache version, both are answered from the cached set.

/** The organization's custom emoji with this id, unless deactivated. */
export async function activeCustomEmojiById(db: Db, id: number): Promise<CustomEmojiRow | null> {
  const cached = SharedCache.of(db)?.customEmoji(db);
  if (cached) return (await cached).byId.get(id) ?? null;
  const { rows } = await db.query<CustomEmojiRow>('SELECT * FROM custom_emoji WHERE id = $1 AND NOT deactivated', [id]);
  return rows[0] ?? null;
}

export async function activeCustomEmojiByName(db: Db, name: string): Promise<CustomEmojiRow | null> {
  const cached = SharedCache.of(db)?.customEmoji(db);
  if (cached) return (await cached).byName.get(name) ?? null;
  const { rows } = await db.query<CustomEmojiRow>('SELECT * FROM custom_emoji WHERE name = $1 AND NOT deactivated', [name]);
  return rows[0] ?? null;
}
