/*
 * Readers of JSON text shaped by a schema. The generator writes one per
 * JSON-encoded parameter whose schema has objects with listed properties:
 * it reads those properties' keys by comparing characters and stores them
 * under constant names, where JSON.parse (and a general reader) must look
 * every key up as a new string. A reader is only a faster parser: it
 * returns exactly what JSON.parse would, or JSON_MISS for anything it
 * leaves to JSON.parse (escapes, `__proto__` keys, anything invalid), and
 * the parameter's checks then run on the value as before.
 *
 * One module on purpose: the cursor steps (`jsonOpen`, `jsonNext`,
 * `skipJsonSpace`, `jsonStringEnd`) are the hot path of every reader and of
 * `readJsonValue`, kept small so V8 inlines them into their callers
 * (decision 0035); they and the general reader stay beside one another.
 */

/** Where a reader is in the text `s`; `k` and `n`: where the last key not listed starts, and its length. One per text read. */
export class JsonCursor {
  readonly s: string;
  at = 0;
  k = 0;
  n = 0;
  constructor(text: string) {
    this.s = text;
  }
}

export type JsonReader = (c: JsonCursor) => unknown;

/** What a reader returns for text it leaves to JSON.parse. */
export const JSON_MISS: unique symbol = Symbol('left to JSON.parse');

/** A whole text read by `reader`: its value, or JSON_MISS when the reader left it or stopped before the end. */
export function readWholeJson(text: string, reader: JsonReader): unknown {
  const cursor = new JsonCursor(text);
  try {
    const value = reader(cursor);
    const end = cursor.at;
    return value === JSON_MISS || end === text.length || skipJsonSpace(text, end) === text.length ? value : JSON_MISS;
  } catch {
    // Nesting deeper than the stack: JSON.parse decides.
    return JSON_MISS;
  }
}

/** The first index at or after `at` that is not JSON whitespace. */
function skipJsonSpace(s: string, at: number): number {
  // Bounded: a read past the end deoptimises the function (V8 compiles `charCodeAt` for reads inside the string).
  while (at < s.length) {
    const c = s.charCodeAt(at);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
    at++;
  }
  return at;
}

/** Whether `c` is JSON whitespace (the readers test the next character before calling `skipJsonSpace`). */
function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** The index of the quote closing a string whose text starts at `start`, or -1 (escapes and control characters are left to JSON.parse). */
function jsonStringEnd(s: string, start: number): number {
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34 /* " */) return i;
    if (c === 92 /* \ */ || c < 32) return -1;
  }
  return -1;
}

/** The character code of the value at the cursor, past whitespace. */
export function jsonKind(c: JsonCursor): number {
  c.at = skipJsonSpace(c.s, c.at);
  return c.s.charCodeAt(c.at);
}

/**
 * Opens the container `open` (`{` or `[`, closed by `close`) at the cursor:
 * 1 past it and the whitespace after it, 0 past the whole of an empty one,
 * -1 (nothing read) when the value there is something else.
 */
export function jsonOpen(c: JsonCursor, open: number, close: number): number {
  // The common case (`{"`, `[1`) in a function small enough for V8 to inline into the readers.
  const s = c.s;
  const at = c.at;
  if (s.charCodeAt(at) === open) {
    const next = s.charCodeAt(at + 1);
    if (next !== close && !isJsonSpace(next)) {
      c.at = at + 1;
      return 1;
    }
  }
  return jsonOpenSpaced(c, open, close);
}

/** `jsonOpen` where whitespace comes before or after the opening character, or the container is empty. */
function jsonOpenSpaced(c: JsonCursor, open: number, close: number): number {
  const s = c.s;
  let at = c.at;
  if (s.charCodeAt(at) !== open) {
    at = skipJsonSpace(s, at);
    if (s.charCodeAt(at) !== open) return -1;
  }
  at++;
  if (isJsonSpace(s.charCodeAt(at))) at = skipJsonSpace(s, at);
  if (s.charCodeAt(at) === close) {
    c.at = at + 1;
    return 0;
  }
  c.at = at;
  return 1;
}

