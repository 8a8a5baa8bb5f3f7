/**
 * `deepObject` parameters: fields in bracket notation (`name[key]`), flat or
 * nested, read as fields, lists or a tree of texts that a generated shape
 * then reads as a value (decision 0020).
 */
import { setField, type Fields } from './fields.js';
import { parseScalar } from './scalars.js';

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
