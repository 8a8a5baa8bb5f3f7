/**
 * Wrong wire values for one parameter, derived from its schema and wire
 * encoding, each with whether the generated decoder must refuse it.
 * Values are percent-encoded text, as they appear in a query or form body.
 */
import type { ApiModel, Parameter, Schema } from '../../../generator/model/types.js';

export interface BadValue {
  value: string;
  /** Whether the decoder refuses it wherever it travels; otherwise the handler decides. */
  refused: boolean;
}

/** Bodies may carry 100 KB values; a URL stays under Node's 16 KB header limit. */
export const HUGE_BODY_VALUE = 100_000;
export const HUGE_URL_VALUE = 6_000;

/** Percent-escapes that do not decode to UTF-8 text, and malformed escapes: only the strict form-body parser refuses them. */
export const BROKEN_ESCAPES = ['%C3%28', '%FF', '%ED%A0%80', '%E2%82', '%C0%AF', '%', '%G1', '%%', 'a%2'];

const JSON_SYNTAX_ERRORS = ['%7B', '%5B1%2C', 'nul', '%22unterminated', '%5B1%2C2%5D%5D', '', 'undefined', "%7B'a'%3A1%7D", '%5B1%2C%5D', 'NaN', '%7B%22a%22%3A%7D'];

/** JSON values of every kind, for checking a JSON-encoded parameter's type. */
const JSON_SAMPLES: unknown[] = [true, 'text', 1.5, {}, { a: 1 }, [], [1], [1.5], ['1'], [null], [[1]], null, -1, 0, 'null', ''];

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'any';

export function resolve(model: ApiModel, schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; current.kind === 'ref' && depth < 20; depth++) {
    const name = current.name;
    const named = model.schemas.find((s) => s.name === name);
    if (!named) throw new Error(`no schema named ${name}`);
    current = named.schema;
  }
  return current;
}

/** The JSON kinds a schema admits at its top level (unions flattened). */
function kinds(model: ApiModel, schema: Schema): Set<Kind> {
  const s = resolve(model, schema);
  if (s.kind === 'union') return new Set(s.variants.flatMap((v) => [...kinds(model, v)]));
  if (s.kind === 'number') return new Set(['number', 'integer']);
  return new Set([s.kind as Kind]);
}

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as Kind;
}

/** Whether the schema must refuse this JSON value judging by kinds alone (top level, and elements of a list). */
function refusesByKind(model: ApiModel, schema: Schema, value: unknown): boolean {
  const allowed = kinds(model, schema);
  if (allowed.has('any')) return false;
  if (!allowed.has(kindOf(value))) return true;
  const s = resolve(model, schema);
  if (!Array.isArray(value) || s.kind !== 'array' || s.items === undefined || s.prefixItems !== undefined) return false;
  const items = s.items;
  return value.some((element) => refusesByKind(model, items, element));
}

const enc = (text: string): string => encodeURIComponent(text);

export function badValues(model: ApiModel, parameter: Parameter, huge: number): BadValue[] {
  if (parameter.encoding === 'json') return badJson(model, parameter.schema, huge);
  const schema = resolve(model, parameter.schema);
  switch (schema.kind) {
    case 'integer':
      return badInteger(schema.enum, schema.minimum, schema.maximum, huge);
    case 'boolean':
      return ['yes', '1', '0', 'TRUE', '', 'True', enc('{}'), 'null', 'tr%00ue', '%FF', 'true%20'].map(always);
    case 'string':
      return badString(schema, huge);
    default:
      return [];
  }
}

const always = (value: string): BadValue => ({ value, refused: true });
const never = (value: string): BadValue => ({ value, refused: false });

function badInteger(values: number[] | undefined, minimum: number | undefined, maximum: number | undefined, huge: number): BadValue[] {
  const texts = ['abc', '1.5', '1e3', '', '%20%207', '0x1F', '%2B1', '9'.repeat(25), '-9007199254740993', enc('{"a":1}'), 'true', '%00', '1%002', '%EF%BC%92', '-', '%FF', '1'.repeat(huge)];
  const result = texts.map(always);
  for (const n of [-1, 0, 2147483648, -2147483649, 9007199254740991]) {
    const outside = (values !== undefined && !values.includes(n)) || (minimum !== undefined && n < minimum) || (maximum !== undefined && n > maximum);
    result.push({ value: String(n), refused: outside });
  }
  return result;
}

function badString(schema: Extract<Schema, { kind: 'string' }>, huge: number): BadValue[] {
  const texts = [enc('{"a":1}'), enc('[1,2]'), '', '%00', 'a%00b', '%F0%9F%92%A9', '%E2%80%AE', '%20', '+', enc('<script>'), 'a'.repeat(huge), '%C3%A9'.repeat(huge / 6)];
  if (schema.enum) texts.push('not_a_value', enc(`${schema.enum[0]} `), enc(schema.enum[0]!.toUpperCase()));
  if (schema.maxLength !== undefined) texts.push('x'.repeat(schema.maxLength + 1));
  const result = texts.map((value) => ({ value, refused: refusedString(schema, decodeURIComponent(value.replaceAll('+', ' '))) }));
  // Broken escapes reach the decoder as they were (query) or as U+FFFD (multipart).
  for (const value of BROKEN_ESCAPES) result.push(never(value));
  return result;
}

function refusedString(schema: Extract<Schema, { kind: 'string' }>, text: string): boolean {
  const length = [...text].length;
  return (
    (schema.enum !== undefined && !schema.enum.includes(text)) ||
    (schema.const !== undefined && schema.const !== text) ||
    (schema.maxLength !== undefined && length > schema.maxLength) ||
    (schema.minLength !== undefined && length < schema.minLength) ||
    (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(text))
  );
}

function badJson(model: ApiModel, schema: Schema, huge: number): BadValue[] {
  const result = JSON_SYNTAX_ERRORS.map(always);
  for (const sample of JSON_SAMPLES) {
    result.push({ value: enc(JSON.stringify(sample)), refused: refusesByKind(model, schema, sample) });
  }
  const depth = Math.min(2000, Math.floor(huge / 20));
  const deep = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
  result.push({ value: `${'%5B'.repeat(depth)}${'%5D'.repeat(depth)}`, refused: refusesByKind(model, schema, deep) });
  // A long list of small integers: valid for ID lists, so the handler must cope with its length.
  const count = Math.floor(huge / 8);
  result.push({ value: enc(JSON.stringify(Array.from({ length: count }, (_, i) => i + 1))), refused: refusesByKind(model, schema, [1]) });
  result.push(never('1e400'), never('9007199254740993'), never(enc('{"__proto__":{"x":1}}')));
  for (const value of BROKEN_ESCAPES) result.push(always(value));
  return result;
}
