/**
 * JSON Schema (as the spec writes it) to model `Schema` nodes. `$ref`s to
 * named schemas stay `ref` nodes; `allOf` of objects is merged into one
 * object; `type: [T, 'null']`, `oneOf` and `anyOf` become unions. Keywords the
 * model cannot carry stop the run instead of being dropped silently.
 */
import { isRecord } from '../load/walk.js';
import { componentName, type BuildContext, type RawNode } from './context.js';
import { deriveNames } from './names.js';
import { presentNotes } from './notes.js';
import type { ObjectSchema, Property, Schema, UnionSchema } from './types.js';

/** Keywords that describe and never constrain; accepted on every schema. */
const ANNOTATIONS = new Set([
  'description', 'title', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', 'default',
  '$comment', 'externalDocs', 'format', 'contentMediaType', 'contentEncoding', 'xml', 'discriminator',
  '$schema', '$id', '$anchor', '$dynamicAnchor', 'contentSchema',
]);

/** Constraining keywords the model carries, per kind. */
const KEYWORDS: Record<string, readonly string[]> = {
  string: ['enum', 'const', 'minLength', 'maxLength', 'pattern'],
  integer: ['enum', 'const', 'minimum', 'maximum'],
  number: ['minimum', 'maximum'],
  boolean: ['const'],
  null: [],
  array: ['items', 'prefixItems', 'minItems', 'maxItems'],
  object: ['properties', 'required', 'additionalProperties', 'propertyNames'],
};

const TYPES = Object.keys(KEYWORDS);

export class SchemaConverter {
  private readonly named = new Map<string, Schema>();
  private readonly converting = new Set<string>();
  /** The raw node each converted schema came from, for locating later failures. */
  readonly raw = new WeakMap<Schema, RawNode>();

  constructor(private readonly ctx: BuildContext) {}

  /** The converted component schema `name`. */
  namedSchema(name: string): Schema {
    const done = this.named.get(name);
    if (done) return done;
    const schemas = this.ctx.document.components;
    const node = isRecord(schemas) && isRecord(schemas.schemas) ? schemas.schemas[name] : undefined;
    if (node === undefined) throw new Error(`no component schema ${name}`);
    if (this.converting.has(name)) this.ctx.fail(node, undefined, `schema \`${name}\` contains itself through allOf`);
    this.converting.add(name);
    const schema = this.convert(node);
    this.converting.delete(name);
    this.named.set(name, schema);
    return schema;
  }

  /** A ref node's target (repeatedly), or the schema itself. */
  resolve(schema: Schema): Schema {
    return schema.kind === 'ref' ? this.resolve(this.namedSchema(schema.name)) : schema;
  }

  /** Converts `node`; `parent` and `key` say where it sits, for errors about the node itself. */
  convert(node: unknown, parent?: unknown, key?: string): Schema {
    if (node === true) return { kind: 'any' };
    if (!isRecord(node)) this.ctx.fail(parent ?? node, key, 'a schema must be an object');
    const schema = this.convertRecord(node);
    this.raw.set(schema, node);
    return schema;
  }

  private convertRecord(node: RawNode): Schema {
    if (typeof node.$ref === 'string') return this.ref(node, node.$ref);
    if (node.allOf !== undefined) return this.allOf(node);
    if (node.oneOf !== undefined || node.anyOf !== undefined) return this.union(node);
    const types = this.types(node);
    if (types.length === 0) return this.base(node, { kind: 'any' });
    if (types.length === 1) return this.single(node, types[0]!, true);
    const union: UnionSchema = this.base(node, { kind: 'union', variants: [] });
    this.checkKeywords(node, types.flatMap((t) => KEYWORDS[t]!));
    union.variants = types.map((t) => this.single(node, t, false));
    return union;
  }

  private ref(node: RawNode, ref: string): Schema {
    const name = componentName(ref, 'schemas');
    this.checkKeywords(node, ['$ref']);
    if (name === undefined) return this.convert(this.ctx.deref(node));
    return this.base(node, { kind: 'ref', name, refName: name });
  }

  /** `type` as a list; inferred from `properties`, `items`, `enum` or `const` when absent. */
  private types(node: RawNode): string[] {
    const type = node.type;
    const list = type === undefined ? [] : Array.isArray(type) ? type : [type];
    for (const t of list) {
      if (typeof t !== 'string' || !TYPES.includes(t)) this.ctx.fail(node, 'type', `unknown type \`${String(t)}\``);
    }
    if (list.length > 0) return list as string[];
    if (node.properties !== undefined || node.additionalProperties !== undefined) return ['object'];
    if (node.items !== undefined || node.prefixItems !== undefined) return ['array'];
    const values = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : [];
    const inferred = [...new Set(values.map(jsonType))];
    if (inferred.length > 1) this.ctx.fail(node, 'enum', 'values of several types need an explicit `type`');
    return inferred;
  }

