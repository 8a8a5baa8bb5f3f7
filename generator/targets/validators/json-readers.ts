/**
 * Readers of JSON-encoded parameters (a form field whose value is JSON
 * text), shaped by the parameter's schema. JSON.parse looks up every key of
 * every object as a new string; a reader compares the keys the schema lists
 * character by character and stores them under constant names, which on the
 * spec's JSON fields takes about half of JSON.parse's time. A reader is only
 * a parser: it returns what JSON.parse returns, or leaves the text to
 * JSON.parse (runtime `parseJson`), so which schema shapes it is no matter
 * of correctness, only of speed; the parameter's checks run on its value
 * unchanged.
 */
import type { ObjectSchema, Property, Schema } from '../../model/types.js';
import { block, print, ret, type Stmt } from './builder.js';
import { commentText, literal } from './code.js';
import type { EmitContext } from './context.js';


/** Objects listing more properties than this are read by the general reader (a long chain of key comparisons). */
const MAX_PROPERTIES = 32;

interface ReaderState {
  /** Reader names by the canonical text of the schema they read (copies of one shape share a reader). */
  readers: Map<string, string>;
}

const ANNOTATIONS = new Set(['description', 'title', 'examples', 'deprecated', 'featureLevel', 'changes', 'unspecified', 'readOnly', 'writeOnly', 'refName', 'names']);

/** A schema as text with its keys sorted and its annotations left out: equal for equal shapes however the model was built. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value)
    .filter((k) => !ANNOTATIONS.has(k) && (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

const states = new WeakMap<EmitContext, ReaderState>();

function state(ctx: EmitContext): ReaderState {
  let found = states.get(ctx);
  if (found === undefined) {
    found = { readers: new Map() };
    states.set(ctx, found);
  }
  return found;
}

/**
 * The reader function for a JSON-encoded parameter's schema, or undefined
 * when its shape lists no object keys (JSON.parse reads it as fast).
 */
export function jsonReader(schema: Schema, ctx: EmitContext, label: string): string | undefined {
  return shaped(schema, ctx) ? readerOf(schema, ctx, label) : undefined;
}

