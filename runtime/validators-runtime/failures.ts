/**
 * Failure records: what a check function records about a value (path
 * relative to the value, message, rule), and the issues a validator reports
 * from them (`$`-rooted JSON paths). Check functions record through these
 * helpers rather than building records inline (decision 0030).
 */

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
