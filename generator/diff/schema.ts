/**
 * Compares two schemas as sets of values. Each difference gets an effect
 * (the head accepts more values: `widened`; fewer: `narrowed`; other ones:
 * `changed`), and the direction of the data decides whether it breaks
 * clients: narrowing what clients send breaks them, widening what they read
 * breaks them. Refs are followed (each pair of named schemas once per
 * comparison, which also ends recursion), unions are matched variant by
 * variant, `null` variants become nullability.
 */
import type { ArraySchema, ObjectSchema, Schema } from '../model/types.js';
import { noteDifferences, type Notes } from './notes.js';
import { isBreaking, type ChangeKind, type DiffChange, type DiffLocation, type Direction, type Effect } from './types.js';

/** Where a comparison runs: the operation and location its changes belong to, and the notes around it. */
export interface Place {
  operationId: string | null;
  location: DiffLocation;
  direction: Direction;
  /** Notes of the enclosing places in the head document, outermost first. */
  chain: Notes[];
}

export type Emit = (place: Place, name: string, kind: ChangeKind, breaking: boolean, message: string) => void;

export class SchemaDiff {
  private readonly visited = new Set<string>();

  constructor(
    private readonly base: ReadonlyMap<string, Schema>,
    private readonly head: ReadonlyMap<string, Schema>,
    private readonly emit: Emit,
  ) {}

  /** Compares the values `a` (base) and `b` (head) found at `path`. */
  compare(place: Place, path: string, a: Schema, b: Schema): void {
    if (a.kind === 'ref' || b.kind === 'ref') {
      // Each pair of named schemas once (this ends recursion); a named schema against an
      // inline one once per path, since inline schemas are finite.
      const both = a.kind === 'ref' && b.kind === 'ref';
      const key = `${place.direction}:${a.kind === 'ref' ? a.name : '-'}>${b.kind === 'ref' ? b.name : '-'}${both ? '' : `@${path}`}`;
      if (this.visited.has(key)) return;
      this.visited.add(key);
      const ra = this.resolve(a, this.base);
      const rb = this.resolve(b, this.head);
      const inner = { ...place, chain: [...place.chain, ...(b.kind === 'ref' ? [this.head.get(b.name)] : [])] };
      if (a.kind === 'ref' && b.kind === 'ref' && a.name === b.name) this.notes(inner, path, this.base.get(a.name), this.head.get(b.name));
      this.compare(inner, path, ra, rb);
      return;
    }
    const fa = this.flatten(a);
    const fb = this.flatten(b);
    if (fa.nullable !== fb.nullable) {
      const added = fb.nullable;
      this.change(place, path, added ? 'nullable-added' : 'nullable-removed', added ? 'widened' : 'narrowed', `${label(place, path)} ${added ? 'may now be null' : 'can no longer be null'}`);
    }
    this.variants(place, path, fa.variants, fb.variants);
  }

  /** Compares notes and deprecation of one place present on both sides. */
  notes(place: Place, path: string, a: Notes, b: Notes): void {
    const what = label(place, path);
    if (!a?.deprecated && b?.deprecated) this.emit(place, path, 'deprecated', false, `${what} is deprecated`);
    if (a?.deprecated && !b?.deprecated) this.emit(place, path, 'undeprecated', false, `${what} is no longer deprecated`);
    const { added, removed } = noteDifferences(a, b);
    for (const note of added) {
      this.emit({ ...place, chain: [{ changes: [note] }] }, path, 'level-note-added', false, `${what}: ${note.change}`);
    }
    for (const note of removed) {
      this.emit(place, path, 'level-note-removed', false, `${what}: note of feature level ${note.level} removed ("${note.change}")`);
    }
  }

  private change(place: Place, path: string, kind: ChangeKind, effect: Effect, message: string): void {
    this.emit(place, path, kind, isBreaking(effect, place.direction), message);
  }

  private resolve(schema: Schema, schemas: ReadonlyMap<string, Schema>): Schema {
    let current = schema;
    const seen = new Set<string>();
    while (current.kind === 'ref') {
      if (seen.has(current.name)) return { kind: 'any' };
      seen.add(current.name);
      const target = schemas.get(current.name);
      if (!target) return { kind: 'any' };
      current = target;
    }
    return current;
  }

