/**
 * Custom profile field values: checking a new value against its field's
 * type, and the API form of stored values. Only long text supports markdown,
 * so only it carries a rendered value. Length limits (the seed gives none):
 * 50 code points for one-line texts, 500 for long text.
 */
import { ApiError } from '../errors.js';
import type { Db } from '../store/db.js';
import { profileFieldsByIds, type ProfileValue } from '../store/profile.js';
import { listLinkifiers } from '../store/realm.js';
import type { CustomProfileFieldRow } from '../store/rows.js';
import { getUsersByIds } from '../store/users.js';
import { isDbId } from './ids.js';
import { renderMarkdown } from './markdown.js';

export const SHORT_TEXT_LIMIT = 50;
export const LONG_TEXT_LIMIT = 500;

export type ProfileInput = string | null | number[];

/** One field's new stored value; null removes it. */
export interface ProfileWrite {
  fieldId: number;
  value: string | null;
  renderedValue: string | null;
}

const bad = (msg: string): never => {
  throw new ApiError('BAD_REQUEST', msg);
};

/** Checks every requested value (all or nothing) and returns what to store. */
export async function profileWrites(db: Db, updates: readonly { id: number; value: ProfileInput }[]): Promise<ProfileWrite[]> {
  const ids = updates.map((update) => update.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) bad(`Custom profile field ${duplicate} is given twice`);
  const fields = new Map((await profileFieldsByIds(db, ids.filter(isDbId))).map((field) => [field.id, field]));
  const writes: ProfileWrite[] = [];
  for (const { id, value } of updates) {
    const field = fields.get(id) ?? bad(`Invalid custom profile field ID ${id}`);
    writes.push(await fieldWrite(db, field, value));
  }
  return writes;
}

async function fieldWrite(db: Db, field: CustomProfileFieldRow, value: ProfileInput): Promise<ProfileWrite> {
  const removal = { fieldId: field.id, value: null, renderedValue: null };
  if (value === null) return removal;
  if (field.field_type === 'users') {
    if (!Array.isArray(value)) return bad(`${field.name} needs a list of user IDs`);
    if (value.length === 0) return removal;
    return { fieldId: field.id, value: JSON.stringify(await checkUserIds(db, field, value)), renderedValue: null };
  }
  if (Array.isArray(value)) return bad(`${field.name} needs a text value, not a list`);
  // An empty text removes the value, as null does.
  const text = value.trim();
  if (text === '') return removal;
  return { fieldId: field.id, value: checkText(field, text), renderedValue: field.field_type === 'long_text' ? await render(db, text) : null };
}

function checkText(field: CustomProfileFieldRow, text: string): string {
  switch (field.field_type) {
    case 'long_text':
      if ([...text].length > LONG_TEXT_LIMIT) bad(`${field.name} is too long (limit ${LONG_TEXT_LIMIT} characters)`);
      return text;
    case 'url':
      if (!isWebUrl(text)) bad(`${field.name} must be a URL`);
      return text;
    case 'date':
      if (!isCalendarDate(text)) bad(`${field.name} must be a date as YYYY-MM-DD`);
      return text;
    case 'choice':
      if (!Object.hasOwn(field.field_data, text)) bad(`${field.name} has no choice ${JSON.stringify(text)}`);
      return text;
    default:
      if (/[\r\n]/.test(text)) bad(`${field.name} must be one line`);
      if ([...text].length > SHORT_TEXT_LIMIT) bad(`${field.name} is too long (limit ${SHORT_TEXT_LIMIT} characters)`);
      return text;
  }
}

async function checkUserIds(db: Db, field: CustomProfileFieldRow, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = new Set((await getUsersByIds(db, unique.filter(isDbId))).filter((user) => user.is_active).map((user) => user.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) bad(`${field.name}: invalid user ID ${missing}`);
  return unique;
}

function isWebUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

async function render(db: Db, text: string): Promise<string> {
  return renderMarkdown(text, { linkifiers: await listLinkifiers(db) });
}

/** profile_data of the own-user response: by field id, rendered_value only for markdown fields. */
export async function profileData(db: Db, values: readonly ProfileValue[]): Promise<Record<string, { value: string; rendered_value?: string }>> {
  const data: Record<string, { value: string; rendered_value?: string }> = {};
  for (const entry of values) {
    data[String(entry.field_id)] =
      entry.field_type === 'long_text'
        ? { value: entry.value, rendered_value: entry.rendered_value ?? (await render(db, entry.value)) }
        : { value: entry.value };
  }
  return data;
}
