/**
 * Shapes and helpers shared by the generated request decoders and response
 * validators in `validators.ts`. No dependencies: it runs wherever the
 * generated client or server runs.
 */

export interface RawRequest {
  path: Record<string, string>;
  /** A field sent more than once arrives as an array. */
  query: Record<string, string | string[]>;
  /** Form or multipart text fields. */
  body: Record<string, string | string[]>;
  /** Request headers by lower-case name, as Node gives them (`IncomingMessage.headers`). */
  headers?: Record<string, string | string[] | undefined>;
  /** Cookies of the `Cookie` header by name, values percent-decoded; a cookie sent more than once arrives as an array. */
  cookies?: Record<string, string | string[]>;
  files?: { field: string; filename: string; contentType: string; data: Uint8Array }[];
  /** A whole request body (`RequestBodyModel.mode` `whole`): the parsed JSON value, the text of a text body, or the bytes of any other. */
  content?: { mediaType: string; value: unknown };
}

export interface DecodeError {
  code: 'BAD_REQUEST';
  msg: string;
  parameter: string;
  rule: string;
}

export type Decoded<P> = { ok: true; value: P; unsupported: string[] } | { ok: false; error: DecodeError };

export interface Issue {
  /** JSON path of the offending value, e.g. `$.message.reactions[0].user_id`. */
  path: string;
  message: string;
}

export interface ValidateOptions {
  /** Also report properties the schema does not list. */
  strict?: boolean;
  /** Report every issue instead of stopping at the first. */
  allErrors?: boolean;
}

/** An issue as the checks record it: path relative to the checked value, and the rule that failed. */
export interface Failure {
  path: string;
  message: string;
  rule: string;
}

/** Checks `v`, pushing failures to `out`; returns early after the first unless `all`. */
export type CheckFunction = (v: unknown, out: Failure[], all: boolean, strict: boolean) => void;

export interface DecodedFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

/** Length in Unicode code points, as JSON Schema counts it (a surrogate pair is one). */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** The JSON-path segment of an object key: `.name` or `["odd name"]`. */
export function keySegment(key: string): string {
  // A character loop rather than a regular expression: this runs on every failed key, including union trials.
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
    if (!letter && (i === 0 || c < 48 || c > 57)) return '[' + JSON.stringify(key) + ']';
  }
  return key.length === 0 ? '[""]' : '.' + key;
}

/**
 * Records a failure. Check functions call this rather than building the
 * record inline: it runs only once a value has failed its predicate, and one
 * call per failure site keeps each check function (and the chunk a bundler
 * splits off per operation) about a third smaller.
 */
export function pushFailure(out: Failure[], path: string, message: string, rule: string): void {
  out.push({ path, message, rule });
}

/** Records a missing required property: a common failure site, so its message and rule are not repeated at each. */
export function pushMissing(out: Failure[], path: string): void {
  out.push({ path, message: 'is required', rule: 'required' });
}

/** Records a value of the wrong type (`noun` as in "must be a string"): the commonest failure site. */
export function pushWrongType(out: Failure[], path: string, noun: string): void {
  out.push({ path, message: 'must be ' + noun, rule: 'type' });
}

/**
 * Records each own key of `record` that `known` does not list, as strict
 * mode's unknown properties, in key order; true when the check must stop
 * (a failure and not `all`). The check functions' form of the key loop their
 * predicates run inline.
 */
export function pushUnknownKeys(out: Failure[], prefix: string, record: Record<string, unknown>, known: ReadonlySet<string> | readonly string[], all: boolean): boolean {
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (isArray(known) ? known.includes(key) : known.has(key)) continue;
    out.push({ path: prefix + keySegment(key), message: 'is not a known property', rule: 'strict' });
    if (!all) return true;
  }
  return false;
}

/** `Array.isArray` narrowing a readonly array too. */
function isArray<T>(value: ReadonlySet<T> | readonly T[]): value is readonly T[] {
  return Array.isArray(value);
}

/** Makes the failures a nested check recorded (from index `from`) relative to the caller's value. */
export function prefixFailures(out: Failure[], from: number, prefix: string): void {
  for (let i = from; i < out.length; i++) {
    const failure = out[i]!;
    failure.path = prefix + failure.path;
  }
}

