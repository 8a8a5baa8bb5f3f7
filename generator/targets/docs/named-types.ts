import type { Schema } from '../../model/types.js';
import type { SchemaLookup } from './fields.js';

/**
 * Named schemas a set of schemas refers to, directly or through other named
 * schemas, in first-use order. Parameter tables print only the name of such a
 * type, so the page defines each one below them.
 */
export function referencedNames(roots: Schema[], lookup: SchemaLookup): string[] {
  const found = new Set<string>();
  addReferenced(roots, lookup, found);
  return [...found];
}

/**
 * Adds to `found` the names `referencedNames` gives for `roots`, skipping
 * those already there: a found name's closure is already in `found`, so
 * several calls sharing one set walk each named schema once.
 */
function addReferenced(roots: Schema[], lookup: SchemaLookup, found: Set<string>): void {
  // Unnamed nodes can be shared (a DAG): each is walked once.
  const walked = new Set<Schema>();
  const stack = [...roots].reverse();
  // Depth-first, children in order, so names come in first-use order.
  while (stack.length > 0) {
    const schema = stack.pop()!;
    const name = schema.kind === 'ref' ? schema.name : schema.refName;
    const target = name === undefined ? undefined : lookup.get(name);
    let next: Schema;
    if (name === undefined || target === undefined) {
      if (walked.has(schema)) continue;
      walked.add(schema);
      next = schema;
    } else {
      if (found.has(name)) continue;
      found.add(name);
      next = target;
    }
    const nodes = children(next);
    for (let i = nodes.length - 1; i >= 0; i--) stack.push(nodes[i]!);
  }
}

/**
 * Named schemas the flattened field tables of bodies and responses do not
 * spell out: named unions and named variants of any union, and every name
 * those refer to, in first-use order.
 */
export function definedElsewhereNames(roots: Schema[], lookup: SchemaLookup): string[] {
  const found = new Set<string>();
  const add = (schema: Schema): void => addReferenced([schema], lookup, found);
  const visited = new Set<Schema>();
  const visit = (schema: Schema, name = schema.refName): void => {
    if (visited.has(schema)) return;
    visited.add(schema);
    if (schema.kind === 'ref') {
      // Field tables go through references (a recursive one is shown by name where it repeats).
      const target = lookup.get(schema.name);
      if (target !== undefined) visit(target, schema.name);
      return;
    }
    if (schema.kind === 'union') {
      if (name !== undefined) add({ kind: 'ref', name });
      for (const variant of schema.variants) {
        if (variant.kind === 'ref' || variant.refName !== undefined) add(variant);
      }
    }
    for (const child of children(schema)) visit(child);
  };
  for (const root of roots) visit(root);
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
        ...(schema.patternProperties ?? []).map((entry) => entry.schema),
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
