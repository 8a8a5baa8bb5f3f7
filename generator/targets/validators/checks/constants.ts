import { patternFlags } from '../../../model/schema.js';
import { listLiteral, literal } from '../code.js';
import type { EmitContext } from '../context.js';

/** Up to this many keys are compared inline; more go through a hoisted Set. */
const INLINE_LIMIT = 4;

/**
 * Up to this many enum values are compared inline. A string read from a
 * request is new text: `Set.has` must hash it before looking it up, while
 * `===` against a literal of another length fails at once, so a chain of
 * comparisons stays faster than the Set well past the four keys above.
 */
export const ENUM_INLINE_LIMIT = 8;

/** An expression that is true when `value` is not one of `values` (compared inline up to `limit` values). */
export function enumMiss(value: string, values: readonly (string | number)[], ctx: EmitContext, name: string, limit = INLINE_LIMIT): string {
  if (values.length <= limit) {
    return values.length === 0 ? 'true' : values.map((v) => `${value} !== ${literal(v)}`).join(' && ');
  }
  const type = typeof values[0] === 'number' ? 'number' : 'string';
  const set = ctx.constant(name, `new Set<${type}>(${listLiteral(values)})`, 'call');
  return `!${set}.has(${value})`;
}

/** The names `enumMiss` tests as a value: the same Set constant when there are many, else an array literal. */
export function knownValues(values: readonly string[], ctx: EmitContext, name: string): string {
  if (values.length <= INLINE_LIMIT) return listLiteral(values);
  return ctx.constant(name, `new Set<string>(${listLiteral(values)})`, 'call');
}

/**
 * A hoisted RegExp for a schema pattern: plain ECMA-262, or Unicode mode when
 * the pattern needs it (`\p{L}`), as the model decided (`patternFlags`).
 */
export function patternConstant(pattern: string, ctx: EmitContext, name: string): string {
  const flags = patternFlags(pattern);
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    throw new Error(`invalid pattern ${literal(pattern)}: ${(error as Error).message}`);
  }
  return ctx.constant(name, flags === '' ? `new RegExp(${literal(pattern)})` : `new RegExp(${literal(pattern)}, "u")`, 'call');
}

/** Patterns that only say "one or more ASCII digits" (map keys that are IDs). */
const DIGITS = new Set(['^[0-9]+$', '^\\d+$']);

/**
 * An expression that is true when string `value` matches `pattern`: a
 * character loop for digit-only keys (several times cheaper than a RegExp
 * call on short strings), the hoisted RegExp otherwise.
 */
export function patternTest(pattern: string, value: string, ctx: EmitContext, name: string): string {
  if (DIGITS.has(pattern)) {
    const digits = ctx.helper(
      'allDigits',
      [
        '(text: string): boolean => {',
        '  if (text.length === 0) return false;',
        '  for (let i = 0; i < text.length; i++) {',
        '    const c = text.charCodeAt(i);',
        '    if (c < 48 || c > 57) return false;',
        '  }',
        '  return true;',
        '}',
      ].join('\n'),
    );
    return `${digits}(${value})`;
  }
  return `${patternConstant(pattern, ctx, name)}.test(${value})`;
}

/** `jsonEqual(a, b)`: equality of JSON values (numbers by value, objects by keys whatever their order). */
export function jsonEqualHelper(ctx: EmitContext): string {
  return ctx.helper(
    'jsonEqual',
    [
      '(a: unknown, b: unknown): boolean => {',
      '  if (a === b) return true;',
      '  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;',
      '  if (Array.isArray(a) || Array.isArray(b)) {',
      '    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;',
      '    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;',
      '    return true;',
      '  }',
      '  const ra = a as Record<string, unknown>;',
      '  const rb = b as Record<string, unknown>;',
      '  const keys = Object.keys(ra);',
      '  if (keys.length !== Object.keys(rb).length) return false;',
      '  for (const k of keys) if (!Object.hasOwn(rb, k) || !jsonEqual(ra[k], rb[k])) return false;',
      '  return true;',
      '}',
    ].join('\n'),
  );
}

/** `hasDuplicates(list)`: whether two items of a list are equal JSON values (Set for scalars, pairs otherwise). */
export function duplicatesHelper(ctx: EmitContext): string {
  const equal = jsonEqualHelper(ctx);
  return ctx.helper(
    'hasDuplicates',
    [
      '(list: readonly unknown[]): boolean => {',
      '  const seen = new Set<unknown>();',
      '  let scalars = true;',
      '  for (const x of list) {',
      '    if (typeof x === "object" && x !== null) {',
      '      scalars = false;',
      '      break;',
      '    }',
      '    if (seen.has(x)) return true;',
      '    seen.add(x);',
      '  }',
      '  if (scalars) return false;',
      '  for (let i = 1; i < list.length; i++) {',
      `    for (let j = 0; j < i; j++) if (${equal}(list[i], list[j])) return true;`,
      '  }',
      '  return false;',
      '}',
    ].join('\n'),
  );
}

/**
 * Formats checked, each by a pattern never stricter than ajv-formats' full
 * mode, so whatever ajv accepts we accept (docs/decisions/0009-schema-model.md).
 * Other formats are annotations.
 */
const FORMATS: Record<string, string> = {
  'date-time': '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])[Tt\\s]([01]\\d|2[0-3]):[0-5]\\d:([0-5]\\d|60)(\\.\\d+)?([Zz]|[+-]\\d\\d(:?\\d\\d)?)$',
  date: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
  time: '^([01]\\d|2[0-3]):[0-5]\\d:([0-5]\\d|60)(\\.\\d+)?([Zz]|[+-]\\d\\d(:?\\d\\d)?)?$',
  uuid: '^(urn:uuid:)?[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$',
  email: '^[^\\s@]+@[^\\s@]+$',
  ipv4: '^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$',
  uri: '^[A-Za-z][A-Za-z0-9+.-]*:[^\\s]*$',
};

/** The hoisted RegExp that checks a string format, if the format is one we check. */
export function formatConstant(format: string, ctx: EmitContext): string | undefined {
  const pattern = FORMATS[format];
  if (pattern === undefined) return undefined;
  return ctx.constant(`${format} format`, `/${pattern}/`);
}

export const CHECKED_FORMATS = Object.keys(FORMATS);