  /** Nullability and the non-null alternatives of a schema (unions flattened, refs to unions followed). */
  private flatten(schema: Schema): { nullable: boolean; variants: Schema[] } {
    const variants: Schema[] = [];
    let nullable = false;
    const visit = (s: Schema, depth: number): void => {
      if (s.kind === 'null') nullable = true;
      else if (s.kind === 'union' && depth < 8) s.variants.forEach((v) => visit(v, depth + 1));
      else variants.push(s);
    };
    visit(schema, 0);
    return { nullable, variants };
  }

  private variants(place: Place, path: string, as: Schema[], bs: Schema[]): void {
    if (as.length === 1 && bs.length === 1) {
      this.single(place, path, as[0]!, bs[0]!);
      return;
    }
    const pairs: [Schema, Schema][] = [];
    const leftA = [...as];
    const leftB = [...bs];
    const take = (match: (x: Schema, y: Schema) => boolean, onlyOne: boolean): void => {
      for (const x of [...leftA]) {
        const candidates = leftB.filter((y) => match(x, y));
        if (candidates.length === 0 || (onlyOne && (candidates.length > 1 || leftA.filter((z) => match(z, candidates[0]!)).length > 1))) continue;
        const y = candidates[0]!;
        pairs.push([x, y]);
        leftA.splice(leftA.indexOf(x), 1);
        leftB.splice(leftB.indexOf(y), 1);
      }
    };
    take((x, y) => variantKey(x) === variantKey(y), false);
    take((x, y) => this.kindOf(x, this.base) === this.kindOf(y, this.head), true);
    for (const [x, y] of pairs) this.single(place, path, x, y);
    for (const x of leftA) {
      this.change(place, path, 'variant-removed', 'narrowed', `${label(place, path)} no longer takes the ${describe(x)} alternative`);
    }
    for (const y of leftB) {
      this.change(place, path, 'variant-added', 'widened', `${label(place, path)} gained the ${describe(y)} alternative`);
    }
  }

  private kindOf(schema: Schema, schemas: ReadonlyMap<string, Schema>): string {
    return this.resolve(schema, schemas).kind;
  }

  /** Two non-null alternatives paired with each other. */
  private single(place: Place, path: string, a: Schema, b: Schema): void {
    if (a.kind === 'ref' || b.kind === 'ref') {
      this.compare(place, path, a, b);
      return;
    }
    const what = label(place, path);
    this.extras(place, path, a, b);
    if (a.kind !== b.kind) {
      const effect: Effect =
        b.kind === 'any' || a.kind === 'never' || (a.kind === 'integer' && b.kind === 'number')
          ? 'widened'
          : a.kind === 'any' || b.kind === 'never' || (a.kind === 'number' && b.kind === 'integer')
            ? 'narrowed'
            : 'changed';
      const kind: ChangeKind = effect === 'widened' ? 'type-widened' : effect === 'narrowed' ? 'type-narrowed' : 'type-changed';
      this.change(place, path, kind, effect, `${what} changed type from ${describe(a)} to ${describe(b)}`);
      return;
    }
    switch (a.kind) {
      case 'string':
        if (b.kind !== 'string') return;
        this.values(place, path, allowed(a), allowed(b));
        this.lower(place, path, 'minimum length', a.minLength, b.minLength);
        this.upper(place, path, 'maximum length', a.maxLength, b.maxLength);
        this.optionalText(place, path, 'pattern-changed', 'pattern', a.pattern, b.pattern);
        this.optionalText(place, path, 'format-changed', 'format', a.format, b.format);
        return;
      case 'integer':
      case 'number':
        if (b.kind !== a.kind) return;
        this.values(place, path, allowed(a), allowed(b));
        this.lower(place, path, 'minimum', a.minimum, b.minimum);
        this.upper(place, path, 'maximum', a.maximum, b.maximum);
        this.numericExtras(place, path, a, b);
        this.optionalText(place, path, 'format-changed', 'format', a.format, b.format);
        return;
      case 'boolean':
        if (b.kind !== 'boolean') return;
        this.values(place, path, allowed(a), allowed(b));
        return;
      case 'array':
        if (b.kind !== 'array') return;
        this.array(place, path, a, b);
        return;
      case 'object':
        if (b.kind !== 'object') return;
        this.object(place, path, a, b);
        return;
      case 'any':
        if (b.kind !== 'any') return;
        this.values(place, path, allowed(a), allowed(b));
        return;
      case 'null':
      case 'union':
      case 'never':
        return;
      default:
        // A kind this comparison does not know yet: report any difference, as breaking.
        if (JSON.stringify(a) !== JSON.stringify(b)) this.change(place, path, 'type-changed', 'changed', `${what} changed`);
    }
  }