/** After a member or element: 1 past a comma (and whitespace), 0 past `close`, -1 for anything else. */
export function jsonNext(c: JsonCursor, close: number): number {
  const s = c.s;
  let at = c.at;
  let ch = s.charCodeAt(at);
  if (ch === 32 || ch === 10 || ch === 13 || ch === 9) {
    at = skipJsonSpace(s, at);
    ch = s.charCodeAt(at);
  }
  if (ch === 44 /* , */) {
    at++;
    ch = s.charCodeAt(at);
    c.at = ch === 32 || ch === 10 || ch === 13 || ch === 9 ? skipJsonSpace(s, at) : at;
    return 1;
  }
  if (ch === close) {
    c.at = at + 1;
    return 0;
  }
  return -1;
}

/**
 * A member's key and its colon: the key's index in `names`, -1 for a key
 * not among them (its text at `c.k`, `c.n` long, for `jsonMember`), or -2
 * to leave the text to JSON.parse.
 */
export function jsonField(c: JsonCursor, names: readonly string[]): number {
  const s = c.s;
  const start = c.at + 1;
  if (s.charCodeAt(c.at) !== 34 /* " */) return -2;
  // A listed name is compared where the text stands (names need no escapes), without finding the key's end first.
  const first = s.charCodeAt(start);
  let found = -1;
  let end = -1;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const length = name.length;
    if (name.charCodeAt(0) !== first || s.charCodeAt(start + length) !== 34) continue;
    let j = 1;
    while (j < length && s.charCodeAt(start + j) === name.charCodeAt(j)) j++;
    if (j === length) {
      found = i;
      end = start + length;
      break;
    }
  }
  if (found < 0) {
    end = jsonStringEnd(s, start);
    if (end < 0) return -2;
    c.k = start;
    c.n = end - start;
  }
  let at = end + 1;
  if (s.charCodeAt(at) !== 58 /* : */) {
    at = skipJsonSpace(s, at);
    if (s.charCodeAt(at) !== 58) return -2;
  }
  at++;
  const ch = s.charCodeAt(at);
  c.at = ch === 32 || ch === 10 || ch === 13 || ch === 9 ? skipJsonSpace(s, at) : at;
  return found;
}

/** The member whose key `jsonField` did not list, stored as JSON.parse stores it; false to leave the text to JSON.parse. */
export function jsonMember(c: JsonCursor, o: Record<string, unknown>): boolean {
  const key = c.s.slice(c.k, c.k + c.n);
  if (key === '__proto__') return false;
  const value = readJsonValue(c);
  if (value === JSON_MISS) return false;
  o[key] = value;
  return true;
}

/** A string at the cursor, or whatever other value is there. */
export function readJsonString(c: JsonCursor): unknown {
  const s = c.s;
  const at = c.at;
  if (s.charCodeAt(at) !== 34 /* " */) return readJsonValue(c);
  const end = jsonStringEnd(s, at + 1);
  if (end < 0) return JSON_MISS;
  c.at = end + 1;
  return s.slice(at + 1, end);
}

const NO_NAMES: readonly string[] = [];

/** An integer at the cursor (at most 15 digits, so exact), or whatever other value is there. */
export function readJsonInteger(c: JsonCursor): unknown {
  const s = c.s;
  let i = c.at;
  let ch = s.charCodeAt(i);
  if (ch < 49 || ch > 57) return readJsonValue(c);
  let n = 0;
  do {
    n = n * 10 + (ch - 48);
    ch = s.charCodeAt(++i);
  } while (ch >= 48 && ch <= 57);
  if (ch === 46 || ch === 101 || ch === 69 || i - c.at > 15) return readJsonValue(c);
  c.at = i;
  return n;
}

/**
 * A list of integers at the cursor, written without whitespace or signs
 * (`[5,9]`, as clients write ID lists), or whatever other value is there:
 * anything else in it (`-1`, `0`, `1.5`, a space) reads again from the
 * start with the general reader.
 */
export function readJsonIntegers(c: JsonCursor): unknown {
  const s = c.s;
  let i = c.at;
  if (s.charCodeAt(i) !== 91 /* [ */) return readJsonValue(c);
  // From here on, anything else reads the list again from its `[` with the general list reader.
  const list: number[] = [];
  let ch = s.charCodeAt(++i);
  if (ch === 93 /* ] */) {
    c.at = i + 1;
    return list;
  }
  for (;;) {
    if (ch < 49 || ch > 57) return readJsonList(c);
    const first = i;
    let n = 0;
    do {
      n = n * 10 + (ch - 48);
      ch = s.charCodeAt(++i);
    } while (ch >= 48 && ch <= 57);
    if (i - first > 15) return readJsonList(c);
    list.push(n);
    if (ch === 44 /* , */) {
      ch = s.charCodeAt(++i);
    } else if (ch === 93 /* ] */) {
      c.at = i + 1;
      return list;
    } else {
      return readJsonList(c);
    }
  }
}

