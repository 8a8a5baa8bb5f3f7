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
  /** `message.reactions[].emoji_name`; map values appear as `presences.<key>`, tuple positions as `pair[0]`. */
  path: string;
  /** The field's own schema node (notes and type come from here). */
  schema: Schema;
  required: boolean;
  /** Set when the field belongs to one inline variant of a union (`variant 2`, or the variant's title). */
  variant?: string;
  /**
   * Set when the field's named type (or its elements' or values') was already
   * spelt out higher in the same table: its name and the path its fields are
   * listed under.
   */
  sameAs?: { name: string; path: string };
}

/** What a union variant is called on a page: its schema name, its title, or its position. */
export function variantLabel(variant: Schema, index: number): string {
  const name = variant.kind === 'ref' ? variant.name : variant.refName;
  return name ?? variant.title ?? `variant ${index + 1}`;
}

/**
 * Every field reachable from an object schema, depth first in declaration
 * order: properties, elements of arrays (`[]`), tuple positions (`[0]`),
 * values of maps (`<key>`) and of pattern properties, and the fields of
 * inline object variants of unions (marked with their variant). Named
 * variants are not entered: the page defines each named type once. A named
 * schema already on the current path is not entered again, so recursive
 * schemas terminate; one already spelt out elsewhere in the table is not
 * entered again either (the field notes where its fields are), so densely
 * cross-referenced schemas give a table of one row per field of each, not
 * one per path through them.
 */
export function flattenFields(schema: Schema, lookup: SchemaLookup): FlatField[] {
  const fields: FlatField[] = [];
  const seenPaths = new Set<string>();
  const add = (field: FlatField): boolean => {
    const key = `${field.variant ?? ''}\u0000${field.path}`;
    if (seenPaths.has(key)) return false;
    seenPaths.add(key);
    fields.push(field);
    return true;
  };

  // Named schemas spelt out so far: the path their fields are listed under.
  const expanded = new Map<string, string | null>();
  const walk = (node: Schema, prefix: string, enclosing: ReadonlySet<string>, variant: string | undefined, owner?: FlatField): void => {
    const name = node.kind === 'ref' ? node.name : node.refName;
    if (name !== undefined && enclosing.has(name)) return;
    if (name !== undefined) {
      const first = expanded.get(name);
      if (first !== undefined) {
        // `null`: spelt out with no fields (a scalar, or a union of named variants): nothing to point to.
        if (first !== null && owner !== undefined && owner.sameAs === undefined) owner.sameAs = { name, path: first };
        return;
      }
    }
    const before = fields.length;
    const inside = name === undefined ? enclosing : new Set([...enclosing, name]);
    const target = resolve(node, lookup);
    walkOwn(target, prefix, inside, variant, owner);
    // Members an `allOf` could not merge (a union beside an object) add their fields at the same level.
    for (const member of target.allOf ?? []) walk(member, prefix, inside, variant, owner);
    if (name !== undefined) expanded.set(name, fields.length > before ? prefix : null);
  };

  const field = (path: string, child: Schema, required: boolean, inside: ReadonlySet<string>, variant: string | undefined): void => {
    const flat: FlatField = { path, schema: child, required, ...(variant === undefined ? {} : { variant }) };
    if (add(flat)) walk(child, path, inside, variant, flat);
  };

  const walkOwn = (target: Schema, prefix: string, inside: ReadonlySet<string>, variant: string | undefined, owner: FlatField | undefined): void => {
    const join = (segment: string) => (prefix === '' ? segment : `${prefix}.${segment}`);
    switch (target.kind) {
      case 'object':
        for (const property of target.properties) field(join(property.name), property.schema, property.required, inside, variant);
        for (const entry of target.patternProperties ?? []) {
          if (prefix !== '') field(join(`<key matching ${entry.pattern}>`), entry.schema, false, inside, variant);
        }
        if (typeof target.additionalProperties === 'object' && prefix !== '') {
          field(join('<key>'), target.additionalProperties, false, inside, variant);
        }
        return;
      case 'array':
        (target.prefixItems ?? []).forEach((item, index) => field(`${prefix}[${index}]`, item, true, inside, variant));
        if (target.items !== undefined) walk(target.items, `${prefix}[]`, inside, variant, owner);
        return;
      case 'union': {
        // Fields are marked with their variant where several variants are objects (a path alone does not tell them apart).
        const objects = target.variants.filter((member) => resolve(member, lookup).kind === 'object').length;
        target.variants.forEach((member, index) => {
          // Named variants are defined on their own; an inline variant's fields are listed here.
          if (member.kind === 'ref' || member.refName !== undefined) return;
          const mark = objects > 1 && resolve(member, lookup).kind === 'object' ? variantLabel(member, index) : undefined;
          walk(member, prefix, inside, variant ?? mark, owner);
        });
        return;
      }
      default:
        return;
    }
  };

  walk(schema, '', new Set(), undefined);
  return fields;
}
