import type { BodyContent, ResponseContent, ResponseHeader, Schema, UnionSchema } from '../../model/types.js';
import { flattenFields, resolve, variantLabel, type SchemaLookup } from './fields.js';
import { codeBlock, escapeCell, inlineCode } from './markdown.js';
import { levelCell, notesCell } from './notes.js';
import { isNullable, typeExpression } from './type-expression.js';

/** What every block needs: the named schemas and whether the document names feature levels. */
export interface BlockContext {
  lookup: SchemaLookup;
  featureLevels: boolean;
}

export interface FieldRow {
  name: string;
  type: string;
  presence: string;
  featureLevel: string;
  notes: string;
}

export function fieldRows(schema: Schema, ctx: BlockContext): FieldRow[] {
  return flattenFields(schema, ctx.lookup).map((field) => {
    const row = fieldRow(field.path, field.schema, field.required, ctx);
    if (field.sameAs !== undefined) {
      const at = field.sameAs.path === '' ? 'at the top level' : `under ${inlineCode(field.sameAs.path)}`;
      const where = escapeCell(`${inlineCode(field.sameAs.name)}: fields as ${at}.`);
      row.notes = row.notes === '' ? where : `${row.notes}<br>${where}`;
    }
    if (field.variant === undefined) return row;
    const only = `Only in ${field.variant.startsWith('variant ') ? field.variant : inlineCode(field.variant)}.`;
    return { ...row, notes: row.notes === '' ? only : `${only}<br>${row.notes}` };
  });
}

function fieldRow(path: string, schema: Schema, required: boolean, ctx: BlockContext): FieldRow {
  const presence = required ? 'always present' : 'may be absent';
  const description = schema.description ?? resolve(schema, ctx.lookup).description ?? '';
  return {
    name: escapeCell(inlineCode(path)),
    type: escapeCell(inlineCode(typeExpression(schema))),
    presence: isNullable(schema) ? `${presence}, nullable` : presence,
    featureLevel: levelCell(schema),
    notes: notesCell(description, schema, schema, ctx.lookup),
  };
}

/** A field table in markdown (the feature level column only where the document names levels). */
export function fieldTable(rows: FieldRow[], ctx: BlockContext): string {
  const level = ctx.featureLevels;
  const head = level ? '| Field | Type | Presence | Feature level | Notes |\n|---|---|---|---|---|' : '| Field | Type | Presence | Notes |\n|---|---|---|---|';
  const lines = rows.map((row) =>
    level
      ? `| ${row.name} | ${row.type} | ${row.presence} | ${row.featureLevel} | ${row.notes} |`
      : `| ${row.name} | ${row.type} | ${row.presence} | ${row.notes} |`,
  );
  return [head, ...lines].join('\n');
}

/**
 * A union in words: its variants in order (named ones by name, inline ones
 * by title or position, with their type), then, with a discriminator, the
 * table from each value of the property to its variant.
 */
export function unionBlock(union: UnionSchema): string {
  const intro = union.exclusive === true ? 'Exactly one of these:' : 'Any of these (at least one matches):';
  const items = union.variants.map((variant, index) => {
    const label = variantLabel(variant, index);
    const named = variant.kind === 'ref' || variant.refName !== undefined;
    const type = typeExpression(variant);
    if (named) return `${index + 1}. ${inlineCode(label)}${variant.description ? `: ${oneLineText(variant.description)}` : ''}`;
    const title = label.startsWith('variant ') ? '' : `${inlineCode(label)}: `;
    return `${index + 1}. ${title}${inlineCode(type)}${variant.description ? `: ${oneLineText(variant.description)}` : ''}`;
  });
  const parts = [intro, '', ...items];
  const table = discriminatorTable(union);
  if (table !== '') parts.push('', table);
  return parts.join('\n');
}

function oneLineText(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

/** "`kind` = `x` → Variant": the discriminator's mapping as a table. */
export function discriminatorTable(union: UnionSchema): string {
  const discriminator = union.discriminator;
  if (discriminator === undefined) return '';
  const property = inlineCode(discriminator.propertyName);
  const how = discriminator.implicit === true ? ' (each variant fixes its own value)' : '';
  const rows = Object.entries(discriminator.mapping).map(
    ([value, target]) => `| ${escapeCell(inlineCode(value))} | ${escapeCell(inlineCode(target.slice(target.lastIndexOf('/') + 1)))} |`,
  );
  return [`The variant is told by the field ${property}${how}:`, '', `| ${property} = | → Variant |`, '|---|---|', ...rows].join('\n');
}

/**
 * A schema's documentation: an intro naming its type, the field table of an
 * object (nested fields included), the variants of a union.
 */
export function schemaBlock(schema: Schema, ctx: BlockContext, subject: string): string {
  const target = resolve(schema, ctx.lookup);
  const name = schema.kind === 'ref' ? schema.name : schema.refName;
  // A named union is defined once, under Types.
  if (name !== undefined && target.kind === 'union') return `${subject}: ${inlineCode(name)} (see Types below).`;
  const parts: string[] = [];
  const rows = fieldRows(schema, ctx);
  const union = target.kind === 'union' ? target : undefined;
  const type = inlineCode(typeExpression(schema));
  if (target.kind === 'object' && rows.length > 0) parts.push(`${subject}: a ${type === '`object`' ? 'JSON object' : `${type} object`} with these fields:`);
  else parts.push(`${subject}: ${type}.`);
  const notes = notesCell('', schema, schema, ctx.lookup);
  if (notes !== '') parts.push('', notes.replace(/<br>/g, ' '));
  if (union !== undefined) parts.push('', unionBlock(union));
  if (rows.length > 0) parts.push('', fieldTable(rows, ctx));
  return parts.join('\n');
}

/** One media type of a request or response body: its schema's block, then its first example. */
export function contentBlock(content: BodyContent | ResponseContent, ctx: BlockContext): string {
  const subject = inlineCode(content.mediaType);
  const parts: string[] = [];
  if (content.kind === 'binary') parts.push(`${subject}: binary data.`);
  else if (content.kind === 'text' && content.schema.kind !== 'object') parts.push(`${subject}: text${content.schema.kind === 'any' ? '' : `, ${inlineCode(typeExpression(content.schema))}`}.`);
  else if (content.schema.kind === 'any' && content.schema.enum === undefined && content.schema.const === undefined) parts.push(`${subject}: any JSON value.`);
  else parts.push(schemaBlock(content.schema, ctx, subject));
  const example = content.examples[0];
  if (example !== undefined) {
    parts.push('', 'Example:', '', content.kind === 'json' ? codeBlock('json', JSON.stringify(example.value, null, 2)) : codeBlock('', typeof example.value === 'string' ? example.value : JSON.stringify(example.value)));
  }
  return parts.join('\n');
}

/** Response headers as a table. */
export function headerTable(headers: ResponseHeader[], ctx: BlockContext): string {
  if (headers.length === 0) return '';
  const rows = headers.map(
    (header) =>
      `| ${escapeCell(inlineCode(header.name))} | ${escapeCell(inlineCode(typeExpression(header.schema)))} | ${header.required ? 'always' : 'may be absent'} | ${notesCell(header.description, header.schema, header, ctx.lookup)} |`,
  );
  return ['Headers:', '', '| Header | Type | Presence | Notes |', '|---|---|---|---|', ...rows].join('\n');
}
