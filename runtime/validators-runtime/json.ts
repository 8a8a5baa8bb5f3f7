/**
 * JSON text to a value: tiny texts read by hand, texts a generated reader
 * takes read by it (`json-reader.ts`), anything else by JSON.parse.
 */
import { JSON_MISS, readWholeJson, type JsonReader } from './json-reader.js';

export const INVALID_JSON: unique symbol = Symbol('invalid JSON');

/**
 * JSON text to a value. Most JSON-encoded parameters are tiny (`5`, `null`,
 * `[2, 9]`, `"unlimited"`), and reading those by hand is several times
 * faster than calling JSON.parse; anything else, or anything unusual in
 * them (whitespace, escapes, leading zeros, long numbers), goes to JSON.parse.
 */
export function parseJson(text: string, reader?: JsonReader): unknown {
  const quick = parseTinyJson(text);
  if (quick !== NOT_TINY) return quick;
  if (reader !== undefined) {
    const value = readWholeJson(text, reader);
    if (value !== JSON_MISS) return value;
  }
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
}

const NOT_TINY: unique symbol = Symbol('not tiny JSON');

function parseTinyJson(text: string): unknown {
  const first = text.charCodeAt(0);
  if (first === 91 /* [ */) return parseIntegerList(text);
  if (first === 34 /* " */) return parsePlainString(text);
  if (first === 45 /* - */ || (first >= 48 && first <= 57)) {
    return integerEnd(text, 0) === text.length ? Number(text) : NOT_TINY;
  }
  if (text === 'null') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  return NOT_TINY;
}

/** End of a JSON integer of at most 15 digits (exact as a double) starting at `start`, or -1. */
function integerEnd(text: string, start: number): number {
  let i = text.charCodeAt(start) === 45 /* - */ ? start + 1 : start;
  const digitsStart = i;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  const digits = i - digitsStart;
  if (digits === 0 || digits > 15) return -1;
  if (digits > 1 && text.charCodeAt(digitsStart) === 48 /* leading 0 */) return -1;
  return i;
}

/** `[1,2,3]` or `[1, 2, 3]` (integers only). */
function parseIntegerList(text: string): unknown {
  let i = 1;
  const second = text.charCodeAt(i);
  if (second === 93 /* ] */) return i + 1 === text.length ? [] : NOT_TINY;
  // A list of anything else (`[{`, `["`) is not tiny: no list is made for it.
  if (second !== 45 /* - */ && !(second >= 48 && second <= 57)) return NOT_TINY;
  const list: number[] = [];
  for (;;) {
    const end = integerEnd(text, i);
    if (end < 0) return NOT_TINY;
    list.push(Number(text.slice(i, end)));
    const c = text.charCodeAt(end);
    if (c === 93 /* ] */) return end + 1 === text.length ? list : NOT_TINY;
    if (c !== 44 /* , */) return NOT_TINY;
    i = text.charCodeAt(end + 1) === 32 /* space */ ? end + 2 : end + 1;
  }
}

/** A string without escapes or control characters. */
function parsePlainString(text: string): unknown {
  const last = text.length - 1;
  if (last < 1 || text.charCodeAt(last) !== 34) return NOT_TINY;
  for (let i = 1; i < last; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 92 /* \ */ || c < 32) return NOT_TINY;
  }
  return text.slice(1, last);
}

/** Each text parsed as JSON (one JSON part per list element), or `INVALID_JSON` when one is not JSON. */
export function repeatedJson(texts: readonly string[]): unknown[] | typeof INVALID_JSON {
  const values: unknown[] = [];
  for (const text of texts) {
    const value = parseJson(text);
    if (value === INVALID_JSON) return INVALID_JSON;
    values.push(value);
  }
  return values;
}