/** Runs a check function on a whole body and reports issues with `$`-rooted paths. */
export function validateWith(check: CheckFunction, body: unknown, options: ValidateOptions | undefined): Issue[] {
  const out: Failure[] = [];
  check(body, out, options?.allErrors === true, options?.strict === true);
  return out.length === 0 ? [] : out.map((failure) => ({ path: '$' + failure.path, message: failure.message }));
}

/**
 * Standard Schema v1 (standardschema.dev, the `@standard-schema/spec`
 * interface), declared here so that the generated module has no dependency:
 * libraries that accept any Standard Schema (form and router libraries,
 * tRPC) take the generated `<Name>Schema` objects as they are.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1Props<Input, Output>;
}

export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
}

export type StandardSchemaV1Result<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaV1Issue[] };

export interface StandardSchemaV1Issue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The vendor named by every generated Standard Schema. */
export const STANDARD_VENDOR = 'teamchat';

/** The keys of a failure path as the checks write it (`.a[0]["b c"]` -> `a`, `0`, `b c`). */
export function pathKeys(path: string): PropertyKey[] {
  const keys: PropertyKey[] = [];
  let i = 0;
  while (i < path.length) {
    if (path.charCodeAt(i) === 46) {
      // `.name`: up to the next `.` or `[`.
      let end = i + 1;
      while (end < path.length && path.charCodeAt(end) !== 46 && path.charCodeAt(end) !== 91) end++;
      keys.push(path.slice(i + 1, end));
      i = end;
    } else if (path.charCodeAt(i + 1) === 34) {
      // `["text"]`: a JSON string, then `]`.
      let end = i + 2;
      while (end < path.length && path.charCodeAt(end) !== 34) end += path.charCodeAt(end) === 92 ? 2 : 1;
      keys.push(JSON.parse(path.slice(i + 1, end + 1)) as string);
      i = end + 2;
    } else {
      // `[index]`.
      const end = path.indexOf(']', i);
      keys.push(Number(path.slice(i + 1, end)));
      i = end + 1;
    }
  }
  return keys;
}

/**
 * A check function and its predicate as a Standard Schema: a valid value is
 * returned as it is, an invalid one gives every failure with its path.
 */
export function checkSchema<T>(check: CheckFunction, test: (v: unknown, strict: boolean) => boolean): StandardSchemaV1<T> {
  return {
    '~standard': {
      version: 1,
      vendor: STANDARD_VENDOR,
      validate(value: unknown): StandardSchemaV1Result<T> {
        if (test(value, false)) return { value: value as T };
        const out: Failure[] = [];
        check(value, out, true, false);
        return { issues: out.map((failure) => ({ message: failure.message, path: pathKeys(failure.path) })) };
      },
    },
  };
}

/** A request decoder as a Standard Schema: the raw request in, its typed parameters out, or the first bad parameter's error. */
export function decoderSchema<P>(decode: (raw: RawRequest) => Decoded<P>): StandardSchemaV1<RawRequest, P> {
  return {
    '~standard': {
      version: 1,
      vendor: STANDARD_VENDOR,
      validate(value: unknown): StandardSchemaV1Result<P> {
        if (typeof value !== 'object' || value === null) return { issues: [{ message: 'must be a request: { path, query, body }' }] };
        const decoded = decode(value as RawRequest);
        return decoded.ok ? { value: decoded.value } : { issues: [{ message: decoded.error.msg, path: [decoded.error.parameter] }] };
      },
    },
  };
}

/** A field of a request part, ignoring what every object inherits (`constructor`, `toString`, ...). */
export function ownField<T>(source: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(source, name) ? source[name] : undefined;
}

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

