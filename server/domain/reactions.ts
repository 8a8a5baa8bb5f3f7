/**
 * Naming a reaction's emoji: a name, a code in the namespace of a reaction
 * type, or both, as clients send them when removing a reaction.
 */
import { createRequire } from 'node:module';
import { ApiError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { ReactionType } from '../store/rows.js';

interface DatasourceEmoji {
  unified: string;
  non_qualified: string | null;
  short_names: string[];
  skin_variations?: Record<string, { unified: string; non_qualified: string | null }>;
}

/** The one special built-in emoji. */
const EXTRA_EMOJI = ['zulip'];

let unicode: { byName: Map<string, string>; codes: Set<string> } | undefined;

/** Unicode emoji by name, and every valid code: lowercase hex codepoints, dash-separated, with and without FE0F. */
function unicodeEmoji(): NonNullable<typeof unicode> {
  if (unicode) return unicode;
  const data = createRequire(import.meta.url)('emoji-datasource/emoji.json') as DatasourceEmoji[];
  const byName = new Map<string, string>();
  const codes = new Set<string>();
  const addCode = (code: string | null) => {
    if (code === null) return;
    const lower = code.toLowerCase();
    codes.add(lower);
    codes.add(lower.replace(/-fe0f/g, ''));
  };
  for (const emoji of data) {
    const code = emoji.unified.toLowerCase();
    for (const name of emoji.short_names) byName.set(name, code);
    addCode(emoji.unified);
    addCode(emoji.non_qualified);
    for (const variation of Object.values(emoji.skin_variations ?? {})) {
      addCode(variation.unified);
      addCode(variation.non_qualified);
    }
  }
  return (unicode = { byName, codes });
}

async function customEmojiIdByName(db: Db, name: string): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM custom_emoji WHERE name = $1 AND NOT deactivated', [name]);
  return rows[0]?.id ?? null;
}

/** Custom emoji keep their id after deactivation, so reactions made with them stay addressable. */
async function customEmojiExists(db: Db, code: string): Promise<boolean> {
  if (!/^[0-9]{1,9}$/.test(code)) return false;
  const { rows } = await db.query('SELECT 1 FROM custom_emoji WHERE id = $1', [Number(code)]);
  return rows.length > 0;
}

async function isValidCode(db: Db, type: ReactionType, code: string): Promise<boolean> {
  switch (type) {
    case 'unicode_emoji':
      return unicodeEmoji().codes.has(code);
    case 'realm_emoji':
      return customEmojiExists(db, code);
    case 'zulip_extra_emoji':
      return EXTRA_EMOJI.includes(code);
  }
}

/** The type a name implies when none is given: a custom emoji's name first, then the extra emoji, else Unicode. */
async function inferredType(db: Db, name: string | undefined): Promise<ReactionType> {
  if (name === undefined) return 'unicode_emoji';
  if ((await customEmojiIdByName(db, name)) !== null) return 'realm_emoji';
  return EXTRA_EMOJI.includes(name) ? 'zulip_extra_emoji' : 'unicode_emoji';
}

async function codeForName(db: Db, type: ReactionType, name: string): Promise<string | null> {
  switch (type) {
    case 'unicode_emoji':
      return unicodeEmoji().byName.get(name) ?? null;
    case 'realm_emoji': {
      const id = await customEmojiIdByName(db, name);
      return id === null ? null : String(id);
    }
    case 'zulip_extra_emoji':
      return EXTRA_EMOJI.includes(name) ? name : null;
  }
}

export interface EmojiRequest {
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: ReactionType;
}

/** The (type, code) pair a request names; the code wins over the name when both are given. */
export async function resolveEmoji(db: Db, request: EmojiRequest): Promise<{ type: ReactionType; code: string }> {
  const { emoji_name: name, emoji_code: code } = request;
  if (name === undefined && code === undefined) {
    throw new ApiError('BAD_REQUEST', 'At least one of emoji_name and emoji_code is required');
  }
  const type = request.reaction_type ?? (await inferredType(db, name));
  if (code !== undefined) {
    if (!(await isValidCode(db, type, code))) throw new ApiError('BAD_REQUEST', 'Invalid emoji code');
    return { type, code };
  }
  const found = await codeForName(db, type, name!);
  if (found === null) throw new ApiError('BAD_REQUEST', `Emoji '${name}' does not exist`);
  return { type, code: found };
}

/** Removes the user's reaction; false when there was none. */
export async function deleteReaction(db: Db, messageId: number, userId: number, emoji: { type: ReactionType; code: string }): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM reactions WHERE message_id = $1 AND user_id = $2 AND reaction_type = $3 AND emoji_code = $4',
    [messageId, userId, emoji.type, emoji.code],
  );
  return rowCount > 0;
}
