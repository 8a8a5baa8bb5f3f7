import type { Schema } from '../../model/types.js';

/**
 * The type of a schema as the docs print it: TypeScript-like (`integer`,
 * `string[]`, `integer | null`, `"add" | "remove"`, `GroupSettingValue`),
 * with JSON Schema's `integer` kept so readers see the wire type.
 */
export function typeExpression(schema: Schema): string {
  if (schema.refName !== undefined && schema.kind !== 'ref') return schema.refName;
  const own = ownExpression(schema);
  if (schema.allOf === undefined || schema.allOf.length === 0) return own;
  // Members that could not merge: `A & (B | C)`.
  const parts = [own, ...schema.allOf.map(typeExpression)].filter((part, i) => i === 0 || part !== 'any');
  return parts.map((part) => (part.includes(' | ') ? `(${part})` : part)).join(' & ');
}

function ownExpression(schema: Schema): string {
  switch (schema.kind) {
    case 'ref':
      return schema.name;
    case 'string':
      if (schema.const !== undefined) return JSON.stringify(schema.const);
      if (schema.enum !== undefined) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
      return schema.format === 'binary' ? 'file' : 'string';
    case 'integer':
      if (schema.const !== undefined) return String(schema.const);
      if (schema.enum !== undefined) return schema.enum.map(String).join(' | ');
      return 'integer';
    case 'boolean':
      return schema.const !== undefined ? String(schema.const) : 'boolean';
    case 'number':
      if (schema.const !== undefined) return String(schema.const);
      if (schema.enum !== undefined) return schema.enum.map(String).join(' | ');
      return 'number';
    case 'any':
      if (schema.const !== undefined) return JSON.stringify(schema.const);
      if (schema.enum !== undefined) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
      return 'any';
    case 'null':
    case 'never':
      return schema.kind;
    case 'array':
      return arrayExpression(schema.items, schema.prefixItems);
    case 'object':
      if (schema.properties.length === 0) {
        // A map: its values' types (keys limited by patterns are listed in the notes).
        const values = [
          ...(schema.patternProperties ?? []).map((entry) => entry.schema),
          ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
        ].map(typeExpression);
        const distinct = [...new Set(values)];
        if (distinct.length > 0) return `Record<string, ${distinct.join(' | ')}>`;
      }
      return 'object';
    case 'union':
      return schema.variants.map((v) => (typeExpression(v).includes(' & ') ? `(${typeExpression(v)})` : typeExpression(v))).join(' | ');
  }
}

function arrayExpression(items: Schema | undefined, prefixItems: Schema[] | undefined): string {
  if (prefixItems !== undefined) {
    const positions = prefixItems.map(typeExpression);
    if (items !== undefined) positions.push(`...${elementExpression(items)}[]`);
    return `[${positions.join(', ')}]`;
  }
  return items === undefined ? 'any[]' : `${elementExpression(items)}[]`;
}

/** An element type, parenthesised when `[]` would otherwise bind to its last variant. */
function elementExpression(items: Schema): string {
  const text = typeExpression(items);
  return text.includes(' | ') && !text.startsWith('[') ? `(${text})` : text;
}

/** Whether a value of this schema may be `null`. */
export function isNullable(schema: Schema): boolean {
  if (schema.kind === 'null') return true;
  return schema.kind === 'union' && schema.variants.some(isNullable);
}
