/**
 * A value made from a schema, for the mock of an operation whose success
 * response has no example: the smallest value the schema accepts where that
 * is easy to find (consts, first enum values, required properties only,
 * `minItems` elements, bounds), walking references to a fixed depth.
 */
import type { ApiModel, Schema } from '../../model/types.js';

const MAX_DEPTH = 8;

/** A JSON value for `schema`; undefined when the schema accepts nothing (`never`). */
export function sampleValue(schema: Schema, model: ApiModel, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  if ('const' in schema && schema.const !== undefined) return schema.const;
  if ('enum' in schema && schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  if (schema.examples !== undefined && schema.examples.length > 0) return schema.examples[0];
  switch (schema.kind) {
    case 'string':
      return sampleString(schema.format, schema.minLength);
    case 'integer':
    case 'number': {
      let value = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : 0);
      if (schema.maximum !== undefined && value > schema.maximum) value = schema.maximum;
      if (schema.multipleOf !== undefined) value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
      return value;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const items: unknown[] = (schema.prefixItems ?? []).map((item) => sampleValue(item, model, depth + 1));
      const item = schema.items;
      while (item !== undefined && items.length < (schema.minItems ?? 0)) items.push(sampleValue(item, model, depth + 1));
      // An element that nothing satisfies: neither does the list.
      return items.includes(undefined) ? undefined : items;
    }
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const property of schema.properties) {
        if (!property.required) continue;
        const sample = sampleValue(property.schema, model, depth + 1);
        // A required property that nothing satisfies: neither does the object.
        if (sample === undefined) return undefined;
        value[property.name] = sample;
      }
      return value;
    }
    case 'union': {
      const discriminator = schema.discriminator;
      for (const variant of schema.variants) {
        const sample = sampleValue(variant, model, depth + 1);
        if (sample === undefined) continue;
        if (discriminator !== undefined && typeof sample === 'object' && sample !== null && !Array.isArray(sample)) {
          const name = variant.kind === 'ref' ? variant.name : variant.refName;
          const tag = Object.entries(discriminator.mapping).find(([, target]) => target === name)?.[0];
          if (tag !== undefined) (sample as Record<string, unknown>)[discriminator.propertyName] = tag;
        }
        return sample;
      }
      return undefined;
    }
    case 'ref': {
      const named = model.schemas.find((candidate) => candidate.name === schema.name);
      return named === undefined ? null : sampleValue(named.schema, model, depth + 1);
    }
    case 'any':
      return null;
    case 'never':
      return undefined;
  }
}

function sampleString(format: string | undefined, minLength = 0): string {
  const byFormat: Record<string, string> = {
    'date-time': '1970-01-01T00:00:00Z',
    date: '1970-01-01',
    time: '00:00:00Z',
    email: 'user@example.com',
    uri: 'https://example.com/',
    url: 'https://example.com/',
    uuid: '00000000-0000-4000-8000-000000000000',
    ipv4: '127.0.0.1',
    ipv6: '::1',
    hostname: 'example.com',
  };
  const text = (format !== undefined ? byFormat[format] : undefined) ?? '';
  return text.length >= minLength ? text : text + 'x'.repeat(minLength - text.length);
}