  /**
   * The values an `enum` or `const` limits a place to, compared as sets: one
   * change per direction, naming the values. A value list that shrinks (also
   * to a single value, which the model reads as a `const`) is one narrowing
   * that names what was removed; one that grows is one widening that names
   * what was added; a constant replaced by another is one change.
   */
  private values(place: Place, path: string, a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): void {
    const what = label(place, path);
    if (a === undefined && b === undefined) return;
    if (a === undefined) {
      const [kind, message]: [ChangeKind, string] = b!.length === 1 ? ['const-changed', `is now always ${list(b!)}`] : ['enum-added', `is now limited to ${list(b!)}`];
      this.change(place, path, kind, 'narrowed', `${what} ${message}`);
      return;
    }
    if (b === undefined) {
      const [kind, message]: [ChangeKind, string] = a.length === 1 ? ['const-changed', `is no longer always ${list(a)}`] : ['enum-removed', `is no longer limited to ${list(a)}`];
      this.change(place, path, kind, 'widened', `${what} ${message}`);
      return;
    }
    const removed = a.filter((v) => !includes(b, v));
    const added = b.filter((v) => !includes(a, v));
    if (a.length === 1 && b.length === 1 && removed.length === 1) {
      this.change(place, path, 'const-changed', 'changed', `${what} changed from ${list(a)} to ${list(b)}`);
      return;
    }
    const rest = b.length === 1 ? `it is now always ${list(b)}` : `it now takes ${list(b)}`;
    if (removed.length > 0) {
      this.change(place, path, 'enum-value-removed', 'narrowed', `${what} lost ${values(removed)}${added.length === 0 ? `; ${rest}` : ''}`);
    }
    if (added.length > 0) {
      this.change(place, path, 'enum-value-added', 'widened', `${what} gained ${values(added)}${removed.length === 0 ? `; ${rest}` : ''}`);
    }
  }

  /** A lower bound: raising it (or adding it) narrows. */
  private lower(place: Place, path: string, name: string, a: number | undefined, b: number | undefined): void {
    if (a === b) return;
    const narrowed = b !== undefined && (a === undefined || b > a);
    this.change(place, path, 'limit-changed', narrowed ? 'narrowed' : 'widened', `${label(place, path)}: ${name} ${bound(a)} -> ${bound(b)}`);
  }

  /** An upper bound: lowering it (or adding it) narrows. */
  private upper(place: Place, path: string, name: string, a: number | undefined, b: number | undefined): void {
    if (a === b) return;
    const narrowed = b !== undefined && (a === undefined || b < a);
    this.change(place, path, 'limit-changed', narrowed ? 'narrowed' : 'widened', `${label(place, path)}: ${name} ${bound(a)} -> ${bound(b)}`);
  }

  /** Bounds and steps some models carry beyond minimum/maximum (read loosely: not every model version has them). */
  private numericExtras(place: Place, path: string, a: Schema, b: Schema): void {
    const num = (s: Schema, key: string): number | undefined => (typeof loose(s)[key] === 'number' ? (loose(s)[key] as number) : undefined);
    this.lower(place, path, 'exclusive minimum', num(a, 'exclusiveMinimum'), num(b, 'exclusiveMinimum'));
    this.upper(place, path, 'exclusive maximum', num(a, 'exclusiveMaximum'), num(b, 'exclusiveMaximum'));
    const [x, y] = [num(a, 'multipleOf'), num(b, 'multipleOf')];
    if (x !== y) {
      // A new step narrows; dropping one widens; another step is both unless it divides the old one.
      const effect: Effect = x === undefined ? 'narrowed' : y === undefined ? 'widened' : Number.isInteger(x / y) ? 'widened' : 'changed';
      this.change(place, path, 'limit-changed', effect, `${label(place, path)}: multiple of ${bound(x)} -> ${bound(y)}`);
    }
  }

