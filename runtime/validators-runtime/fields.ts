/**
 * The text fields of a form, query string or cookie header
 * (`Record<name, text | texts>`): reading them safely, and exploded `form`
 * objects read from them (decision 0020).
 */
import { parseScalar } from './scalars.js';

/** Text fields by name; a field sent more than once is a list of its texts. */
export type Fields = Record<string, string | string[]>;

/** Sets `key` on a plain object, making `__proto__` an own property rather than the prototype. */
export function setField<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A field of a request part, ignoring what every object inherits (`constructor`, `toString`, ...). */
export function ownField<T>(source: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(source, name) ? source[name] : undefined;
}

/** Whether `name` is a `name[key]` field of one of the `deep` parameters. */
export function isDeepField(name: string, deep: readonly string[] | undefined): boolean {
  if (deep === undefined) return false;
  for (const prefix of deep) if (name.startsWith(prefix + '[') && name.endsWith(']')) return true;
  return false;
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
