/**
 * Scalars from text: integers and numbers, and the first scalar of the kinds
 * a schema allows (decision 0014), one by one or as a list.
 */
import { INVALID_JSON, parseJson } from './json.js';

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