/** Any JSON value at the cursor, past whitespace; the general reader every shaped reader falls back on. */
export function readJsonValue(c: JsonCursor): unknown {
  const s = c.s;
  let at = c.at;
  let ch = s.charCodeAt(at);
  if (isJsonSpace(ch)) {
    at = skipJsonSpace(s, at);
    ch = s.charCodeAt(at);
  }
  c.at = at;
  switch (ch) {
    case 34 /* " */: {
      const end = jsonStringEnd(s, at + 1);
      if (end < 0) return JSON_MISS;
      c.at = end + 1;
      return s.slice(at + 1, end);
    }
    case 123 /* { */: {
      const o: Record<string, unknown> = {};
      if (jsonOpen(c, 123, 125) === 0) return o;
      for (;;) {
        if (jsonField(c, NO_NAMES) !== -1 || !jsonMember(c, o)) return JSON_MISS;
        const next = jsonNext(c, 125);
        if (next === 0) return o;
        if (next < 0) return JSON_MISS;
      }
    }
    case 91 /* [ */:
      // Lists of IDs are the commonest lists in these texts; any other goes on to `readJsonList`.
      return readJsonIntegers(c);
    // Literals compared character by character: `startsWith` is a call V8 does not inline, several times slower here.
    case 116 /* t */:
      if (s.charCodeAt(at + 1) === 114 && s.charCodeAt(at + 2) === 117 && s.charCodeAt(at + 3) === 101) {
        c.at = at + 4;
        return true;
      }
      return JSON_MISS;
    case 102 /* f */:
      if (s.charCodeAt(at + 1) === 97 && s.charCodeAt(at + 2) === 108 && s.charCodeAt(at + 3) === 115 && s.charCodeAt(at + 4) === 101) {
        c.at = at + 5;
        return false;
      }
      return JSON_MISS;
    case 110 /* n */:
      if (s.charCodeAt(at + 1) === 117 && s.charCodeAt(at + 2) === 108 && s.charCodeAt(at + 3) === 108) {
        c.at = at + 4;
        return null;
      }
      return JSON_MISS;
    default:
      return readJsonNumber(c, s, at);
  }
}

/** A list at the cursor (on its `[`), each element by the general reader. */
function readJsonList(c: JsonCursor): unknown {
  const list: unknown[] = [];
  if (jsonOpen(c, 91, 93) === 0) return list;
  for (;;) {
    const value = readJsonValue(c);
    if (value === JSON_MISS) return value;
    list.push(value);
    const next = jsonNext(c, 93);
    if (next === 0) return list;
    if (next < 0) return JSON_MISS;
  }
}

/** A number by JSON's grammar (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`), short integers summed by hand. */
function readJsonNumber(c: JsonCursor, s: string, start: number): unknown {
  let i = start;
  let ch = s.charCodeAt(i);
  const negative = ch === 45; /* - */
  if (negative) ch = s.charCodeAt(++i);
  if (ch === 48 /* 0 */) {
    ch = s.charCodeAt(++i);
  } else if (ch >= 49 && ch <= 57) {
    const first = i;
    let n = 0;
    do {
      n = n * 10 + (ch - 48);
      ch = s.charCodeAt(++i);
    } while (ch >= 48 && ch <= 57);
    if (ch !== 46 && ch !== 101 && ch !== 69 && i - first <= 15) {
      c.at = i;
      return negative ? -n : n;
    }
  } else {
    return JSON_MISS;
  }
  if (ch === 46 /* . */) {
    ch = s.charCodeAt(++i);
    if (!(ch >= 48 && ch <= 57)) return JSON_MISS;
    do ch = s.charCodeAt(++i);
    while (ch >= 48 && ch <= 57);
  }
  if (ch === 101 || ch === 69 /* e E */) {
    ch = s.charCodeAt(++i);
    if (ch === 43 || ch === 45) ch = s.charCodeAt(++i);
    if (!(ch >= 48 && ch <= 57)) return JSON_MISS;
    do ch = s.charCodeAt(++i);
    while (ch >= 48 && ch <= 57);
  }
  c.at = i;
  return Number(s.slice(start, i));
}
