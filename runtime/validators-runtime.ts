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
  files?: { field: string; filename: string; contentType: string; data: Uint8Array }[];
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

/** Makes the failures a nested check recorded (from index `from`) relative to the caller's value. */
export function prefixFailures(out: Failure[], from: number, prefix: string): void {
  for (let i = from; i < out.length; i++) {
    const failure = out[i]!;
    failure.path = prefix + failure.path;
  }
}

/**
 * Failures of checks whose outcome is only a verdict (union variants tried
 * in order, whole bodies before their issues are reported). Checks run
 * synchronously, so one array used as a stack serves every nesting level:
 * each user truncates it back to the length it found.
 */
export const scratch: Failure[] = [];

/** Runs a check function on a whole body and reports issues with `$`-rooted paths. */
export function validateWith(check: CheckFunction, body: unknown, options: ValidateOptions | undefined): Issue[] {
  const mark = scratch.length;
  check(body, scratch, options?.allErrors === true, options?.strict === true);
  if (scratch.length === mark) return [];
  const issues = scratch.slice(mark).map((failure) => ({ path: '$' + failure.path, message: failure.message }));
  scratch.length = mark;
  return issues;
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
export function parseJson(text: string): unknown {
  const quick = parseTinyJson(text);
  if (quick !== NOT_TINY) return quick;
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
  const list: number[] = [];
  let i = 1;
  if (text.charCodeAt(i) === 93 /* ] */) return i + 1 === text.length ? list : NOT_TINY;
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

/** Names in the body, query string or files that the operation does not take, sorted and deduplicated. */
export function unsupportedParameters(raw: RawRequest, known: ReadonlySet<string>): string[] {
  let found: string[] | undefined;
  for (const name in raw.body) if (!known.has(name)) (found ??= []).push(name);
  for (const name in raw.query) if (!known.has(name)) (found ??= []).push(name);
  for (const file of raw.files ?? []) if (!known.has(file.field)) (found ??= []).push(file.field);
  if (found === undefined) return [];
  return [...new Set(found)].sort();
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
