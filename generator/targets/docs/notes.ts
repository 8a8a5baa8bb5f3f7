import type { Schema, VersionNotes } from '../../model/types.js';
import { resolve, type SchemaLookup } from './fields.js';
import { escapeCell, inlineCode } from './markdown.js';
import { typeExpression } from './type-expression.js';

/**
 * The notes cell of a parameter or field: description, limits, allowed values
 * of a named enumeration, deprecation and what the source leaves unspecified.
 */
export function notesCell(
  description: string,
  schema: Schema,
  notes: Partial<VersionNotes>,
  lookup: SchemaLookup,
): string {
  const named = schema.kind === 'ref' || schema.refName !== undefined;
  const parts = [description, ...limits(resolve(schema, lookup), named)];
  if (notes.deprecated) parts.push('**Deprecated.**');
  for (const text of notes.unspecified ?? []) parts.push(`Not specified: ${text}`);
  return parts
    .filter((part) => part.trim() !== '')
    .map(escapeCell)
    .join('<br>');
}

/** `featureLevel` as a table cell. */
export function levelCell(notes: Partial<VersionNotes>): string {
  return notes.featureLevel === undefined ? '' : String(notes.featureLevel);
}

/** Limits of the schema; allowed values too when the type column shows only a name. */
function limits(schema: Schema, named: boolean): string[] {
  const parts = [...ownLimits(schema, named)];
  if (schema.not !== undefined) parts.push(`Must not be ${inlineCode(typeExpression(schema.not))}.`);
  if (schema.readOnly === true) parts.push('Read-only: sent by the server only.');
  if (schema.writeOnly === true) parts.push('Write-only: sent by clients only.');
  return parts;
}

function valuesList(values: readonly unknown[]): string {
  return `One of ${values.map((value) => inlineCode(JSON.stringify(value))).join(', ')}.`;
}

function ownLimits(schema: Schema, named: boolean): string[] {
  switch (schema.kind) {
    case 'string': {
      const parts: string[] = [];
      if (named && schema.enum !== undefined) parts.push(`One of ${schema.enum.map((value) => inlineCode(value)).join(', ')}.`);
      if (named && schema.const !== undefined) parts.push(`Always ${inlineCode(JSON.stringify(schema.const))}.`);
      if (schema.minLength !== undefined) parts.push(`At least ${schema.minLength} code points.`);
      if (schema.maxLength !== undefined) parts.push(`At most ${schema.maxLength} code points.`);
      if (schema.pattern !== undefined) parts.push(`Matches ${inlineCode(schema.pattern)}.`);
      if (schema.format !== undefined && schema.format !== 'binary') parts.push(`Format ${inlineCode(schema.format)}.`);
      return parts;
    }
    case 'integer':
    case 'number': {
      const parts: string[] = [];
      if (named && schema.enum !== undefined) parts.push(`One of ${schema.enum.map((value) => inlineCode(String(value))).join(', ')}.`);
      if (named && schema.const !== undefined) parts.push(`Always ${inlineCode(String(schema.const))}.`);
      if (schema.minimum !== undefined) parts.push(`Minimum ${schema.minimum}.`);
      if (schema.exclusiveMinimum !== undefined) parts.push(`Greater than ${schema.exclusiveMinimum}.`);
      if (schema.maximum !== undefined) parts.push(`Maximum ${schema.maximum}.`);
      if (schema.exclusiveMaximum !== undefined) parts.push(`Less than ${schema.exclusiveMaximum}.`);
      if (schema.multipleOf !== undefined) parts.push(`A multiple of ${schema.multipleOf}.`);
      return parts;
    }
    case 'any':
      if (named && schema.enum !== undefined) return [valuesList(schema.enum)];
      if (named && schema.const !== undefined) return [`Always ${inlineCode(JSON.stringify(schema.const))}.`];
      return [];
    case 'array': {
      const parts: string[] = [];
      if (schema.minItems !== undefined) parts.push(`At least ${schema.minItems} items.`);
      if (schema.maxItems !== undefined) parts.push(`At most ${schema.maxItems} items.`);
      if (schema.uniqueItems === true) parts.push('Items are unique.');
      if (schema.contains !== undefined) {
        const min = schema.minContains ?? 1;
        const max = schema.maxContains === undefined ? '' : ` and at most ${schema.maxContains}`;
        parts.push(`At least ${min}${max} items are ${inlineCode(typeExpression(schema.contains))}.`);
      }
      return parts;
    }
    case 'object': {
      const parts: string[] = [];
      if (schema.minProperties !== undefined) parts.push(`At least ${schema.minProperties} properties.`);
      if (schema.maxProperties !== undefined) parts.push(`At most ${schema.maxProperties} properties.`);
      if (schema.propertyNamesPattern !== undefined) parts.push(`Keys match ${inlineCode(schema.propertyNamesPattern)}.`);
      for (const entry of schema.patternProperties ?? []) {
        parts.push(`Keys matching ${inlineCode(entry.pattern)} hold ${inlineCode(typeExpression(entry.schema))}.`);
      }
      if (schema.additionalProperties === false && schema.properties.length > 0) parts.push('No other fields.');
      return parts;
    }
    default:
      return [];
  }
}