  private single(node: RawNode, type: string, annotate: boolean): Schema {
    if (annotate) this.checkKeywords(node, KEYWORDS[type]!);
    const schema = this.typed(node, type);
    return annotate ? this.base(node, schema) : schema;
  }

  private typed(node: RawNode, type: string): Schema {
    const values = (Array.isArray(node.enum) ? node.enum : undefined)?.filter((v) => jsonType(v) === type);
    const num = (key: string): number | undefined => this.number(node, key);
    switch (type) {
      case 'string':
        return compact({
          kind: 'string',
          enum: values as string[] | undefined,
          const: typeof node.const === 'string' ? node.const : undefined,
          minLength: num('minLength'),
          maxLength: num('maxLength'),
          pattern: this.pattern(node, 'pattern'),
          format: typeof node.format === 'string' ? node.format : undefined,
        });
      case 'integer':
        return compact({
          kind: 'integer',
          enum: values as number[] | undefined,
          const: typeof node.const === 'number' ? node.const : undefined,
          minimum: num('minimum'),
          maximum: num('maximum'),
        });
      case 'number':
        return compact({ kind: 'number', minimum: num('minimum'), maximum: num('maximum') });
      case 'boolean':
        return compact({ kind: 'boolean', const: typeof node.const === 'boolean' ? node.const : undefined });
      case 'null':
        return { kind: 'null' };
      case 'array':
        return this.array(node);
      default:
        return this.object(node);
    }
  }

  private array(node: RawNode): Schema {
    const prefix = node.prefixItems;
    if (prefix !== undefined && !Array.isArray(prefix)) this.ctx.fail(node, 'prefixItems', '`prefixItems` must be a list');
    const items = node.items;
    if (items === false && prefix === undefined) this.ctx.fail(node, 'items', '`items: false` is only supported after `prefixItems`');
    return compact({
      kind: 'array',
      // `items` absent means anything goes, in a tuple as in a list; `false` means nothing more.
      items: items === false ? undefined : items === undefined ? { kind: 'any' } : this.convert(items, node, 'items'),
      prefixItems: prefix?.map((item: unknown) => this.convert(item, node, 'prefixItems')),
      minItems: this.number(node, 'minItems'),
      maxItems: this.number(node, 'maxItems'),
    });
  }

