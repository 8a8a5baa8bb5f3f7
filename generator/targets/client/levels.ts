/**
 * Response places newer than some feature level, for level-aware response
 * validation in the client: each response field (and each error code's
 * extra field) that carries `x-feature-level` or an `x-changes` entry, with
 * the highest level it names. A server below that level may leave the field
 * out or send it in an older shape, so the client does not check it there.
 */
import type { ApiModel, Operation, Property, Schema } from '../../model/types.js';

/** `[path, level]`: path as the client's issue paths read once indexes are dropped (`messages[].flags`). */
export type LevelledPath = readonly [string, number];

export function newerResponseFields(model: ApiModel, operation: Operation): LevelledPath[] {
  const schemas = levelledSchemas(model);
  if (schemas.size === 0) return [];
  const out = new Map<string, number>();
  walk(operation.success.schema, '', schemas, new Set(), out);
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const levelledCache = new WeakMap<ApiModel, Map<string, Schema>>();

/**
 * The named schemas whose values hold a levelled place somewhere (directly or
 * through other named schemas). The walk enters only these: a path branch is
 * walked once per named schema on it, so without this pruning a document of
 * densely cross-referenced schemas (Stripe's) expands exponentially.
 */
function levelledSchemas(model: ApiModel): Map<string, Schema> {
  const cached = levelledCache.get(model);
  if (cached) return cached;
  const all = new Map(model.schemas.map((s) => [s.name, s.schema]));
  const refsOf = new Map<string, Set<string>>();
  const levelled = new Set<string>();
  for (const [name, schema] of all) {
    const refs = new Set<string>();
    if (collect(schema, refs)) levelled.add(name);
    refsOf.set(name, refs);
  }
  // Fixpoint: a schema that refers to a levelled one is levelled too.
  for (let changed = levelled.size > 0; changed; ) {
    changed = false;
    for (const [name, refs] of refsOf) {
      if (levelled.has(name)) continue;
      for (const ref of refs) {
        if (levelled.has(ref)) {
          levelled.add(name);
          changed = true;
          break;
        }
      }
    }
  }
  const result = new Map([...all].filter(([name]) => levelled.has(name)));
  levelledCache.set(model, result);
  return result;
}

/** Whether the schema (not entering references, which go to `refs`) has a levelled node where `walk` looks. */
function collect(schema: Schema, refs: Set<string>): boolean {
  let found = levelOf(schema) !== undefined;
  switch (schema.kind) {
    case 'ref':
      refs.add(schema.name);
      return found;
    case 'object':
      for (const property of schema.properties) found = collect(property.schema, refs) || found;
      return found;
    case 'array':
      if (schema.items) found = collect(schema.items, refs) || found;
      for (const item of schema.prefixItems ?? []) found = collect(item, refs) || found;
      return found;
    case 'union':
      for (const variant of schema.variants) found = collect(variant, refs) || found;
      return found;
    default:
      return found;
  }
}

/** Per error code, its extra fields newer than some level (paths from the body root). */
export function newerErrorFields(model: ApiModel): Record<string, LevelledPath[]> {
  const schemas = levelledSchemas(model);
  const result: Record<string, LevelledPath[]> = {};
  for (const error of model.errors) {
    const out = new Map<string, number>();
    for (const property of error.extraFields) visitProperty(property, '', schemas, new Set(), out);
    if (out.size > 0) result[error.code] = [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
  return result;
}

function levelOf(schema: Schema): number | undefined {
  const levels = [...(schema.featureLevel === undefined ? [] : [schema.featureLevel]), ...(schema.changes ?? []).map((c) => c.level)];
  return levels.length === 0 ? undefined : Math.max(...levels);
}

function visitProperty(property: Property, path: string, schemas: Map<string, Schema>, seen: Set<string>, out: Map<string, number>): void {
  const at = path === '' ? property.name : `${path}.${property.name}`;
  const level = levelOf(property.schema);
  if (level !== undefined) out.set(at, Math.max(level, out.get(at) ?? 0));
  walk(property.schema, at, schemas, seen, out);
}

function walk(schema: Schema, path: string, schemas: Map<string, Schema>, seen: Set<string>, out: Map<string, number>): void {
  switch (schema.kind) {
    case 'ref': {
      // A named schema once per path branch: recursive schemas end here.
      // Only levelled schemas are in `schemas`: the others hold nothing to record.
      if (seen.has(schema.name)) return;
      const target = schemas.get(schema.name);
      if (!target) return;
      const level = levelOf(target);
      if (level !== undefined && path !== '') out.set(path, Math.max(level, out.get(path) ?? 0));
      walk(target, path, schemas, new Set([...seen, schema.name]), out);
      return;
    }
    case 'object':
      for (const property of schema.properties) visitProperty(property, path, schemas, seen, out);
      return;
    case 'array':
      if (schema.items) walk(schema.items, `${path}[]`, schemas, seen, out);
      for (const item of schema.prefixItems ?? []) walk(item, `${path}[]`, schemas, seen, out);
      return;
    case 'union':
      for (const variant of schema.variants) walk(variant, path, schemas, seen, out);
      return;
    default:
      return;
  }
}