/*
 * Readers of JSON text shaped by a schema. The generator writes one per
 * JSON-encoded parameter whose schema has objects with listed properties:
 * it reads those properties' keys by comparing characters and stores them
 * under constant names, where JSON.parse (and a general reader) must look
 * every key up as a new string. A reader is only a faster parser: it
 * returns exactly what JSON.parse would, or JSON_MISS for anything it
 * leaves to JSON.parse (escapes, `__proto__` keys, anything invalid), and
 * the parameter's checks then run on the value as before.
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

function readWholeJson(text: string, reader: JsonReader): unknown {
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

const NUMBER_TEXT = /^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** Decimal integer text to a number, or the message saying why it is not one. */
export function parseInteger(text: string): number | string {
  // A character loop: measurably faster than a regular expression on short IDs.
  const start = text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (text.length === start) return 'must be an integer';
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return 'must be an integer';
  }
  const value = Number(text);
  return Number.isSafeInteger(value)
    ? value
    : `must be an integer between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;
}

/** Decimal number text to a number, or the message saying why it is not one. */
export function parseNumber(text: string): number | string {
  if (!NUMBER_TEXT.test(text)) return 'must be a number';
  const value = Number(text);
  return Number.isFinite(value) ? value : 'must be a finite number';
}

/**
 * The elements of a list sent as a repeated field. Each is decoded as its
 * element type would be on its own; what does not decode stays text, so the
 * list's checks name the element.
 */
export function repeatedElements(texts: string[], kind: 'string' | 'integer' | 'number' | 'boolean' | 'json'): unknown[] {
  return texts.map((text) => {
    switch (kind) {
      case 'string':
        return text;
      case 'integer':
      case 'number': {
        const value = kind === 'integer' ? parseInteger(text) : parseNumber(text);
        return typeof value === 'number' ? value : text;
      }
      case 'boolean':
        return text === 'true' ? true : text === 'false' ? false : text;
      case 'json': {
        const value = parseJson(text);
        return value === INVALID_JSON ? text : value;
      }
    }
  });
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

/** The one file sent in field `name`, or how many there were when not exactly one. */
export function singleFile(raw: RawRequest, name: string): DecodedFile | number {
  let found: DecodedFile | undefined;
  let count = 0;
  for (const file of raw.files ?? []) {
    if (file.field !== name) continue;
    count++;
    found = { filename: file.filename, contentType: file.contentType, data: file.data };
  }
  return count === 1 ? found! : count;
}

/**
 * Names in the body, query string or files that the operation does not take,
 * sorted and deduplicated. `deep` lists the names of `deepObject` parameters,
 * whose fields arrive as `name[key]`.
 */
export function unsupportedParameters(raw: RawRequest, known: ReadonlySet<string>, deep?: readonly string[]): string[] {
  let found: string[] | undefined;
  for (const name in raw.body) if (!known.has(name) && !isDeepField(name, deep)) (found ??= []).push(name);
  for (const name in raw.query) if (!known.has(name) && !isDeepField(name, deep)) (found ??= []).push(name);
  const files = raw.files;
  if (files !== undefined) for (let i = 0; i < files.length; i++) if (!known.has(files[i]!.field)) (found ??= []).push(files[i]!.field);
  if (found === undefined) return [];
  return [...new Set(found)].sort();
}

/**
 * `unsupportedParameters` for a decoder that counted the form and query
 * fields it read (`given`, each a parameter's own field). A request with no
 * more fields than those, and no file but of a known field, has none the
 * operation does not take: counting the fields costs less than looking each
 * name up in `known`, a hash of every name on every request.
 */
export function unsupportedFields(raw: RawRequest, known: ReadonlySet<string>, given: number): string[] {
  let fields = 0;
  for (const _ in raw.body) fields++;
  for (const _ in raw.query) fields++;
  const files = raw.files;
  if (fields === given && (files === undefined || files.length === 0)) return [];
  return unsupportedParameters(raw, known);
}

function isDeepField(name: string, deep: readonly string[] | undefined): boolean {
  if (deep === undefined) return false;
  for (const prefix of deep) if (name.startsWith(prefix + '[') && name.endsWith(']')) return true;
  return false;
}

/*
 * Plain parameters with a style (OpenAPI "Style Values"). Values arrive as
 * text already percent-decoded; these helpers split that text the way the
 * style wrote it, and turn each piece into the scalar its schema allows.
 */

/** Scalar kinds a plain value may decode to, as bits: what its schema (or union of schemas) accepts. */
export const SCALAR_BOOLEAN = 1;
export const SCALAR_INTEGER = 2;
export const SCALAR_NUMBER = 4;
export const SCALAR_NULL = 8;
export const SCALAR_STRING = 16;

/**
 * Text to the first scalar of the allowed kinds it reads as: `true`/`false`,
 * then an integer, then a number, then `null` (from empty text or `null`, when
 * no string is allowed); otherwise the text itself, which the schema's checks
 * then accept as a string or reject.
 */
export function parseScalar(text: string, kinds: number): unknown {
  if ((kinds & SCALAR_BOOLEAN) !== 0) {
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  if ((kinds & SCALAR_INTEGER) !== 0) {
    const value = parseInteger(text);
    if (typeof value === 'number') return value;
  }
  if ((kinds & SCALAR_NUMBER) !== 0) {
    const value = parseNumber(text);
    if (typeof value === 'number') return value;
  }
  if ((kinds & SCALAR_NULL) !== 0 && (kinds & SCALAR_STRING) === 0 && (text === '' || text === 'null')) return null;
  return text;
}

/** Each text of a list as `parseScalar` reads it. */
export function scalarList(texts: readonly string[], kinds: number): unknown[] {
  const list = new Array<unknown>(texts.length);
  for (let i = 0; i < texts.length; i++) list[i] = parseScalar(texts[i]!, kinds);
  return list;
}

/** `a,b,c` split at `separator`; empty text is the empty list. */
export function splitText(text: string, separator: string): string[] {
  return text === '' ? [] : text.split(separator);
}

/** A header's comma list (`simple` style), each element without the spaces around it. */
export function headerList(text: string): string[] {
  if (text.trim() === '') return [];
  return text.split(',').map((element) => element.trim());
}

/** `label` style: `.5` is `5`; undefined when the leading dot is missing. */
export function labelValue(text: string): string | undefined {
  return text.charCodeAt(0) === 46 /* . */ ? text.slice(1) : undefined;
}

/** `label` style lists: `.a.b.c` (exploded) or `.a,b,c`. */
export function labelList(text: string, explode: boolean): string[] | undefined {
  const rest = labelValue(text);
  if (rest === undefined) return undefined;
  return splitText(rest, explode ? '.' : ',');
}

/** `matrix` style: `;id=5` is `5` and `;id` is empty text; undefined when the text names another parameter. */
export function matrixValue(text: string, name: string): string | undefined {
  const head = ';' + name;
  if (!text.startsWith(head)) return undefined;
  if (text.length === head.length) return '';
  return text.charCodeAt(head.length) === 61 /* = */ ? text.slice(head.length + 1) : undefined;
}

/** `matrix` style lists: `;id=1;id=2` (exploded) or `;id=1,2`. */
export function matrixList(text: string, name: string, explode: boolean): string[] | undefined {
  if (!explode) {
    const value = matrixValue(text, name);
    return value === undefined ? undefined : splitText(value, ',');
  }
  if (text === '') return [];
  if (text.charCodeAt(0) !== 59 /* ; */) return undefined;
  const list: string[] = [];
  for (const segment of text.slice(1).split(';')) {
    const value = matrixValue(';' + segment, name);
    if (value === undefined) return undefined;
    list.push(value);
  }
  return list;
}

/** Exploded `matrix` objects: `;R=100;G=200` as `R=100`, `G=200`. */
export function matrixAssignments(text: string): string[] | undefined {
  if (text === '') return [];
  if (text.charCodeAt(0) !== 59 /* ; */) return undefined;
  return text.slice(1).split(';');
}

type Fields = Record<string, string | string[]>;

/** Sets `key` on a plain object, making `__proto__` an own property rather than the prototype. */
function setField<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Objects written as a flat list of keys and values (`R,100,G,200`); undefined when a key lacks its value. */
export function pairFields(list: readonly string[]): Fields | undefined {
  if (list.length % 2 !== 0) return undefined;
  const fields: Fields = {};
  for (let i = 0; i < list.length; i += 2) setField<string | string[]>(fields, list[i]!, list[i + 1]!);
  return fields;
}

/** Objects written as assignments (`R=100`, `G=200`); undefined when one lacks its `=`. */
export function assignedFields(list: readonly string[]): Fields | undefined {
  const fields: Fields = {};
  for (const item of list) {
    const at = item.indexOf('=');
    if (at < 1) return undefined;
    setField<string | string[]>(fields, item.slice(0, at), item.slice(at + 1));
  }
  return fields;
}

/** Exploded `form` objects: each listed property is its own field of `source`; undefined when none is there. */
export function explodedFields(source: Fields | undefined, names: readonly string[]): Fields | undefined {
  if (source === undefined) return undefined;
  let fields: Fields | undefined;
  for (const name of names) {
    const value = Object.hasOwn(source, name) ? source[name] : undefined;
    if (value !== undefined) setField((fields ??= {}), name, value);
  }
  return fields;
}

/**
 * Exploded `form` objects that list no properties (a free-form map): every
 * field of `source` that no other parameter of the operation takes (`taken`
 * names, `name[key]` fields of the `deep` ones); undefined when there is none.
 */
export function otherFields(source: Fields | undefined, taken: ReadonlySet<string>, deep?: readonly string[]): Fields | undefined {
  if (source === undefined) return undefined;
  let fields: Fields | undefined;
  for (const name in source) {
    if (!taken.has(name) && !isDeepField(name, deep)) setField((fields ??= {}), name, source[name]!);
  }
  return fields;
}

/** `deepObject` objects: fields `name[key]`; undefined when there is none. */
export function deepObjectFields(source: Fields, name: string): Fields | undefined {
  let fields: Fields | undefined;
  const prefix = name + '[';
  for (const key in source) {
    if (key.length > prefix.length && key.startsWith(prefix) && key.endsWith(']')) {
      setField((fields ??= {}), key.slice(prefix.length, -1), source[key]!);
    }
  }
  return fields;
}

/**
 * `deepObject` lists, as APIs that use it write them: `name[]=a&name[]=b`,
 * `name[0]=a&name[1]=b` (in index order) or `name=a&name=b`. One `name=a`
 * alone stays text (a scalar, for a parameter that is a scalar or a list).
 */
export function deepListFields(source: Fields, name: string): string | string[] | undefined {
  const plain = Object.hasOwn(source, name) ? source[name] : undefined;
  let list: string[] | undefined;
  let indexed: [number, string | string[]][] | undefined;
  const prefix = name + '[';
  for (const key in source) {
    if (key.length <= prefix.length || !key.startsWith(prefix) || !key.endsWith(']')) continue;
    const inner = key.slice(prefix.length, -1);
    const value = source[key]!;
    if (inner === '') (list ??= []).push(...(typeof value === 'string' ? [value] : value));
    else if (/^[0-9]+$/.test(inner)) (indexed ??= []).push([Number(inner), value]);
  }
  if (list === undefined && indexed === undefined) return plain;
  const all = plain === undefined ? [] : typeof plain === 'string' ? [plain] : [...plain];
  if (list !== undefined) all.push(...list);
  if (indexed !== undefined) {
    indexed.sort((a, b) => a[0] - b[0]);
    for (const [, value] of indexed) all.push(...(typeof value === 'string' ? [value] : value));
  }
  return all;
}

/**
 * Nested `deepObject` fields in bracket notation (`items[0][price]=p`,
 * `metadata[key]=v`, `expand[]=a`), as a tree of texts: each bracket is one
 * level; `[]` at the end appends to a list (key `""`); a key given twice is a
 * list of its texts. `name=v` alone is the text (a scalar, or `""` to clear);
 * beside bracket fields it counts as a `[]` element. Undefined when the
 * request has neither; `DEEP_CONFLICT` when a key is both text and fields
 * (`a[b]=1&a[b][c]=2`). docs/decisions/0020-form-fields-by-encoding.md.
 */
export type DeepTree = string | string[] | { [key: string]: DeepTree };

export const DEEP_CONFLICT: unique symbol = Symbol('deep conflict');

export function deepTree(source: Fields, name: string): DeepTree | typeof DEEP_CONFLICT | undefined {
  const plain = Object.hasOwn(source, name) ? source[name] : undefined;
  let root: Record<string, DeepTree> | undefined;
  const prefix = name + '[';
  for (const key in source) {
    if (key.length <= prefix.length || !key.startsWith(prefix) || !key.endsWith(']')) continue;
    const segments = key.slice(prefix.length, -1).split('][');
    let node = (root ??= Object.create(null) as Record<string, DeepTree>);
    for (let i = 0; i < segments.length - 1; i++) {
      const segment = segments[i]!;
      const next = Object.hasOwn(node, segment) ? node[segment] : undefined;
      if (next === undefined) {
        const created = Object.create(null) as Record<string, DeepTree>;
        setField(node, segment, created);
        node = created;
      } else if (typeof next === 'string' || Array.isArray(next)) {
        return DEEP_CONFLICT;
      } else {
        node = next;
      }
    }
    if (!appendText(node, segments[segments.length - 1]!, source[key]!)) return DEEP_CONFLICT;
  }
  if (root === undefined) return plain;
  if (plain !== undefined && !appendText(root, '', plain)) return DEEP_CONFLICT;
  return root;
}

function appendText(node: Record<string, DeepTree>, key: string, value: string | string[]): boolean {
  const existing = Object.hasOwn(node, key) ? node[key] : undefined;
  if (existing !== undefined && typeof existing !== 'string' && !Array.isArray(existing)) return false;
  if (existing === undefined && key !== '') {
    setField<DeepTree>(node, key, value);
    return true;
  }
  const list = existing === undefined ? [] : typeof existing === 'string' ? [existing] : existing;
  setField<DeepTree>(node, key, list.concat(value));
  return true;
}

/**
 * What a nested `deepObject` value may hold at one level, from its schema
 * (unions merged): `s` the scalar kinds of a text, `p`/`r` the shapes of an
 * object's listed and other keys, `a` the shape of a list's elements. A level
 * without a shape (an open map's values, `{}`) keeps its texts.
 */
export interface DeepShape {
  s?: number;
  p?: ReadonlyMap<string, DeepShape>;
  r?: DeepShape;
  a?: DeepShape;
}

/** A `DeepShape` (generated code builds them with this, so that their types stay small). */
export function deepShape(s: number | undefined, p?: readonly [string, DeepShape][], r?: DeepShape, a?: DeepShape): DeepShape {
  const shape: { s?: number; p?: ReadonlyMap<string, DeepShape>; r?: DeepShape; a?: DeepShape } = {};
  if (s !== undefined) shape.s = s;
  if (p !== undefined) shape.p = new Map(p);
  if (r !== undefined) shape.r = r;
  if (a !== undefined) shape.a = a;
  return shape;
}

const INDEX = /^(?:0|[1-9][0-9]{0,8})$/;

/**
 * A `deepTree` to the value its shape reads it as; the schema's checks then
 * decide. A level that may be a list reads `[n]` keys (in index order, after
 * any `[]` elements) as its elements, and one text as a one-element list
 * when the level has no scalar kinds; else keys are an object's properties.
 */
export function deepValue(tree: DeepTree, shape: DeepShape | undefined): unknown {
  if (typeof tree === 'string') {
    if (shape === undefined) return tree;
    if (shape.s !== undefined) return parseScalar(tree, shape.s);
    return shape.a !== undefined ? [deepValue(tree, shape.a)] : tree;
  }
  if (Array.isArray(tree)) {
    const items = shape?.a;
    return items === undefined ? tree : tree.map((text) => deepValue(text, items));
  }
  const keys = Object.keys(tree);
  const items = shape?.a;
  if (items !== undefined && (shape?.p === undefined || keys.every((key) => key === '' || INDEX.test(key)))) {
    const list: unknown[] = [];
    const appended = tree[''];
    if (appended !== undefined) {
      for (const text of typeof appended === 'string' || !Array.isArray(appended) ? [appended] : appended) list.push(deepValue(text, items));
    }
    const indexed = keys.filter((key) => key !== '');
    if (indexed.every((key) => INDEX.test(key))) {
      indexed.sort((a, b) => Number(a) - Number(b));
      for (const key of indexed) list.push(deepValue(tree[key]!, items));
      return list;
    }
  }
  const value: Record<string, unknown> = {};
  for (const key of keys) {
    const next = shape?.p?.get(key) ?? shape?.r;
    setField(value, key, deepValue(tree[key]!, next));
  }
  return value;
}

/**
 * The text fields of an object parameter as values: each listed property by
 * its own scalar kinds (`kinds`), any other by `rest`. A field given more
 * than once stays a list of texts, which the object's checks reject.
 */
export function decodeFields(fields: Fields, kinds: ReadonlyMap<string, number>, rest: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const key in fields) {
    const text = fields[key]!;
    setField(value, key, typeof text === 'string' ? parseScalar(text, kinds.get(key) ?? rest) : text);
  }
  return value;
}

type DecodeFailure = { ok: false; error: DecodeError };

function failure(parameter: string, rule: string, msg: string): DecodeFailure {
  return { ok: false, error: { code: 'BAD_REQUEST', msg, parameter, rule } };
}

export function missing(parameter: string): DecodeFailure {
  return failure(parameter, 'required', `Missing required parameter "${parameter}"`);
}

export function repeated(parameter: string): DecodeFailure {
  return failure(parameter, 'repeated', `Invalid parameter "${parameter}": must be given only once`);
}

/** A plain value not written in its parameter's style (`label` without its dot, an odd key/value list). */
export function invalidStyle(parameter: string, style: string): DecodeFailure {
  return failure(parameter, 'style', `Invalid parameter "${parameter}": not written in ${style} style`);
}

export function invalidJson(parameter: string): DecodeFailure {
  return failure(parameter, 'json', `Invalid JSON in parameter "${parameter}"`);
}

export function wrongFileCount(parameter: string, count: number): DecodeFailure {
  return failure(parameter, 'file', `Invalid parameter "${parameter}": must be exactly one file, got ${count}`);
}

/** A failed check on a parameter; `path` locates the value inside it (`""` for the parameter itself). */
export function invalid(parameter: string, rule: string, path: string, message: string): DecodeFailure {
  const where = path === '' ? '' : (path.startsWith('.') ? path.slice(1) : path) + ' ';
  return failure(parameter, rule, `Invalid parameter "${parameter}": ${where}${message}`);
}

export function invalidFrom(parameter: string, found: Failure, prefix: string): DecodeFailure {
  return invalid(parameter, found.rule, prefix + found.path, found.message);
}

// ---------------------------------------------------------------------------
// Response bodies by status and media type, and whole request bodies.

/** Checks one response body; `[]` when it is valid. */
export type ResponseCheck = (body: unknown, options?: ValidateOptions) => Issue[];

/**
 * The responses of one operation: status key (`200`, `2XX`, `default`, ...)
 * to media type (lower case, as declared) to its check, `null` for a body
 * that is not JSON (text or bytes: nothing to check). A response without a
 * body has no media types.
 */
export type ResponseTable = Readonly<Record<string, Readonly<Record<string, CheckFunction | null>>>>;

/** The media type of a `Content-Type` value: lower case, without parameters. */
export function mediaTypeOf(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * The index in `declared` of the media type that takes `received`: the same
 * type (parameters aside on both sides), else a declared `type/*`, else a
 * declared `*\/*`; -1 when none does.
 */
