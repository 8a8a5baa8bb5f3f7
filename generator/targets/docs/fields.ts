import type { NamedSchema, Schema } from '../../model/types.js';

export type SchemaLookup = ReadonlyMap<string, Schema>;

export function schemaLookup(schemas: NamedSchema[]): SchemaLookup {
  return new Map(schemas.map((named) => [named.name, named.schema]));
}

/** Follows `ref` nodes to the named schema (unknown names stay as they are). */
export function resolve(schema: Schema, lookup: SchemaLookup): Schema {
  const seen = new Set<string>();
  let current = schema;
  while (current.kind === 'ref' && !seen.has(current.name)) {
    seen.add(current.name);
    const target = lookup.get(current.name);
    if (target === undefined) break;
    current = target;
  }
  return current;
}

/** One field of a (possibly nested) object, addressed by a dotted path. */
export interface FlatField {
  /** `message.reactions[].emoji_name`; map values appear as `presences.<key>`. */
  path: string;
  /** The field's own schema node (notes and type come from here). */
  schema: Schema;
  required: boolean;
}

/**
 * Every field reachable from an object schema, depth first in declaration
 * order: properties, elements of arrays (`[]`), values of maps (`<key>`) and
 * object variants of unions. A named schema already on the current path is
 * not entered again, so recursive schemas terminate.
 */
export function flattenFields(schema: Schema, lookup: SchemaLookup): FlatField[] {
  const fields: FlatField[] = [];
  const seenPaths = new Set<string>();
  const add = (field: FlatField): boolean => {
    if (seenPaths.has(field.path)) return false;
    seenPaths.add(field.path);
    fields.push(field);
    return true;
  };

  const walk = (node: Schema, prefix: string, enclosing: ReadonlySet<string>): void => {
    const name = node.kind === 'ref' ? node.name : node.refName;
    if (name !== undefined && enclosing.has(name)) return;
    const inside = name === undefined ? enclosing : new Set([...enclosing, name]);
    const target = resolve(node, lookup);
    walkOwn(target, prefix, inside);
    // Members an `allOf` could not merge (a union beside an object) add their fields at the same level.
    for (const member of target.allOf ?? []) walk(member, prefix, inside);
  };

  const walkOwn = (target: Schema, prefix: string, inside: ReadonlySet<string>): void => {
    switch (target.kind) {
      case 'object':
        for (const property of target.properties) {
          const path = prefix === '' ? property.name : `${prefix}.${property.name}`;
          if (add({ path, schema: property.schema, required: property.required })) {
            walk(property.schema, path, inside);
          }
        }
        if (typeof target.additionalProperties === 'object' && prefix !== '') {
          const path = `${prefix}.<key>`;
          if (add({ path, schema: target.additionalProperties, required: false })) {
            walk(target.additionalProperties, path, inside);
          }
        }
        return;
      case 'array':
        for (const element of [...(target.prefixItems ?? []), ...(target.items ? [target.items] : [])]) {
          walk(element, `${prefix}[]`, inside);
        }
        return;
      case 'union':
        for (const variant of target.variants) walk(variant, prefix, inside);
        return;
      default:
        return;
    }
  };

  walk(schema, '', new Set());
  return fields;
}
