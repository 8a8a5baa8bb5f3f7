/**
 * Emoji identity checks shared by statuses and reactions. Three namespaces
 * (the seed's `reaction_type`): Unicode emoji from the `emoji-datasource`
 * package (names are its short names, codes its `unified` code points in
 * lower case, dash-separated; the form without variation selectors is
 * accepted too), the organization's custom emoji (code = its id) and the
 * built-in extra emoji (code = name).
 */
import { createRequire } from 'node:module';
import { ApiError } from '../errors.js';
import type { Db } from '../store/db.js';
import { activeCustomEmojiById, activeCustomEmojiByName } from '../store/emoji.js';
import type { ReactionType } from '../store/rows.js';

export interface Emoji {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
}

/** The extra built-in emoji: code and name are the same. */
export const EXTRA_EMOJI: ReadonlySet<string> = new Set(['zulip']);

interface UnicodeTables {
  codeByName: Map<string, string>;
  /** Any accepted code form to the canonical (unified) code. */
  canonicalCode: Map<string, string>;
}

interface DatasourceEntry {
  unified: string;
  non_qualified: string | null;
  short_names: string[];
}

let tables: UnicodeTables | undefined;

// About 1900 entries: read once, on first use, so starting the server stays fast.
function unicodeTables(): UnicodeTables {
  if (tables) return tables;
  const entries = createRequire(import.meta.url)('emoji-datasource/emoji.json') as DatasourceEntry[];
  const codeByName = new Map<string, string>();
  const canonicalCode = new Map<string, string>();
  for (const entry of entries) {
    const code = entry.unified.toLowerCase();
    canonicalCode.set(code, code);
    if (entry.non_qualified) canonicalCode.set(entry.non_qualified.toLowerCase(), code);
    for (const name of entry.short_names) codeByName.set(name, code);
  }
  tables = { codeByName, canonicalCode };
  return tables;
}

const fail = (msg: string): never => {
  throw new ApiError('BAD_REQUEST', msg);
};

/**
 * Checks that name, code and type name one emoji; with only a name, finds
 * it (custom emoji first, as their names shadow Unicode ones). Returns the
 * canonical form to store.
 */
export async function resolveEmoji(db: Db, name: string, code: string | undefined, type: ReactionType | undefined): Promise<Emoji> {
  if (code === undefined) return findByName(db, name, type);
  switch (type ?? 'unicode_emoji') {
    case 'realm_emoji': {
      const id = /^[1-9][0-9]{0,8}$/.test(code) ? Number(code) : null;
      const custom = id === null ? null : await activeCustomEmojiById(db, id);
      if (!custom) return fail('Invalid custom emoji');
      if (custom.name !== name) return fail('Invalid emoji name');
      return { emoji_name: name, emoji_code: String(custom.id), reaction_type: 'realm_emoji' };
    }
    case 'zulip_extra_emoji':
      if (!EXTRA_EMOJI.has(code)) return fail('Emoji does not exist');
      if (code !== name) return fail('Invalid emoji name');
      return { emoji_name: name, emoji_code: code, reaction_type: 'zulip_extra_emoji' };
    case 'unicode_emoji': {
      const { canonicalCode, codeByName } = unicodeTables();
      const canonical = canonicalCode.get(code.toLowerCase());
      if (!canonical) return fail('Emoji does not exist');
      if (codeByName.get(name) !== canonical) return fail('Invalid emoji name');
      return { emoji_name: name, emoji_code: canonical, reaction_type: 'unicode_emoji' };
    }
  }
}

async function findByName(db: Db, name: string, type: ReactionType | undefined): Promise<Emoji> {
  if (type === undefined || type === 'realm_emoji') {
    const custom = await activeCustomEmojiByName(db, name);
    if (custom) return { emoji_name: name, emoji_code: String(custom.id), reaction_type: 'realm_emoji' };
    if (type === 'realm_emoji') return fail('Invalid custom emoji');
  }
  if (type === undefined || type === 'unicode_emoji') {
    const code = unicodeTables().codeByName.get(name);
    if (code) return { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' };
  }
  if ((type === undefined || type === 'zulip_extra_emoji') && EXTRA_EMOJI.has(name)) {
    return { emoji_name: name, emoji_code: name, reaction_type: 'zulip_extra_emoji' };
  }
  return fail('Emoji does not exist');
}
