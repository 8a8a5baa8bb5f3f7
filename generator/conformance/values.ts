/**
 * fast-check arbitraries of values a schema accepts: formats, patterns,
 * bounds, enums, unions, required and optional properties. Built per schema
 * node and cached, so a run makes each arbitrary once. What the generator
 * cannot aim at exactly (`not`, unmerged `allOf` members, `uniqueItems` of
 * objects) the request decoders filter out afterwards.
 */
import fc from 'fast-check';
import type { ApiModel, ObjectSchema, Schema } from '../model/types.js';

const MAX_DEPTH = 5;
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** Text mostly of printable ASCII, now and then of any Unicode. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }).filter((s) => [...s].length >= minLength && [...s].length <= maxLength), weight: 1 },
  );
}

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  'date-time': fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  time: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString().slice(11, 19) + 'Z'),
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  uri: fc.webUrl(),
  url: fc.webUrl(),
  hostname: fc.domain(),
};

export class ValueArbitraries {
  private readonly cache = new Map<Schema, fc.Arbitrary<unknown>>();
  private readonly named: Map<string, Schema>;

  constructor(model: ApiModel) {
    this.named = new Map(model.schemas.map((named) => [named.name, named.schema]));
  }

  /** A valid value of `schema`; its `examples` come first. */
  of(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    let arbitrary = this.cache.get(schema);
    if (arbitrary === undefined) {
      arbitrary = this.make(schema, depth);
      if (depth === 0) this.cache.set(schema, arbitrary);
    }
    return arbitrary;
  }

  /** The schema a reference names, or the schema itself. */
  resolve(schema: Schema, seen = 0): Schema {
    if (schema.kind !== 'ref' || seen > 20) return schema;
    const named = this.named.get(schema.name);
    return named === undefined ? { kind: 'any' } : this.resolve(named, seen + 1);
  }

  private make(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if ('const' in schema && schema.const !== undefined) return fc.constant(schema.const);
    if ('enum' in schema && schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
    const shaped = this.shaped(schema, depth);
    const examples = schema.examples ?? [];
    return examples.length === 0 ? shaped : fc.oneof({ arbitrary: fc.constantFrom(...examples), weight: 1 }, { arbitrary: shaped, weight: 3 });
  }

  private shaped(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    switch (schema.kind) {
      case 'string': {
        if (schema.format !== undefined && FORMATS[schema.format] !== undefined) return FORMATS[schema.format]!;
        const min = schema.minLength ?? 0;
        const max = Math.min(schema.maxLength ?? min + 16, min + 24);
        if (schema.pattern !== undefined) {
          const pattern = new RegExp(schema.pattern, 'u');
          return fc.stringMatching(pattern).filter((s) => [...s].length >= min && (schema.maxLength === undefined || [...s].length <= schema.maxLength));
        }
        return text(min, max);
      }
      case 'integer': {
        const low = schema.minimum ?? (schema.exclusiveMinimum === undefined ? -1000 : Math.floor(schema.exclusiveMinimum) + 1);
        const high = schema.maximum ?? (schema.exclusiveMaximum === undefined ? Math.max(low, 0) + 1_000_000 : Math.ceil(schema.exclusiveMaximum) - 1);
        if (schema.multipleOf !== undefined) {
          const step = schema.multipleOf;
          const from = Math.ceil(low / step);
          return fc.integer({ min: from, max: Math.max(from, Math.floor(high / step)) }).map((n) => n * step);
        }
        // Small values first: they shrink towards the lower bound.
        return fc.integer({ min: Math.max(low, Number.MIN_SAFE_INTEGER), max: Math.min(Math.max(low, high), Number.MAX_SAFE_INTEGER) });
      }
      case 'number': {
        const low = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
        const high = schema.maximum ?? schema.exclusiveMaximum ?? 1e6;
        if (schema.multipleOf !== undefined) {
          const step = schema.multipleOf;
          return fc.integer({ min: Math.ceil(low / step), max: Math.max(Math.ceil(low / step), Math.floor(high / step)) }).map((n) => n * step);
        }
        return fc
          .double({ min: low, max: Math.max(low, high), noNaN: true, noDefaultInfinity: true, minExcluded: schema.exclusiveMinimum !== undefined, maxExcluded: schema.exclusiveMaximum !== undefined })
          .map((n) => (Object.is(n, -0) ? 0 : n));
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'any':
        return anyJson;
      case 'never':
        return fc.constant(undefined);
      case 'ref': {
        const named = this.named.get(schema.name);
        if (named === undefined || depth > MAX_DEPTH) return fc.constant(null);
        return this.of(named, depth + 1);
      }
      case 'union':
        return fc.oneof(...schema.variants.map((variant) => this.of(variant, depth + 1)));
      case 'array': {
        const prefix = (schema.prefixItems ?? []).map((item) => this.of(item, depth + 1));
        const min = Math.max(0, (schema.minItems ?? 0) - prefix.length);
        const max = depth >= MAX_DEPTH ? min : Math.max(min, Math.min((schema.maxItems ?? min + 3) - prefix.length, min + 3));
        const rest = schema.items === undefined ? fc.constant([] as unknown[]) : fc.array(this.of(schema.items, depth + 1), { minLength: min, maxLength: max });
        const list = fc.tuple(fc.tuple(...prefix), rest).map(([head, tail]) => [...head, ...tail]);
        return schema.uniqueItems === true ? list.map(uniqueByJson).filter((items) => items.length >= (schema.minItems ?? 0)) : list;
      }
      case 'object':
        return this.object(schema, depth);
    }
  }

  private object(schema: ObjectSchema, depth: number): fc.Arbitrary<unknown> {
    const properties = schema.properties.filter((property) => property.schema.kind !== 'never' && !property.schema.readOnly);
    // Deep down, only what is required: recursive shapes stay finite.
    const listed = depth >= MAX_DEPTH ? properties.filter((property) => property.required) : properties;
    const record = fc.record(Object.fromEntries(listed.map((property) => [property.name, this.of(property.schema, depth + 1)])), {
      requiredKeys: listed.filter((property) => property.required).map((property) => property.name),
    });
    const minimum = schema.minProperties ?? 0;
    if (typeof schema.additionalProperties !== 'object' || (listed.length >= minimum && schema.properties.length > 0)) return record;
    // A map (keys by ID or name): a few entries of its value schema.
    const keys = schema.propertyNamesPattern === undefined ? fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }) : fc.stringMatching(new RegExp(schema.propertyNamesPattern, 'u'));
    const entries = fc.dictionary(keys, this.of(schema.additionalProperties, depth + 1), { minKeys: minimum, maxKeys: Math.max(minimum, Math.min(schema.maxProperties ?? 3, 3)) });
    return fc.tuple(record, entries).map(([fixed, extra]) => ({ ...extra, ...fixed }));
  }
}

function uniqueByJson(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
