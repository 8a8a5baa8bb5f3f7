/**
 * JSON Schema 2020-12 (as OpenAPI 3.1 uses it; 3.0 was normalised by the
 * loader) to model `Schema` nodes.
 *
 * - `$ref`s to named schemas stay `ref` nodes, so recursion is free.
 * - `allOf` members are intersected: objects merge into one object whose
 *   properties are every member's (a property listed twice gets the
 *   intersection of both schemas, so a re-listed `{}` keeps the base
 *   schema), scalars of one kind merge their limits (an `enum` narrowing a
 *   referenced string), and what cannot merge is kept in `allOf` for the
 *   targets to check after the node's own keywords.
 * - `oneOf`/`anyOf` and `type` lists become unions; a discriminator (written,
 *   or found when every variant pins one required property to distinct
 *   constants) lets targets dispatch instead of trying each variant.
 * - A construct the model cannot express degrades to "anything" with a
 *   warning naming file and line; a valid document never fails here.
 */
import { isRecord } from '../load/walk.js';
import { componentName, type BuildContext, type RawNode } from './context.js';
import { deriveNames } from './names.js';
import { presentNotes } from './notes.js';
import type { ArraySchema, IntegerSchema, NumberSchema, ObjectSchema, Property, Schema, StringSchema, UnionSchema } from './types.js';

/** Keywords that describe and never constrain. */
const ANNOTATIONS = new Set([
  'description', 'title', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', 'default',
  '$comment', 'externalDocs', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema', 'xml', 'discriminator',
  '$schema', '$id', '$anchor', '$dynamicAnchor', '$defs', 'definitions', 'nullable', '$vocabulary',
]);

/** Keywords that constrain values of one type. */
const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties'],
};