export function matchMediaType(received: string, declared: readonly string[]): number {
  const type = mediaTypeOf(received);
  const exact = declared.indexOf(type);
  if (exact !== -1) return exact;
  // A declared type with parameters (`application/json;charset=utf-8`) takes the same type without them.
  for (let i = 0; i < declared.length; i++) if (mediaTypeOf(declared[i]!) === type) return i;
  const slash = type.indexOf('/');
  const range = declared.indexOf(slash === -1 ? type : type.slice(0, slash) + '/*');
  return range !== -1 ? range : declared.indexOf('*/*');
}

/** The response a status selects: the exact status, else its `NXX` range, else `default`. */
export function selectResponse<T>(table: Readonly<Record<string, T>>, status: number): T | undefined {
  const key = String(status);
  if (Object.hasOwn(table, key)) return table[key];
  const range = `${key.charAt(0)}XX`;
  if (Object.hasOwn(table, range)) return table[range];
  return Object.hasOwn(table, 'default') ? table.default : undefined;
}

/**
 * Checks a response body against the response its status selects:
 * `undefined` when the operation declares none for the status; `[]` for a
 * response without a body (whatever came) or a body that is not JSON; one
 * issue when the media type is not declared for the status.
 */
export function checkResponse(
  table: ResponseTable,
  status: number,
  mediaType: string | undefined,
  body: unknown,
  options: ValidateOptions | undefined,
): Issue[] | undefined {
  const response = selectResponse(table, status);
  if (response === undefined) return undefined;
  const types = Object.keys(response);
  if (types.length === 0) return [];
  const index = mediaType === undefined ? 0 : matchMediaType(mediaType, types);
  if (index === -1) return [{ path: '$', message: `media type \`${mediaTypeOf(mediaType!)}\` is not declared for status ${status}` }];
  const check = response[types[index]!];
  return check == null ? [] : validateWith(check, body, options);
}

