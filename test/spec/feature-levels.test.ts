/**
 * Versioning extensions: well formed everywhere, and each feature level the
 * API description names for an operation is noted somewhere in it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  deref,
  isObject,
  loadBundled,
  operations,
  parameterRows,
  pointer,
  requestBodyMedia,
  objectShape,
  successProperties,
  type Json,
  type JsonObject,
  type OperationEntry,
} from './document.js';
import { seedOperations } from './seed.js';

let doc: JsonObject;
let ops: OperationEntry[];

beforeAll(async () => {
  ({ doc } = await loadBundled());
  ops = operations(doc);
});

/** Problems with the versioning extensions anywhere under `node`. */
function extensionProblems(node: Json, at: (string | number)[] = []): string[] {
  const out: string[] = [];
  if (Array.isArray(node)) node.forEach((n, i) => out.push(...extensionProblems(n, [...at, i])));
  if (!isObject(node)) return out;
  const here = pointer(at) || '/';
  if ('x-feature-level' in node) {
    const level = node['x-feature-level'];
    if (!Number.isInteger(level) || (level as number) < 1) out.push(`${here}: x-feature-level ${JSON.stringify(level)} is not a positive integer`);
  }
  if ('x-changes' in node) {
    const changes = node['x-changes'];
    if (!Array.isArray(changes) || changes.length === 0) out.push(`${here}: x-changes is not a non-empty list`);
    else {
      changes.forEach((entry, i) => {
        const ok =
          isObject(entry) &&
          Object.keys(entry).sort().join() === 'change,level' &&
          Number.isInteger(entry.level) &&
          (entry.level as number) >= 1 &&
          typeof entry.change === 'string' &&
          entry.change.trim() !== '';
        if (!ok) out.push(`${here}: x-changes[${i}] is not {level: positive integer, change: text}`);
      });
    }
  }
  if ('x-unspecified' in node) {
    const text = node['x-unspecified'];
    if (typeof text !== 'string' || text.trim() === '') out.push(`${here}: x-unspecified is not text`);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-changes' || key === 'x-feature-level' || key === 'x-unspecified') continue;
    out.push(...extensionProblems(value, [...at, key]));
  }
  return out;
}

/** Every level named by `x-feature-level` or `x-changes` under `node`, following `$ref`s. */
function levelsUnder(node: Json | undefined, out = new Set<number>(), seen = new Set<Json>()): Set<number> {
  if (Array.isArray(node)) node.forEach((n) => levelsUnder(n, out, seen));
  if (!isObject(node) || seen.has(node)) return out;
  seen.add(node);
  if (typeof node.$ref === 'string') levelsUnder(deref(doc, node), out, seen);
  if (Number.isInteger(node['x-feature-level'])) out.add(node['x-feature-level'] as number);
  const changes = node['x-changes'];
  if (Array.isArray(changes)) for (const c of changes) if (isObject(c) && Number.isInteger(c.level)) out.add(c.level as number);
  for (const [key, value] of Object.entries(node)) if (key !== '$ref') levelsUnder(value, out, seen);
  return out;
}

function find(operationId: string): OperationEntry {
  const op = ops.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`operation ${operationId} is not in the document`);
  return op;
}

/** The schema (or parameter object) a `param:<name>` place names. */
function parameterNode(op: OperationEntry, name: string): JsonObject | undefined {
  for (const raw of [...op.pathParameters, ...(Array.isArray(op.operation.parameters) ? op.operation.parameters : [])]) {
    const p = deref(doc, raw);
    if (isObject(p) && p.name === name) return p;
  }
  const [first] = requestBodyMedia(doc, op);
  const schema = first ? objectShape(doc, first[1].schema).properties[name] : undefined;
  return isObject(schema) ? schema : undefined;
}

/** `deprecated: true` on the node, on the schema it references, or on a parameter's schema. */
function isDeprecated(node: JsonObject | undefined): boolean {
  if (!node) return false;
  if (node.deprecated === true) return true;
  const resolved = deref(doc, node);
  if (isObject(resolved) && resolved.deprecated === true) return true;
  return isObject(node.schema) && node.schema.deprecated === true;
}

describe('versioning extensions', () => {
  it('are well formed everywhere in the document', () => {
    expect(extensionProblems(doc)).toEqual([]);
  });

  it('malformed ones are reported', () => {
    const bad: Json = {
      paths: {
        '/x': {
          get: {
            'x-feature-level': '12',
            'x-changes': [{ level: 3.5, change: 'half' }, { level: 4 }],
            'x-unspecified': 7,
          },
        },
      },
    };
    expect(extensionProblems(bad)).toHaveLength(4);
  });

  it.each(seedOperations.filter((s) => s.levels.length > 0).map((s) => [s.operationId, s.levels] as const))(
    '%s notes every feature level of the source',
    (id, levels) => {
      const op = find(id);
      const found = levelsUnder(op.operation);
      expect(levels.filter((l) => !found.has(l))).toEqual([]);
    },
  );

  it.each(seedOperations.flatMap((s) => s.deprecated.map((place) => [s.operationId, place] as const)))(
    '%s marks %s deprecated',
    (id, place) => {
      const op = find(id);
      const [kind, name = ''] = place.split(':');
      const node =
        kind === 'operation'
          ? op.operation
          : kind === 'param'
            ? parameterNode(op, name)
            : (successProperties(doc, op)[name] as JsonObject | undefined);
      expect(node, `${place} exists`).toBeDefined();
      expect(isDeprecated(node)).toBe(true);
    },
  );

  it('nothing else is a deprecated operation or parameter', () => {
    const marked = ops.flatMap((op) => {
      const places = op.operation.deprecated === true ? ['operation'] : [];
      for (const row of parameterRows(doc, op)) if (isDeprecated(parameterNode(op, row.name))) places.push(`param:${row.name}`);
      return places.map((p) => `${op.operationId} ${p}`);
    });
    const want = seedOperations.flatMap((s) => s.deprecated.filter((p) => !p.startsWith('response:')).map((p) => `${s.operationId} ${p}`));
    expect(marked.sort()).toEqual(want.sort());
  });
});
