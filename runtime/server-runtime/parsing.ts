/**
 * Parsing of request text: `application/x-www-form-urlencoded` bodies and
 * the Cookie header, into fields by name.
 */
import { frameworkError } from './errors.js';

/** Form, multipart or cookie fields by name: a name sent more than once is an array. */
export type FormFields = Record<string, string | string[]>;

/**
 * Form and multipart fields by name. Objects made by `new Fields()` have no
 * prototype properties (`constructor`, `__proto__` are plain names), like
 * `Object.create(null)`, but V8 keeps them in fast mode, so the decoders'
 * lookups by name stay cheap (Fastify's query parser does the same).
 */
export const Fields = function Fields() {} as unknown as new () => FormFields;
Fields.prototype = Object.create(null) as object;

/** The fields of a request without a body: shared, never written. */
export const NO_FIELDS: FormFields = Object.freeze(new Fields());

/**
 * Strict `application/x-www-form-urlencoded` parsing: a broken percent-escape
 * is a client error. One pass over the text, without splitting it first.
 */
export function parseForm(text: string): FormFields {
  const fields = new Fields();
  const length = text.length;
  // The next `=` at or after `start`; searched again only once passed, so the whole body is scanned once.
  let equals = text.indexOf('=');
  let start = 0;
  while (start < length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = length;
    if (end > start) {
      if (equals !== -1 && equals < start) equals = text.indexOf('=', start);
      if (equals === -1 || equals > end) appendField(fields, fieldName(text, start, end), '');
      else appendField(fields, fieldName(text, start, equals), decodeFormValue(text.slice(equals + 1, end)));
    }
    start = end + 1;
  }
  return fields;
}

function fieldName(text: string, start: number, end: number): string {
  return decodeFormComponent(text.slice(start, end));
}

/**
 * {@link decodeFormComponent} with escapes of ASCII characters (`%5B`)
 * decoded here rather than by `decodeURIComponent` (a call into the
 * runtime); a value with `+`, a broken escape or the escape of a byte above
 * 0x7F goes to {@link decodeFormComponent}, which decodes or refuses it.
 */
function decodeFormValue(text: string): string {
  let percent = text.indexOf('%');
  const plus = text.indexOf('+');
  if (percent === -1) return plus === -1 ? text : decodeFormComponent(text);
  if (plus !== -1) return decodeFormComponent(text);
  let decoded = '';
  let copied = 0;
  while (percent !== -1) {
    const high = hexDigit(text.charCodeAt(percent + 1));
    const low = hexDigit(text.charCodeAt(percent + 2));
    if (high < 0 || low < 0 || high > 7) return decodeFormComponent(text);
    decoded += text.slice(copied, percent) + String.fromCharCode(high * 16 + low);
    copied = percent + 3;
    percent = text.indexOf('%', copied);
  }
  return decoded + text.slice(copied);
}

/** The value of a hexadecimal digit's character code, -1 for another (NaN past the end of the text included). */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

function decodeFormComponent(text: string): string {
  // Most names and many values have nothing to decode.
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    throw frameworkError('BAD_REQUEST', 'Malformed application/x-www-form-urlencoded body: invalid percent-encoding');
  }
}

export function appendField(fields: FormFields, name: string, value: string): void {
  const existing = fields[name];
  if (existing === undefined) fields[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else fields[name] = [existing, value];
}

/** The cookies of a request without a Cookie header: shared, never written. */
export const NO_COOKIES: FormFields = Object.freeze(Object.create(null) as FormFields);

/**
 * The Cookie header as name -> value (`name=value; other=x`): values
 * percent-decoded where that works, surrounding quotes removed, a name sent
 * more than once an array. A few lines rather than a package: the `cookie`
 * package's current major needs Node 22.
 */
export function parseCookies(header: string | undefined): FormFields {
  if (header === undefined || header === '') return NO_COOKIES;
  const cookies: FormFields = Object.create(null);
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    if (name === '') continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        // Kept as sent.
      }
    }
    appendField(cookies, name, value);
  }
  return cookies;
}
