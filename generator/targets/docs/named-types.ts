import type { Schema } from '../../model/types.js';
import type { SchemaLookup } from './fields.js';

/**
 * Named schemas a set of schemas refers to, directly or through other named
 * schemas, in first-use order. Parameter tables print only the name of such a
 * type, so the page defines each one below them.
 */
export function referencedNames(roots: Schema[], lookup: SchemaLookup): string[] {
  const found = new Set<string>();
  const visitChildren = (schema: Schema): void => children(schema).forEach(visit);
  function visit(schema: Schema): void {
    const name = schema.kind === 'ref' ? schema.name : schema.refName;
    const target = name === undefined ? undefined : lookup.get(name);
    if (name === undefined || target === undefined) return visitChildren(schema);
    if (found.has(name)) return;
    found.add(name);
    visitChildren(target);
  }
  roots.forEach(visit);
  return [...found];
}

function children(schema: Schema): Schema[] {
  return [...ownChildren(schema), ...(schema.allOf ?? [])];
}

function ownChildren(schema: Schema): Schema[] {
  switch (schema.kind) {
    case 'array':
      return [...(schema.prefixItems ?? []), ...(schema.items ? [schema.items] : [])];
    case 'object':
      return [
        ...schema.properties.map((property) => property.schema),
        ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
      ];
    case 'union':
      return schema.variants;
    default:
      return [];
  }
}

/** A named schema's own shape, so its type expression spells it out instead of naming it. */
export function definitionOf(schema: Schema): Schema {
  return { ...schema, refName: undefined };
}