  private optionalText(place: Place, path: string, kind: ChangeKind, name: string, a: string | undefined, b: string | undefined): void {
    if (a === b) return;
    const effect: Effect = a === undefined ? 'narrowed' : b === undefined ? 'widened' : 'changed';
    this.change(place, path, kind, effect, `${label(place, path)}: ${name} ${a === undefined ? 'none' : `\`${a}\``} -> ${b === undefined ? 'none' : `\`${b}\``}`);
  }

  private array(place: Place, path: string, a: ArraySchema, b: ArraySchema): void {
    this.lower(place, path, 'minimum items', a.minItems, b.minItems);
    this.upper(place, path, 'maximum items', a.maxItems, b.maxItems);
    if (!a.uniqueItems !== !b.uniqueItems) {
      this.change(place, path, 'limit-changed', b.uniqueItems ? 'narrowed' : 'widened', `${label(place, path)}: items ${b.uniqueItems ? 'must now be unique' : 'need no longer be unique'}`);
    }
    this.optionalShape(place, path, 'contains', a.contains, b.contains);
    this.lower(place, path, 'minimum matching items', a.minContains, b.minContains);
    this.upper(place, path, 'maximum matching items', a.maxContains, b.maxContains);
    const pa = a.prefixItems ?? [];
    const pb = b.prefixItems ?? [];
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      const x = pa[i] ?? a.items;
      const y = pb[i] ?? b.items;
      const at = `${path}[${i}]`;
      if (x && y) this.compare(place, at, x, y);
      else if (x || y) this.change(place, at, x ? 'field-removed' : 'field-added', x ? 'narrowed' : 'widened', `${label(place, at)} ${x ? 'is no longer allowed' : 'is now allowed'}`);
    }
    if (a.items && b.items) this.compare(place, `${path}[]`, a.items, b.items);
    else if (a.items || b.items) {
      this.change(place, `${path}[]`, a.items ? 'field-removed' : 'field-added', a.items ? 'narrowed' : 'widened', `${label(place, path)} ${a.items ? 'no longer takes' : 'now takes'} further items`);
    }
  }

  private object(place: Place, path: string, a: ObjectSchema, b: ObjectSchema): void {
    const inner = (name: string): string => (path === '' ? name : `${path}.${name}`);
    for (const pa of a.properties) {
      const pb = b.properties.find((p) => p.name === pa.name);
      const at = inner(pa.name);
      if (!pb) {
        this.change(place, at, 'field-removed', 'changed', `${label(place, at)} was removed`);
        continue;
      }
      const here = { ...place, chain: [...place.chain, pb.schema] };
      this.notes(here, at, pa.schema, pb.schema);
      if (pa.required && !pb.required) {
        this.change(here, at, 'field-optional', 'widened', `${label(place, at)} is no longer required${place.direction === 'response' ? ' (it may be absent)' : ''}`);
      }
      if (!pa.required && pb.required) this.change(here, at, 'field-required', 'narrowed', `${label(place, at)} is now required`);
      this.compare(here, at, pa.schema, pb.schema);
    }
    for (const pb of b.properties) {
      if (a.properties.some((p) => p.name === pb.name)) continue;
      const at = inner(pb.name);
      const here = { ...place, chain: [...place.chain, pb.schema] };
      // A client that sends nothing new is fine unless the new field is required; a client
      // reading a new field is fine unless the base promised no other keys.
      const breaking = place.direction === 'request' ? pb.required : a.additionalProperties === false;
      this.emit(here, at, 'field-added', breaking, `${label(place, at)} was added${pb.required ? ' (required)' : ''}`);
    }
    this.additional(place, path, a.additionalProperties, b.additionalProperties);
    this.lower(place, path, 'minimum properties', a.minProperties, b.minProperties);
    this.upper(place, path, 'maximum properties', a.maxProperties, b.maxProperties);
    this.optionalText(place, path, 'pattern-changed', 'key pattern', a.propertyNamesPattern, b.propertyNamesPattern);
    this.optionalShape(place, path, 'key schema', a.propertyNames, b.propertyNames);
    const patterns = (o: ObjectSchema) => new Map((o.patternProperties ?? []).map((p) => [p.pattern, p.schema]));
    const [pa, pb] = [patterns(a), patterns(b)];
    for (const [pattern, schema] of pa) {
      const other = pb.get(pattern);
      if (other) this.compare(place, `${path}{${pattern}}`, schema, other);
      else this.change(place, path, 'additional-properties-changed', 'changed', `${label(place, path)}: keys matching \`${pattern}\` are no longer described`);
    }
    for (const pattern of pb.keys()) {
      if (!pa.has(pattern)) this.change(place, path, 'additional-properties-changed', 'changed', `${label(place, path)}: keys matching \`${pattern}\` are now described`);
    }
  }

  /** `allOf` members the model could not merge, and `not`: any difference in what they require. */
  private extras(place: Place, path: string, a: Schema, b: Schema): void {
    this.optionalShape(place, path, 'further constraints (allOf)', a.allOf, b.allOf);
    this.optionalShape(place, path, 'excluded values (not)', a.not, b.not);
  }

  /** A constraint compared as a whole: added narrows, removed widens, changed is both. */
  private optionalShape(place: Place, path: string, name: string, a: unknown, b: unknown): void {
    if (shape(a) === shape(b)) return;
    const effect: Effect = a === undefined ? 'narrowed' : b === undefined ? 'widened' : 'changed';
    const kind: ChangeKind = effect === 'narrowed' ? 'type-narrowed' : effect === 'widened' ? 'type-widened' : 'type-changed';
    this.change(place, path, kind, effect, `${label(place, path)}: ${name} ${a === undefined ? 'added' : b === undefined ? 'removed' : 'changed'}`);
  }

  private additional(place: Place, path: string, a: ObjectSchema['additionalProperties'], b: ObjectSchema['additionalProperties']): void {
    const at = `${path}{}`;
    if (typeof a === 'object' && typeof b === 'object') {
      this.compare(place, at, a, b);
      return;
    }
    if (a === b) return;
    const rank = (v: ObjectSchema['additionalProperties']): number => (v === false ? 0 : v === true ? 2 : 1);
    const effect: Effect = rank(b) > rank(a) ? 'widened' : 'narrowed';
    const say = (v: ObjectSchema['additionalProperties']): string => (v === false ? 'none' : v === true ? 'any' : 'typed');
    this.change(place, path, 'additional-properties-changed', effect, `${label(place, path)}: other keys ${say(a)} -> ${say(b)}`);
  }
}