/**
 * A declared response header: its lower-case name, whether it is required,
 * the scalar kinds its text reads as, whether it is a comma-separated list
 * (`simple` style), and the check of the value (`null`: presence only).
 */
export type HeaderCheck = readonly [name: string, required: boolean, kinds: number, list: boolean, check: CheckFunction | null];
/** Declared response headers by status key (`200`, `2XX`, `default`). */
export type HeaderTable = Readonly<Record<string, readonly HeaderCheck[]>>;
/** Response headers as fetch gives them (`Headers`), or as Node and Fastify do (a record by lower-case name). */
export type HeadersLike = { get(name: string): string | null } | Readonly<Record<string, string | number | readonly string[] | undefined>>;

/**
 * Checks the headers of a response against those declared for the status it
 * selects (as `checkResponse` selects the body's): a required one missing, or
 * one whose text does not read as its schema, is an issue at `header <name>`.
 * `undefined` when no response is declared for the status (the table lists
 * every declared status of an operation that declares any header).
 */
export function checkResponseHeaders(table: HeaderTable, status: number, headers: HeadersLike, options: ValidateOptions | undefined): Issue[] | undefined {
  const checks = selectResponse(table, status);
  if (checks === undefined) return undefined;
  let issues: Issue[] | undefined;
  for (const [name, required, kinds, list, check] of checks) {
    const text = headerText(headers, name);
    if (text === undefined) {
      if (required) (issues ??= []).push({ path: `header ${name}`, message: 'is required' });
      continue;
    }
    if (check === null) continue;
    const value = list ? scalarList(headerList(text), kinds) : parseScalar(text, kinds);
    for (const issue of validateWith(check, value, options)) (issues ??= []).push({ path: `header ${name}${issue.path.slice(1)}`, message: issue.message });
    if (issues !== undefined && options?.allErrors !== true) break;
  }
  return issues ?? [];
}

