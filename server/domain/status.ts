/** Own status updates: only what the client passed changes. */
import { ApiError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { ReactionType } from '../store/rows.js';
import type { StatusChange } from '../store/status.js';
import { resolveEmoji } from './emoji.js';

export interface StatusRequest {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: ReactionType;
  away?: boolean;
}

const NO_EMOJI = { emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' } as const;

/** The stored change a request asks for; an empty emoji name clears the emoji. */
export async function statusChange(db: Db, request: StatusRequest): Promise<StatusChange> {
  const { status_text, emoji_name, emoji_code, reaction_type, away } = request;
  if ([status_text, emoji_name, emoji_code, reaction_type, away].every((value) => value === undefined)) {
    throw new ApiError('BAD_REQUEST', 'Client did not pass any new values');
  }
  if (emoji_name === undefined && (emoji_code !== undefined || reaction_type !== undefined)) {
    throw new ApiError('BAD_REQUEST', 'emoji_name is required when emoji_code or reaction_type is given');
  }
  const change: StatusChange = {};
  if (status_text !== undefined) change.statusText = status_text.trim();
  if (emoji_name !== undefined) {
    change.emoji = emoji_name === '' ? NO_EMOJI : await resolveEmoji(db, emoji_name, emoji_code, reaction_type);
  }
  return change;
}