/** Keywords of JSON Schema the model does not carry: ignored with a warning. */
const UNSUPPORTED = ['if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'dependencies', 'unevaluatedItems', '$dynamicRef', '$recursiveRef', 'additionalItems'];

const TYPES = ['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'];

/** The flags a schema pattern compiles with: none (plain ECMA-262), or `u` when it needs Unicode mode. */
export function patternFlags(pattern: string): '' | 'u' {
  if (/\\[pP]\{|\\u\{/.test(pattern)) return 'u';
  try {
    new RegExp(pattern);
    return '';
  } catch {
    return 'u';
  }
}

export class SchemaConverter {
  private readonly named = new Map<string, Schema>();
  private readonly converting = new Set<string>();
  private readonly convertingNodes = new Set<object>();
  /** The raw node each converted schema came from, for locating later failures. */
  readonly raw = new WeakMap<Schema, RawNode>();

  constructor(private readonly ctx: BuildContext) {}

  /** The converted component schema `name` (a `ref` to itself while it is being converted). */
  namedSchema(name: string): Schema {
    const done = this.named.get(name);
    if (done) return done;
    if (this.converting.has(name)) return { kind: 'ref', name };
    const schemas = this.ctx.document.components;
    const node = isRecord(schemas) && isRecord(schemas.schemas) ? schemas.schemas[name] : undefined;
    if (node === undefined) throw new Error(`no component schema ${name}`);
    this.converting.add(name);
    const schema = this.convert(node);
    this.converting.delete(name);
    this.named.set(name, schema);
    return schema;
  }

  /** A ref node's target (repeatedly), or the schema itself. */
  resolve(schema: Schema): Schema {
    const seen = new Set<string>();
    let current = schema;
    while (current.kind === 'ref' && !seen.has(current.name)) {
      seen.add(current.name);
      current = this.namedSchema(current.name);
    }
    return current.kind === 'ref' ? { kind: 'any' } : current;
  }

  /** Converts `node`; `parent` and `key` say where it sits, for errors about the node itself. */
  convert(node: unknown, parent?: unknown, key?: string): Schema {
    if (node === true) return { kind: 'any' };
    if (node === false) return { kind: 'never' };
    if (node === null) {
      // Where a missing schema plainly means "any value", the loader already read `null` so (load/near-miss.ts).
      this.ctx.fail(parent ?? node, key, 'a schema must be an object or a boolean, not null (here null could mean the value null, `{type: "null"}`, or any value, `{}`: write the one meant)');
    }
    if (!isRecord(node)) this.ctx.fail(parent ?? node, key, 'a schema must be an object or a boolean');
    const schema = this.convertRecord(node);
    if (!this.raw.has(schema)) this.raw.set(schema, node);
    return schema;
  }

  private convertRecord(node: RawNode): Schema {
    this.warnUnsupported(node);
    if (typeof node.$ref === 'string') return this.ref(node, node.$ref);

    const parts: Schema[] = [];
    const own = this.own(node);
    if (own !== undefined) parts.push(own);
    if (node.allOf !== undefined) {
      const members = this.list(node, 'allOf');
      parts.push(...members.map((m) => this.convert(m, node, 'allOf')));
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      if (node[key] !== undefined) parts.push(this.union(node, key));
    }
    let schema = this.intersectAll(parts, node);
    if (node.unevaluatedProperties === false && schema.kind === 'object') {
      // What authors mean by it on a composed object: no keys beyond every member's properties.
      schema = { ...schema, additionalProperties: false };
    } else if (node.unevaluatedProperties !== undefined) {
      this.ctx.warn(node, 'unevaluatedProperties', '`unevaluatedProperties` is not checked');
    }
    if (node.not !== undefined) {
      const not = this.convert(node.not, node, 'not');
      if (schema.not === undefined) schema.not = not;
      else schema.allOf = [...(schema.allOf ?? []), { kind: 'any', not }];
    }
    return this.base(node, schema);
  }

  private ref(node: RawNode, ref: string): Schema {
    const name = componentName(ref, 'schemas');
    const constraining = Object.keys(node).filter((k) => k !== '$ref' && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
    let target: Schema;
    if (name !== undefined) {
      target = { kind: 'ref', name, refName: name };
    } else {
      const resolved = this.ctx.deref(node);
      if (this.convertingNodes.has(resolved as object)) {
        this.ctx.warn(node, '$ref', `\`${ref}\` refers to itself through a path the model cannot name; it accepts any value there`);
        target = { kind: 'any' };
      } else {
        this.convertingNodes.add(resolved as object);
        target = this.convert(resolved);
        this.convertingNodes.delete(resolved as object);
        target = { ...target };
      }
    }
    if (constraining.length === 0) return this.base(node, target);
    // 3.1 lets `$ref` have siblings: they constrain too, as if in an `allOf`.
    const rest: RawNode = {};
    for (const key of Object.keys(node)) if (key !== '$ref') rest[key] = node[key];
    this.ctx.sources.alias(rest, node);
    return this.base(node, this.intersect(target, this.convertRecord(rest), node));
  }

  private list(node: RawNode, key: string): unknown[] {
    const value = node[key];
    if (!Array.isArray(value)) this.ctx.fail(node, key, `\`${key}\` must be a list of schemas`);
    return value;
  }

  /** The node's own type and type keywords, or undefined when they constrain nothing. */
  private own(node: RawNode): Schema | undefined {
    const type = node.type;
    let types: string[];
    if (type === undefined) {
      types = this.inferTypes(node);
      if (types.length === 0) return this.valueList(node);
      const inferred = this.typed(node, types[0]!);
      if (inferred.kind !== 'never') inferred.implied = true;
      return inferred;
    } else {
      const list = Array.isArray(type) ? type : [type];
      types = [];
      for (const t of list) {
        if (typeof t === 'string' && TYPES.includes(t)) types.push(t);
        else if (typeof t === 'string') this.ctx.warn(node, 'type', `unknown type \`${t}\`: values of that type are not checked`);
        else this.ctx.warn(node, 'type', `\`type\` holds ${t === null ? 'null' : Array.isArray(t) ? 'a list' : typeof t === 'object' ? 'an object' : `\`${String(t)}\``}, not a type name: it is not checked`);
      }
      if (types.length === 0) return undefined;
    }
    const variants = types.map((t) => this.typed(node, t)).filter((s) => s.kind !== 'never');
    if (variants.length === 0) return { kind: 'never' };
    if (variants.length === 1) return variants[0]!;
    return { kind: 'union', variants };
  }

  /** `type` inferred from keywords of one type; enum/const values decide in `valueList`. */
  private inferTypes(node: RawNode): string[] {
    for (const t of ['object', 'array', 'string', 'number'] as const) {
      if (TYPE_KEYWORDS[t]!.some((k) => node[k] !== undefined)) {
        // Authors who list properties without `type` mean an object (ajv would also pass other types).
        return [t];
      }
    }
    return [];
  }

  /** `enum`/`const` without `type`: typed by its values. */
  private valueList(node: RawNode): Schema | undefined {
    const values = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
    if (values === undefined) return undefined;
    if (values.length === 0) return { kind: 'never' };
    const kinds = [...new Set(values.map(jsonType))];
    if (kinds.includes('object') || kinds.includes('array')) {
      return node.const !== undefined ? { kind: 'any', const: node.const } : { kind: 'any', enum: values };
    }
    const types = kinds.includes('number') ? kinds.filter((k) => k !== 'integer') : kinds;
    const variants = types.map((t) => this.typed(node, t));
    return variants.length === 1 ? variants[0]! : { kind: 'union', variants };
  }

  /** One typed schema for `type` (of possibly several), with the node's keywords for that type. */
  private typed(node: RawNode, type: string): Schema {
    const accepts = (v: unknown): boolean => {
      const t = jsonType(v);
      return t === type || (type === 'number' && t === 'integer');
    };
    const enumValues = Array.isArray(node.enum) ? node.enum.filter(accepts) : undefined;
    if (enumValues !== undefined && enumValues.length === 0) return { kind: 'never' };
    const hasConst = node.const !== undefined;
    if (hasConst && !accepts(node.const)) return { kind: 'never' };
    const num = (key: string): number | undefined => this.number(node, key);
    switch (type) {
      case 'string':
        // A one-value enum (how 3.0 documents write a constant) is that constant.
        return compact<StringSchema>({
          kind: 'string',
          enum: enumValues !== undefined && enumValues.length > 1 ? (enumValues as string[]) : undefined,
          const: hasConst ? (node.const as string) : enumValues?.length === 1 ? (enumValues[0] as string) : undefined,
          minLength: num('minLength'),
          maxLength: num('maxLength'),
          pattern: this.pattern(node, 'pattern'),
          format: typeof node.format === 'string' ? node.format : undefined,
        });
      case 'integer':
      case 'number':
        return compact<IntegerSchema | NumberSchema>({
          kind: type,
          enum: enumValues as number[] | undefined,
          const: hasConst ? (node.const as number) : undefined,
          minimum: num('minimum'),
          maximum: num('maximum'),
          exclusiveMinimum: num('exclusiveMinimum'),
          exclusiveMaximum: num('exclusiveMaximum'),
          multipleOf: this.multipleOf(node),
          format: typeof node.format === 'string' ? node.format : undefined,
        });
      case 'boolean': {
        if (enumValues !== undefined && enumValues.length === 1) return { kind: 'boolean', const: enumValues[0] as boolean };
        return compact({ kind: 'boolean' as const, const: hasConst ? (node.const as boolean) : undefined });
      }
      case 'null':
        return { kind: 'null' };
      default: {
        const schema = type === 'array' ? this.array(node) : this.object(node);
        const values = hasConst ? { const: node.const } : enumValues !== undefined ? { enum: enumValues } : undefined;
        if (values !== undefined) schema.allOf = [{ kind: 'any', ...values }];
        return schema;
      }
    }
  }

  private array(node: RawNode): ArraySchema {
    let prefix = node.prefixItems;
    let items = node.items;
    if (Array.isArray(items)) {
      // The draft-2019 tuple form.
      prefix = items;
      items = node.additionalItems;
    }
    if (prefix !== undefined && !Array.isArray(prefix)) this.ctx.fail(node, 'prefixItems', '`prefixItems` must be a list');
    const schema = compact<ArraySchema>({
      kind: 'array',
      // `items` absent means anything goes, in a tuple as in a list; `false` means nothing more.
      items: items === false && prefix !== undefined ? undefined : items === undefined ? { kind: 'any' } : this.convert(items, node, 'items'),
      prefixItems: (prefix as unknown[] | undefined)?.map((item) => this.convert(item, node, 'prefixItems')),
      minItems: this.number(node, 'minItems'),
      maxItems: this.number(node, 'maxItems'),
      uniqueItems: node.uniqueItems === true ? true : undefined,
      contains: node.contains === undefined ? undefined : this.convert(node.contains, node, 'contains'),
      minContains: node.contains === undefined ? undefined : this.number(node, 'minContains'),
      maxContains: node.contains === undefined ? undefined : this.number(node, 'maxContains'),
    });
    return schema;
  }

  private object(node: RawNode): ObjectSchema {
    const raw = node.properties ?? {};
    if (!isRecord(raw)) this.ctx.fail(node, 'properties', '`properties` must be a map');
    const required = node.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
      this.ctx.fail(node, 'required', '`required` must be a list of property names');
    }
    const listed = Object.keys(raw);
    // A required key without a schema of its own must be present, with any value.
    const unlisted = (required as string[]).filter((name, i) => !listed.includes(name) && required.indexOf(name) === i);
    const names = deriveNames([...listed, ...unlisted]);
    const properties: Property[] = [
      ...Object.entries(raw).map(([name, value]) => ({
        name,
        names: names.get(name)!,
        required: required.includes(name),
        schema: this.convert(value, raw, name),
      })),
      ...unlisted.map((name): Property => ({ name, names: names.get(name)!, required: true, schema: { kind: 'any' } })),
    ];
    const additional = node.additionalProperties;
    const object: ObjectSchema = {
      kind: 'object',
      properties,
      additionalProperties: additional === undefined || additional === true ? true : additional === false ? false : this.convert(additional, node, 'additionalProperties'),
    };
    if (node.patternProperties !== undefined) {
      const patterns = node.patternProperties;
      if (!isRecord(patterns)) this.ctx.fail(node, 'patternProperties', '`patternProperties` must be a map');
      const list: { pattern: string; schema: Schema }[] = [];
      for (const [pattern, value] of Object.entries(patterns)) {
        if (!this.validPattern(pattern, patterns, pattern)) continue;
        list.push({ pattern, schema: this.convert(value, patterns, pattern) });
      }
      if (list.length > 0) object.patternProperties = list;
    }
    if (node.propertyNames !== undefined) {
      const names = this.convert(node.propertyNames, node, 'propertyNames');
      // Property names are strings: a type inferred from string keywords is no looser than a written one.
      if (names.kind === 'string') delete names.implied;
      const onlyPattern = names.kind === 'string' && names.pattern !== undefined && Object.keys(names).every((k) => ['kind', 'pattern', 'description', 'format'].includes(k));
      if (onlyPattern) object.propertyNamesPattern = (names as StringSchema).pattern!;
      else if (names.kind !== 'any' || !isUnconstrained(names)) object.propertyNames = names;
    }
    const min = this.number(node, 'minProperties');
    const max = this.number(node, 'maxProperties');
    if (min !== undefined) object.minProperties = min;
    if (max !== undefined) object.maxProperties = max;
    return object;
  }

  private union(node: RawNode, key: 'oneOf' | 'anyOf'): Schema {
    const members = this.list(node, key);
    if (members.length === 0) return { kind: 'never' };
    const variants = members.map((m) => this.convert(m, node, key));
    if (variants.length === 1) return variants[0]!;
    const union: UnionSchema = { kind: 'union', variants };
    if (key === 'oneOf') union.exclusive = true;
    const discriminator =
      node.discriminator !== undefined ? this.discriminator(node, variants) : this.implicitDiscriminator(variants);
    if (discriminator !== undefined) union.discriminator = discriminator;
    return union;
  }

  /** Discriminator value -> schema name, from `mapping`, each variant's `const`, or its name. */
  private discriminator(node: RawNode, variants: Schema[]): UnionSchema['discriminator'] {
    const spec = node.discriminator;
    if (!isRecord(spec) || typeof spec.propertyName !== 'string') {
      this.ctx.warn(node, 'discriminator', '`discriminator` needs a `propertyName`; ignored');
      return undefined;
    }
    const propertyName = spec.propertyName;
    const mapping: Record<string, string> = {};
    const mapped = new Set<string>();
    if (isRecord(spec.mapping)) {
      for (const [value, ref] of Object.entries(spec.mapping)) {
        const name = typeof ref !== 'string' ? undefined : ref.startsWith('#') ? componentName(ref, 'schemas') : ref.replace(/\.(ya?ml|json)$/, '').split('/').pop();
        if (name === undefined || !variants.some((v) => variantName(v) === name)) {
          this.ctx.warn(spec, 'mapping', `discriminator mapping \`${value}\` names no variant of this union; ignored`);
          continue;
        }
        mapping[value] = name;
        mapped.add(name);
      }
    }
    for (const variant of variants) {
      const name = variantName(variant);
      if (name === undefined) return this.implicitDiscriminator(variants);
      if (mapped.has(name)) continue;
      const pinned = this.pinned(variant, propertyName);
      mapping[pinned ?? name] = name;
    }
    return { propertyName, mapping };
  }

  /** A discriminator the variants imply: one required property each pins to a distinct string. */
  private implicitDiscriminator(variants: Schema[]): UnionSchema['discriminator'] {
    if (variants.length < 3) return undefined;
    const first = this.safeResolve(variants[0]!);
    if (first?.kind !== 'object') return undefined;
    for (const property of first.properties) {
      if (!property.required) continue;
      const mapping: Record<string, string> = {};
      let ok = true;
      for (const variant of variants) {
        const name = variantName(variant);
        const tag = this.pinned(variant, property.name, true);
        if (name === undefined || tag === undefined || mapping[tag] !== undefined) {
          ok = false;
          break;
        }
        mapping[tag] = name;
      }
      if (ok) return { propertyName: property.name, mapping, implicit: true };
    }
    return undefined;
  }

  /** The one string a variant's property must be, if it pins one. */
  private pinned(variant: Schema, propertyName: string, mustBeRequired = false): string | undefined {
    const target = this.safeResolve(variant);
    if (target?.kind !== 'object') return undefined;
    const property = target.properties.find((p) => p.name === propertyName);
    if (property === undefined || (mustBeRequired && !property.required)) return undefined;
    const value = this.safeResolve(property.schema);
    if (value?.kind !== 'string' || value.allOf !== undefined || value.not !== undefined) return undefined;
    if (value.const !== undefined) return value.const;
    return value.enum?.length === 1 ? value.enum[0] : undefined;
  }

  /** `resolve`, except through a schema being converted right now (recursion): undefined. */
  private safeResolve(schema: Schema): Schema | undefined {
    const seen = new Set<string>();
    let current = schema;
    while (current.kind === 'ref') {
      if (seen.has(current.name) || this.converting.has(current.name)) return undefined;
      seen.add(current.name);
      current = this.namedSchema(current.name);
    }
    return current;
  }

  private intersectAll(parts: Schema[], node: RawNode): Schema {
    if (parts.length === 0) return { kind: 'any' };
    let result = parts[0]!;
    for (const part of parts.slice(1)) result = this.intersect(result, part, node);
    return result;
  }

  /**
   * A schema for values valid against both `a` and `b` (`b` later, so its
   * annotations win). Annotation-only schemas lend their annotations; merged
   * members lend theirs only when `inherit` (a property re-listed in a later
   * member keeps the earlier description), not to a composed whole, whose
   * annotations are its own node's.
   */
  intersect(a: Schema, b: Schema, node: RawNode, inherit = false): Schema {
    if (isUnconstrained(b)) return annotate({ ...a }, b);
    if (isUnconstrained(a)) return annotate({ ...b }, a, true);
    if (a.kind === 'never' || b.kind === 'never') return { kind: 'never' };
    if (a.kind === 'ref' && b.kind === 'ref' && a.name === b.name) return annotate({ ...a }, b);
    const ra = this.safeResolve(a);
    const rb = this.safeResolve(b);
    if (ra === undefined || rb === undefined) return keepBoth(a, b);
    // `type: object` beside a union of objects (a discriminated `oneOf`) says nothing more.
    if (isPlainObject(ra) && this.allObjects(rb)) return annotate({ ...b }, a, true);
    if (isPlainObject(rb) && this.allObjects(ra)) return annotate({ ...a }, b);
    const merged = ra.kind === 'object' && rb.kind === 'object' ? this.mergeObjects(ra, rb, node) : mergeScalars(ra, rb);
    if (merged === undefined) return keepBoth(a, b);
    // Other types pass only when neither side wrote its type.
    if (ra.implied === true && rb.implied === true) merged.implied = true;
    else delete merged.implied;
    merged.allOf = concat(ra.allOf, rb.allOf);
    if (merged.allOf === undefined) delete merged.allOf;
    if (ra.not !== undefined && rb.not !== undefined) merged.allOf = [...(merged.allOf ?? []), { kind: 'any', not: rb.not }];
    const not = ra.not ?? rb.not;
    if (not !== undefined) merged.not = not;
    else delete merged.not;
    if (inherit) {
      annotate(merged, ra, true);
      annotate(merged, rb);
    }
    delete merged.refName;
    return merged;
  }

  /** Whether every value `schema` accepts is an object (a union of object schemas). */
  private allObjects(schema: Schema): boolean {
    if (schema.kind !== 'union') return false;
    return schema.variants.every((v) => this.safeResolve(v)?.kind === 'object');
  }

  private mergeObjects(a: ObjectSchema, b: ObjectSchema, node: RawNode): ObjectSchema {
    const properties: Property[] = a.properties.map((p) => ({ ...p }));
    for (const property of b.properties) {
      const index = properties.findIndex((p) => p.name === property.name);
      if (index < 0) {
        properties.push({ ...property });
        continue;
      }
      const earlier = properties[index]!;
      properties[index] = { ...earlier, required: earlier.required || property.required, schema: this.intersect(earlier.schema, property.schema, node, true) };
    }
    const names = deriveNames(properties.map((p) => p.name));
    for (const property of properties) property.names = names.get(property.name)!;
    const merged: ObjectSchema = { kind: 'object', properties, additionalProperties: this.mergeAdditional(a.additionalProperties, b.additionalProperties, node) };
    const patterns = concat(a.patternProperties, b.patternProperties);
    if (patterns !== undefined) merged.patternProperties = patterns;
    const pattern = b.propertyNamesPattern ?? a.propertyNamesPattern;
    if (pattern !== undefined) merged.propertyNamesPattern = pattern;
    if (a.propertyNames !== undefined && b.propertyNames !== undefined) merged.propertyNames = this.intersect(a.propertyNames, b.propertyNames, node);
    else if (a.propertyNames ?? b.propertyNames) merged.propertyNames = (a.propertyNames ?? b.propertyNames)!;
    if (a.propertyNamesPattern !== undefined && b.propertyNamesPattern !== undefined && a.propertyNamesPattern !== b.propertyNamesPattern) {
      merged.propertyNames = { kind: 'string', pattern: a.propertyNamesPattern };
    }
    const min = maxOf(a.minProperties, b.minProperties);
    const max = minOf(a.maxProperties, b.maxProperties);
    if (min !== undefined) merged.minProperties = min;
    if (max !== undefined) merged.maxProperties = max;
    return merged;
  }

  private mergeAdditional(a: ObjectSchema['additionalProperties'], b: ObjectSchema['additionalProperties'], node: RawNode): ObjectSchema['additionalProperties'] {
    if (a === false || b === false) return false;
    if (a === true) return b;
    if (b === true) return a;
    return this.intersect(a, b, node);
  }

  private warnUnsupported(node: RawNode): void {
    // An indexed loop: run for every schema node, mostly before V8 optimizes it, where `for...of` makes an iterator and a result per step.
    for (let i = 0; i < UNSUPPORTED.length; i++) {
      const key = UNSUPPORTED[i]!;
      if (node[key] !== undefined && !(key === 'additionalItems' && Array.isArray(node.items))) {
        this.ctx.warn(node, key, `schema keyword \`${key}\` is not checked`);
      }
    }
  }

  private number(node: RawNode, key: string): number | undefined {
    const value = node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.ctx.fail(node, key, `\`${key}\` must be a number`);
    return value;
  }

  private multipleOf(node: RawNode): number | undefined {
    const value = this.number(node, 'multipleOf');
    if (value !== undefined && value <= 0) this.ctx.fail(node, 'multipleOf', '`multipleOf` must be greater than 0');
    return value;
  }

  private pattern(node: RawNode, key: string): string | undefined {
    const value = node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') this.ctx.fail(node, key, `\`${key}\` must be text`);
    return this.validPattern(value, node, key) ? value : undefined;
  }

  /** Whether a pattern compiles as ECMA-262 (plain, or in Unicode mode); if not, a warning and no check. */
  private validPattern(pattern: string, node: RawNode, key: string): boolean {
    try {
      new RegExp(pattern, patternFlags(pattern));
      return true;
    } catch (error) {
      this.ctx.warn(node, key, `pattern ${JSON.stringify(pattern)} is not a valid ECMA-262 regular expression (${(error as Error).message}); it is not checked`);
      return false;
    }
  }

  /** Adds description, examples and other annotations of `node` to `schema`. */
  private base<T extends Schema>(node: RawNode, schema: T): T {
    if (typeof node.description === 'string') schema.description = node.description;
    if (typeof node.title === 'string') schema.title = node.title;
    if (node.readOnly === true) schema.readOnly = true;
    if (node.writeOnly === true) schema.writeOnly = true;
    const examples = Array.isArray(node.examples) ? node.examples : node.example !== undefined ? [node.example] : undefined;
    if (examples) schema.examples = examples;
    Object.assign(schema, presentNotes(node));
    return schema;
  }
}

/** The component name a union variant stands for. */
function variantName(variant: Schema): string | undefined {
  return variant.kind === 'ref' ? variant.name : variant.refName;
}

/** A schema that accepts every value (it may still describe it). */
export function isUnconstrained(schema: Schema): boolean {
  return schema.kind === 'any' && schema.enum === undefined && schema.const === undefined && schema.allOf === undefined && schema.not === undefined;
}

const ANNOTATION_FIELDS = ['description', 'title', 'examples', 'readOnly', 'writeOnly', 'deprecated', 'featureLevel', 'changes', 'unspecified'] as const;

/** Copies annotations of `from` onto `to`; earlier (`under`) ones only where `to` has none. */
function annotate<T extends Schema>(to: T, from: Schema, under = false): T {
  const target = to as unknown as Record<string, unknown>;
  const source = from as unknown as Record<string, unknown>;
  for (const key of ANNOTATION_FIELDS) {
    if (source[key] === undefined) continue;
    if (under && target[key] !== undefined) continue;
    target[key] = source[key];
  }
  return to;
}

/** `type: object` and nothing else. */
function isPlainObject(schema: Schema): boolean {
  return (
    schema.kind === 'object' &&
    schema.properties.length === 0 &&
    schema.additionalProperties === true &&
    Object.keys(schema).every((k) => ['kind', 'properties', 'additionalProperties'].includes(k) || ANNOTATION_FIELDS.includes(k as never))
  );
}

function keepBoth(a: Schema, b: Schema): Schema {
  return { ...a, allOf: [...(a.allOf ?? []), b] };
}

/** Two schemas of one scalar kind (or integer and number) as one, or undefined. */
function mergeScalars(a: Schema, b: Schema): Schema | undefined {
  if (a.kind === 'string' && b.kind === 'string') {
    const merged: StringSchema = compact({
      kind: 'string' as const,
      enum: intersectValues(a.enum, b.enum),
      const: b.const ?? a.const,
      minLength: maxOf(a.minLength, b.minLength),
      maxLength: minOf(a.maxLength, b.maxLength),
      pattern: b.pattern ?? a.pattern,
      format: b.format ?? a.format,
    });
    if (a.const !== undefined && b.const !== undefined && a.const !== b.const) return { kind: 'never' };
    if (merged.const !== undefined && merged.enum !== undefined) {
      if (!merged.enum.includes(merged.const)) return { kind: 'never' };
      delete merged.enum;
    }
    if (a.pattern !== undefined && b.pattern !== undefined && a.pattern !== b.pattern) merged.allOf = [{ kind: 'string', pattern: a.pattern }];
    return merged;
  }
  const numeric = (s: Schema): s is IntegerSchema | NumberSchema => s.kind === 'integer' || s.kind === 'number';
  if (numeric(a) && numeric(b)) {
    if (a.const !== undefined && b.const !== undefined && a.const !== b.const) return { kind: 'never' };
    const merged = compact<IntegerSchema | NumberSchema>({
      kind: a.kind === 'integer' || b.kind === 'integer' ? 'integer' : 'number',
      enum: intersectValues(a.enum, b.enum),
      const: b.const ?? a.const,
      minimum: maxOf(a.minimum, b.minimum),
      maximum: minOf(a.maximum, b.maximum),
      exclusiveMinimum: maxOf(a.exclusiveMinimum, b.exclusiveMinimum),
      exclusiveMaximum: minOf(a.exclusiveMaximum, b.exclusiveMaximum),
      multipleOf: b.multipleOf ?? a.multipleOf,
      format: b.format ?? a.format,
    });
    if (merged.const !== undefined && merged.enum !== undefined) {
      if (!merged.enum.includes(merged.const)) return { kind: 'never' };
      delete merged.enum;
    }
    if (a.multipleOf !== undefined && b.multipleOf !== undefined && a.multipleOf !== b.multipleOf) {
      merged.allOf = [{ kind: 'number', multipleOf: a.multipleOf }];
    }
    return merged;
  }
  if (a.kind === 'boolean' && b.kind === 'boolean') {
    if (a.const !== undefined && b.const !== undefined && a.const !== b.const) return { kind: 'never' };
    return compact({ kind: 'boolean' as const, const: b.const ?? a.const });
  }
  if (a.kind === 'null' && b.kind === 'null') return { kind: 'null' };
  if (a.kind === 'array' && b.kind === 'array' && isUnconstrainedArray(a)) return { ...b };
  if (a.kind === 'array' && b.kind === 'array' && isUnconstrainedArray(b)) return { ...a };
  return undefined;
}

function isUnconstrainedArray(schema: ArraySchema): boolean {
  return Object.keys(schema).every((k) => k === 'kind' || (k === 'items' && schema.items !== undefined && isUnconstrained(schema.items)) || ANNOTATION_FIELDS.includes(k as never));
}

function intersectValues<T>(a: T[] | undefined, b: T[] | undefined): T[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.filter((v) => a.includes(v));
}

function maxOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

function minOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

function concat<T>(a: T[] | undefined, b: T[] | undefined): T[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return [...a, ...b];
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