function headerText(headers: HeadersLike, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | number | readonly string[] | undefined>>;
  const value = Object.hasOwn(record, name) ? record[name] : Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The published form of response tables: every check as `(body, options) => Issue[]`. */
export function responseValidatorTables<K extends string>(
  tables: Readonly<Record<K, ResponseTable>>,
): { readonly [O in K]: Readonly<Record<string, Readonly<Record<string, ResponseCheck>>>> } {
  const none: ResponseCheck = () => [];
  const result = {} as Record<K, Record<string, Record<string, ResponseCheck>>>;
  for (const operation of Object.keys(tables) as K[]) {
    const byStatus: Record<string, Record<string, ResponseCheck>> = {};
    for (const [status, media] of Object.entries(tables[operation])) {
      const byType: Record<string, ResponseCheck> = {};
      for (const [type, check] of Object.entries(media)) {
        byType[type] = check === null ? none : (body, options) => validateWith(check, body, options);
      }
      byStatus[status] = byType;
    }
    result[operation] = byStatus;
  }
  return result;
}

/** A whole request body sent with a media type the operation does not take (servers answer 415). */
export function unsupportedMediaType(parameter: string, mediaType: string): DecodeFailure {
  return failure(parameter, 'mediaType', `Unsupported media type "${mediaTypeOf(mediaType)}" for the request body`);
}

/** A whole text body that is not text, or a binary body that is not bytes (the caller handed over the wrong shape). */
export function wrongBodyShape(parameter: string, expected: 'text' | 'bytes'): DecodeFailure {
  return failure(parameter, 'type', `Invalid parameter "${parameter}": the body must be ${expected}`);
}

/** Every file sent in field `name`, in order. */
export function fileList(raw: RawRequest, name: string): DecodedFile[] {
  const found: DecodedFile[] = [];
  for (const file of raw.files ?? []) {
    if (file.field === name) found.push({ filename: file.filename, contentType: file.contentType, data: file.data });
  }
  return found;
}
