import type { Schema, VersionNotes } from '../../model/types.js';
import { resolve, type SchemaLookup } from './fields.js';
import { escapeCell, inlineCode } from './markdown.js';

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
  switch (schema.kind) {
    case 'string': {
      const parts: string[] = [];
      if (named && schema.enum !== undefined) {
        parts.push(`One of ${schema.enum.map((value) => inlineCode(value)).join(', ')}.`);
      }
      if (schema.minLength !== undefined) parts.push(`At least ${schema.minLength} code points.`);
      if (schema.maxLength !== undefined) parts.push(`At most ${schema.maxLength} code points.`);
      if (schema.pattern !== undefined) parts.push(`Matches ${inlineCode(schema.pattern)}.`);
      return parts;
    }
    case 'integer':
    case 'number': {
      const parts: string[] = [];
      if (named && schema.kind === 'integer' && schema.enum !== undefined) {
        parts.push(`One of ${schema.enum.map((value) => inlineCode(String(value))).join(', ')}.`);
      }
      if (schema.minimum !== undefined) parts.push(`Minimum ${schema.minimum}.`);
      if (schema.maximum !== undefined) parts.push(`Maximum ${schema.maximum}.`);
      return parts;
    }
    case 'array': {
      const parts: string[] = [];
      if (schema.minItems !== undefined) parts.push(`At least ${schema.minItems} items.`);
      if (schema.maxItems !== undefined) parts.push(`At most ${schema.maxItems} items.`);
      return parts;
    }
    default:
      return [];
  }
}
