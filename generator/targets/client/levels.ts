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
  const schemas = new Map(model.schemas.map((s) => [s.name, s.schema]));
  const out = new Map<string, number>();
  walk(operation.success.schema, '', schemas, new Set(), out);
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Per error code, its extra fields newer than some level (paths from the body root). */
export function newerErrorFields(model: ApiModel): Record<string, LevelledPath[]> {
  const schemas = new Map(model.schemas.map((s) => [s.name, s.schema]));
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