  private object(node: RawNode, checkRequired = true): ObjectSchema {
    const raw = node.properties ?? {};
    if (!isRecord(raw)) this.ctx.fail(node, 'properties', '`properties` must be a map');
    const required = node.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
      this.ctx.fail(node, 'required', '`required` must be a list of property names');
    }
    const names = deriveNames(Object.keys(raw));
    const properties: Property[] = Object.entries(raw).map(([name, value]) => ({
      name,
      names: names.get(name)!,
      required: required.includes(name),
      schema: this.convert(value, raw, name),
    }));
    const additional = node.additionalProperties;
    const object: ObjectSchema = {
      kind: 'object',
      properties,
      additionalProperties: additional === undefined || additional === true ? true : additional === false ? false : this.convert(additional, node, 'additionalProperties'),
    };
    if (node.propertyNames !== undefined) {
      const names = this.ctx.deref(node.propertyNames);
      if (!isRecord(names) || Object.keys(names).some((k) => k !== 'pattern' && k !== 'type' && !ANNOTATIONS.has(k))) {
        this.ctx.fail(node, 'propertyNames', '`propertyNames` supports only `pattern`');
      }
      const pattern = this.pattern(names, 'pattern');
      if (pattern !== undefined) object.propertyNamesPattern = pattern;
    }
    if (checkRequired) this.checkRequired(node, object, required as string[]);
    return object;
  }

  private checkRequired(node: RawNode, object: ObjectSchema, required: string[]): void {
    const missing = required.find((name) => !object.properties.some((p) => p.name === name));
    if (missing !== undefined) this.ctx.fail(node, 'required', `required property \`${missing}\` is not defined`);
  }

  /** `allOf` of object schemas (and the node's own object keywords) merged into one object. */
  private allOf(node: RawNode): Schema {
    const members = node.allOf;
    if (!Array.isArray(members) || members.length === 0) this.ctx.fail(node, 'allOf', '`allOf` must be a non-empty list');
    this.checkKeywords(node, ['allOf', ...KEYWORDS.object!]);
    if (node.type !== undefined && node.type !== 'object') this.ctx.fail(node, 'type', '`allOf` is supported only for objects');
    const own = { ...node };
    delete own.allOf;
    const parts = [...members.map((m) => this.resolve(this.convert(m, node, 'allOf'))), this.object(own, false)];
    const merged: ObjectSchema = { kind: 'object', properties: [], additionalProperties: true };
    const required = new Set<string>();
    for (const [i, part] of parts.entries()) {
      if (part.kind !== 'object') this.ctx.fail(members[i] ?? node, undefined, '`allOf` members must be object schemas');
      for (const property of part.properties) {
        const index = merged.properties.findIndex((p) => p.name === property.name);
        if (property.required) required.add(property.name);
        if (index < 0) merged.properties.push({ ...property });
        else merged.properties[index] = mergeProperty(merged.properties[index]!, property);
      }
      merged.additionalProperties = mergeAdditional(merged.additionalProperties, part.additionalProperties);
      if (part.propertyNamesPattern !== undefined) merged.propertyNamesPattern = part.propertyNamesPattern;
    }
    const names = deriveNames(merged.properties.map((p) => p.name));
    for (const property of merged.properties) {
      property.required = required.has(property.name);
      property.names = names.get(property.name)!;
    }
    this.checkRequired(node, merged, Array.isArray(node.required) ? (node.required as string[]) : []);
    return this.base(node, merged);
  }

  private union(node: RawNode): Schema {
    const key = node.oneOf !== undefined ? 'oneOf' : 'anyOf';
    if (node.oneOf !== undefined && node.anyOf !== undefined) this.ctx.fail(node, 'anyOf', '`oneOf` and `anyOf` together are not supported');
    const members = node[key];
    if (!Array.isArray(members) || members.length === 0) this.ctx.fail(node, key, `\`${key}\` must be a non-empty list`);
    this.checkKeywords(node, [key, 'discriminator', 'type']);
    const union: UnionSchema = { kind: 'union', variants: members.map((m) => this.convert(m, node, key)) };
    if (node.discriminator !== undefined) union.discriminator = this.discriminator(node, union.variants);
    return this.base(node, union);
  }

  /** Discriminator value -> schema name, from `mapping` or from each variant's `const`. */
  private discriminator(node: RawNode, variants: Schema[]): UnionSchema['discriminator'] {
    const spec = node.discriminator;
    if (!isRecord(spec) || typeof spec.propertyName !== 'string') {
      this.ctx.fail(node, 'discriminator', '`discriminator` needs a `propertyName`');
    }
    const propertyName = spec.propertyName;
    const mapping: Record<string, string> = {};
    if (isRecord(spec.mapping)) {
      for (const [value, ref] of Object.entries(spec.mapping)) {
        const name = typeof ref === 'string' ? componentName(ref, 'schemas') : undefined;
        if (name === undefined) this.ctx.fail(spec, 'mapping', `mapping \`${value}\` must reference a component schema`);
        mapping[value] = name;
      }
      return { propertyName, mapping };
    }
    for (const variant of variants) {
      const target = variant.kind === 'ref' ? this.resolve(variant) : undefined;
      const property = target?.kind === 'object' ? target.properties.find((p) => p.name === propertyName) : undefined;
      const value = property && this.resolve(property.schema);
      if (variant.kind !== 'ref' || value?.kind !== 'string' || value.const === undefined) {
        this.ctx.fail(node, 'discriminator', `every variant must be a named schema with a \`const\` \`${propertyName}\``);
      }
      mapping[value.const] = variant.name;
    }
    return { propertyName, mapping };
  }

  private checkKeywords(node: RawNode, allowed: readonly string[]): void {
    for (const key of Object.keys(node)) {
      if (key.startsWith('x-') || ANNOTATIONS.has(key) || key === 'type' || allowed.includes(key)) continue;
      this.ctx.fail(node, key, `schema keyword \`${key}\` is not supported here`);
    }
  }

  private number(node: RawNode, key: string): number | undefined {
    const value = node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number') this.ctx.fail(node, key, `\`${key}\` must be a number`);
    return value;
  }

  private pattern(node: RawNode, key: string): string | undefined {
    const value = node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') this.ctx.fail(node, key, `\`${key}\` must be text`);
    try {
      new RegExp(value, 'u');
    } catch (error) {
      this.ctx.fail(node, key, `\`${key}\` is not a valid regular expression: ${(error as Error).message}`);
    }
    return value;
  }

  /** Adds description, examples and feature-level notes of `node` to `schema`. */
  private base<T extends Schema>(node: RawNode, schema: T): T {
    if (typeof node.description === 'string') schema.description = node.description;
    const examples = Array.isArray(node.examples) ? node.examples : node.example !== undefined ? [node.example] : undefined;
    if (examples) schema.examples = examples;
    Object.assign(schema, presentNotes(node));
    return schema;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Drops keys whose value is undefined, so model records hold only what the spec says. */
function compact<T extends object>(record: T): T {
  for (const key of Object.keys(record) as (keyof T)[]) {
    if (record[key] === undefined) delete record[key];
  }
  return record;
}

/** A later `allOf` member narrows a property; descriptions fall back to the earlier one. */
function mergeProperty(earlier: Property, later: Property): Property {
  const schema = { ...later.schema };
  if (schema.description === undefined && earlier.schema.description !== undefined) schema.description = earlier.schema.description;
  return { ...later, schema };
}

function mergeAdditional(a: ObjectSchema['additionalProperties'], b: ObjectSchema['additionalProperties']): ObjectSchema['additionalProperties'] {
  if (a === false || b === false) return false;
  return a === true ? b : a;
}