/** A key the reader can compare with the text as written: no characters JSON must escape, and not `__proto__`. */
function readableKey(name: string): boolean {
  return name !== '__proto__' && !/["\\\u0000-\u001f]/.test(name);
}

/** Whether the schema, through references, unions and list items, has an object listing keys to read. */
function shaped(schema: Schema, ctx: EmitContext, seen: Set<string> = new Set()): boolean {
  switch (schema.kind) {
    case 'ref':
      if (seen.has(schema.name)) return false;
      seen.add(schema.name);
      return shaped(ctx.namedSchema(schema.name).schema, ctx, seen);
    case 'object':
      return readableProperties(schema).length > 0;
    case 'array':
      return schema.items !== undefined && shaped(schema.items, ctx, seen);
    case 'union':
      return schema.variants.some((variant) => shaped(variant, ctx, seen));
    default:
      return false;
  }
}

function readableProperties(schema: ObjectSchema): Property[] {
  if (schema.properties.length > MAX_PROPERTIES) return [];
  return schema.properties.filter((p) => readableKey(p.name));
}

/** Whether a string may match (the string and integer readers read any other value by the general reader). */
function mayBeString(schema: Schema, ctx: EmitContext, seen: Set<string> = new Set()): boolean {
  if (schema.kind === 'ref') {
    if (seen.has(schema.name)) return false;
    seen.add(schema.name);
    return mayBeString(ctx.namedSchema(schema.name).schema, ctx, seen);
  }
  if (schema.kind === 'union') return schema.variants.some((variant) => mayBeString(variant, ctx, seen));
  return schema.kind === 'string';
}

/** Whether a list's items are numbers (integers read by hand, any other number by the general reader). */
function isNumeric(schema: Schema, ctx: EmitContext): boolean {
  const kind = ctx.resolve(schema).kind;
  return kind === 'integer' || kind === 'number';
}

/** The reader's name for `schema`: a generated function (named after `label`), `readJsonString`, or the general reader. */
function readerOf(schema: Schema, ctx: EmitContext, label: string): string {
  if (!shaped(schema, ctx)) {
    if (mayBeString(schema, ctx)) return ctx.use('readJsonString');
    const resolved = ctx.resolve(schema);
    if (resolved.kind === 'integer' || resolved.kind === 'number') return ctx.use('readJsonInteger');
    if (resolved.kind === 'array' && resolved.items !== undefined && isNumeric(resolved.items, ctx)) return ctx.use('readJsonIntegers');
    return ctx.use('readJsonValue');
  }
  const st = state(ctx);
  // A reference reads as its named schema, with one function per name.
  let node = schema;
  let owner = label;
  let named = false;
  if (schema.kind === 'ref') {
    owner = ctx.namedSchema(schema.name).names.pascal;
    named = true;
    node = ctx.namedSchema(schema.name).schema;
    while (node.kind === 'ref') node = ctx.namedSchema(node.name).schema;
  }
  const key = named ? `ref:${owner}` : canonical(node);
  const existing = st.readers.get(key);
  if (existing !== undefined) return existing;
  const name = ctx.names.unique(`readJson${owner}`);
  st.readers.set(key, name); // placeholder: recursive schemas call the function being built
  const slot = ctx.declare();
  const body = readerBody(node, ctx, owner);
  ctx.define(slot, [`const ${name} = (c: ${ctx.useType('JsonCursor')}): unknown => {`, ...print(body, 'return;', 1), '};'].join('\n'));
  return name;
}

/** The statements of a reader for a node that `shaped` accepts. */
function readerBody(schema: Schema, ctx: EmitContext, label: string): Stmt[] {
  switch (schema.kind) {
    case 'object':
      return objectReader(readableProperties(schema), ctx, label);
    case 'array':
      return listReader(readerOf(schema.items!, ctx, `${label}Item`), ctx);
    case 'union':
      return unionReader(schema.variants, ctx, label);
    default:
      throw new Error(`no JSON reader for a ${schema.kind} schema`);
  }
}

function objectReader(properties: Property[], ctx: EmitContext, label: string): Stmt[] {
  const names = ctx.constant(`${label}JsonKeys`, `[${properties.map((p) => literal(p.name)).join(', ')}]`);
  const miss = ctx.use('JSON_MISS');
  let chain: Stmt[] = [{ kind: 'if', cond: `i === -2 || !${ctx.use('jsonMember')}(c, o)`, then: [ret(miss)], else: [] }];
  for (let index = properties.length - 1; index >= 0; index--) {
    const property = properties[index]!;
    const read = [`v = ${readerOf(property.schema, ctx, `${label}${property.names.pascal}`)}(c);`, `if (v === ${miss}) return v;`, `o[${literal(property.name)}] = v;`];
    chain = [{ kind: 'if', cond: `i === ${index}`, then: read, else: chain }];
  }
  return [
    'const o: Record<string, unknown> = {};',
    `const open = ${ctx.use('jsonOpen')}(c, 123, 125);`,
    `if (open < 0) return ${ctx.use('readJsonValue')}(c);`,
    'if (open === 0) return o;',
    block('for (;;)', [
      ...keyLines(properties, names, ctx),
      'let v: unknown;',
      ...chain,
      `const d = ${ctx.use('jsonNext')}(c, 125);`,
      'if (d === 0) return o;',
      `if (d < 0) return ${miss};`,
    ], 'loop'),
  ];
}

/**
 * The statements that read an object's key into `i` as `jsonField` does
 * (the listed key's index, the cursor past the colon): each listed key
 * compared where the text stands, quotes and colon included, against
 * character codes written into the code, and `jsonField` for anything else
 * (another key, whitespace before the colon, an escape). `jsonField`
 * compares against the names in a list, loading every character of both
 * strings in a function V8 does not inline; here a key costs one load per
 * character, in the reader itself.
 */
function keyLines(properties: Property[], names: string, ctx: EmitContext): Stmt[] {
  let chain: Stmt[] = [];
  for (let index = properties.length - 1; index >= 0; index--) {
    const text = `${JSON.stringify(properties[index]!.name)}:`;
    const codes: string[] = [];
    for (let j = 1; j < text.length; j++) codes.push(`s.charCodeAt(k + ${j}) === ${text.charCodeAt(j)}`);
    chain = [{ kind: 'if', cond: codes.join(' && '), then: [`// ${commentText(text)}`, `c.at = k + ${text.length};`, `i = ${index};`], else: chain }];
  }
  return [
    'const s = c.s;',
    'const k = c.at;',
    'let i = -1;',
    { kind: 'if', cond: 's.charCodeAt(k) === 34', then: chain, else: [] },
    `if (i === -1) i = ${ctx.use('jsonField')}(c, ${names});`,
  ];
}

function listReader(item: string, ctx: EmitContext): Stmt[] {
  const miss = ctx.use('JSON_MISS');
  return [
    'const a: unknown[] = [];',
    `const open = ${ctx.use('jsonOpen')}(c, 91, 93);`,
    `if (open < 0) return ${ctx.use('readJsonValue')}(c);`,
    'if (open === 0) return a;',
    block('for (;;)', [`const v = ${item}(c);`, `if (v === ${miss}) return v;`, 'a.push(v);', `const d = ${ctx.use('jsonNext')}(c, 93);`, 'if (d === 0) return a;', `if (d < 0) return ${miss};`], 'loop'),
  ];
}

/**
 * A union's objects read as one object listing every variant's keys (the
 * first variant's schema for a key they share), its lists by the first list
 * variant's items: the first character of the text says which.
 */
function unionReader(variants: Schema[], ctx: EmitContext, label: string): Stmt[] {
  const objects: Schema[] = [];
  const lists: Schema[] = [];
  const seen = new Set<string>();
  const collect = (variant: Schema): void => {
    let node = variant;
    while (node.kind === 'ref') {
      if (seen.has(node.name)) return;
      seen.add(node.name);
      node = ctx.namedSchema(node.name).schema;
    }
    if (node.kind === 'union') node.variants.forEach(collect);
    else if (node.kind === 'object' && shaped(variant, ctx)) objects.push(variant);
    else if (node.kind === 'array' && shaped(variant, ctx)) lists.push(variant);
  };
  variants.forEach(collect);
  const objectReaderName = objects.length === 0 ? undefined : objects.length === 1 ? readerOf(objects[0]!, ctx, `${label}Object`) : mergedObjectReader(objects, ctx, `${label}Object`);
  const listReaderName = lists.length === 0 ? undefined : readerOf(lists[0]!, ctx, `${label}List`);
  // Each shaped reader reads any other value by the general reader itself.
  if (listReaderName === undefined) return [ret(`${objectReaderName!}(c)`)];
  if (objectReaderName === undefined) return [ret(`${listReaderName}(c)`)];
  return [`const k = ${ctx.use('jsonKind')}(c);`, `if (k === 123) return ${objectReaderName}(c);`, `if (k === 91) return ${listReaderName}(c);`, ret(`${ctx.use('readJsonValue')}(c)`)];
}

function mergedObjectReader(objects: Schema[], ctx: EmitContext, label: string): string {
  const properties = new Map<string, Property>();
  for (const variant of objects) {
    let node = variant;
    while (node.kind === 'ref') node = ctx.namedSchema(node.name).schema;
    if (node.kind !== 'object') continue;
    for (const property of readableProperties(node)) if (!properties.has(property.name)) properties.set(property.name, property);
  }
  const merged: ObjectSchema = { kind: 'object', properties: [...properties.values()].slice(0, MAX_PROPERTIES), additionalProperties: true };
  return readerOf(merged, ctx, label);
}