/** How a place is named in messages. */
export function label(place: Place, path: string): string {
  switch (place.location) {
    case 'response':
      return path === '' ? 'the response body' : `response field \`${path}\``;
    case 'error':
      return `error field \`${path}\``;
    case 'path':
    case 'query':
    case 'body':
      return `parameter \`${path}\``;
    default:
      return path === '' ? 'the operation' : `\`${path}\``;
  }
}

function variantKey(schema: Schema): string {
  return schema.kind === 'ref' ? `ref:${schema.name}` : `kind:${schema.kind}`;
}

function describe(schema: Schema): string {
  if (schema.kind === 'ref') return `\`${schema.name}\``;
  if (schema.kind === 'string' && schema.const !== undefined) return JSON.stringify(schema.const);
  return schema.kind === 'any' ? 'any value' : schema.kind;
}

/** The values an `enum` or `const` allows (a `const` outside its `enum` allows none); `undefined` when neither limits them. */
function allowed(schema: { enum?: readonly unknown[]; const?: unknown }): readonly unknown[] | undefined {
  if (schema.const !== undefined) return schema.enum === undefined || includes(schema.enum, schema.const) ? [schema.const] : [];
  return schema.enum;
}

function includes(values: readonly unknown[], value: unknown): boolean {
  const key = json(value);
  return values.some((v) => json(v) === key);
}

function list(values: readonly unknown[]): string {
  return values.map(json).join(', ');
}

function values(items: readonly unknown[]): string {
  return `the value${items.length === 1 ? '' : 's'} ${list(items)}`;
}

/** Keys that describe and never constrain, left out when constraints are compared as a whole. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'featureLevel', 'changes', 'deprecated', 'unspecified', 'refName', 'names', 'readOnly', 'writeOnly']);

function shape(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => (ANNOTATIONS.has(key) ? undefined : v)) ?? '';
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

function loose(schema: Schema): Record<string, unknown> {
  return schema as unknown as Record<string, unknown>;
}

function bound(value: number | undefined): string {
  return value === undefined ? 'none' : String(value);
}
