/**
 * The diff engine on a pair of fixture documents that exercises every change
 * kind: each change found, where, and whether it breaks existing clients;
 * feature-level checks; and the real spec against itself.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffModels } from '../../../generator/diff/index.js';
import { checkLevels } from '../../../generator/diff/levels.js';
import { CHANGE_KINDS, type DiffChange } from '../../../generator/diff/types.js';
import { loadSpec } from '../../../generator/load/index.js';
import { buildModel } from '../../../generator/model/build.js';
import type { ApiModel, ObjectSchema, Schema } from '../../../generator/model/types.js';
import { SchemaDiff } from '../../../generator/diff/schema.js';
import { EXPECTED } from './expected.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIFF_FIXTURES = join(ROOT, 'test/fixtures/diff');

async function model(file: string): Promise<ApiModel> {
  return buildModel(await loadSpec(file, ROOT));
}


let base: ApiModel;
let head: ApiModel;
let changes: DiffChange[];

beforeAll(async () => {
  base = await model(join(DIFF_FIXTURES, 'base.yaml'));
  head = await model(join(DIFF_FIXTURES, 'head.yaml'));
  changes = diffModels(base, head);
});

describe('diffModels on the fixture pair', () => {
  it('finds each change at its place with its classification, in report order', () => {
    expect(changes.map((c) => [c.operationId, c.location, c.name, c.kind, c.breaking])).toEqual(EXPECTED);
  });

  it('covers every change kind', () => {
    expect(new Set(changes.map((c) => c.kind))).toEqual(new Set(CHANGE_KINDS));
  });

  it('takes the level from the place or the places around it in the head', () => {
    const at = (op: string | null, name: string, kind: string) => changes.find((c) => c.operationId === op && c.name === name && c.kind === kind)!;
    expect(at('create-item', '', 'operation-added').level).toBe(11);
    expect(at('get-item', 'item.kind', 'enum-value-added').level).toBe(11);
    // A removed operation leaves no place in the head, and the document carries no note.
    expect(at('remove-legacy', '', 'operation-removed').level).toBeNull();
    expect(at(null, 'ITEM_MISSING.item_id', 'field-removed').level).toBeNull();
  });

  it('reports nothing when nothing changed, also through recursive schemas', () => {
    expect(diffModels(head, head)).toEqual([]);
    expect(diffModels(base, base)).toEqual([]);
  });

  it('swaps the classification of a narrowing when the sides swap', () => {
    const reverse = diffModels(head, base);
    const kind = (list: DiffChange[], name: string, k: string) => list.find((c) => c.name === name && c.kind === k);
    // The base's `limit` maximum 100 became 50 (breaking); back to 100 widens a request (compatible).
    expect(kind(reverse, 'limit', 'limit-changed')).toBeDefined();
    expect(reverse.filter((c) => c.name === 'limit').map((c) => c.breaking).sort()).toEqual([false, true]);
    expect(kind(reverse, 'item.color', 'nullable-removed')?.breaking).toBe(false);
    expect(kind(reverse, 'item.name', 'field-required')?.breaking).toBe(false);
    expect(kind(reverse, 'item.note', 'field-added')?.breaking).toBe(false);
  });
});

describe('diffModels on the real spec', () => {
  it('dropping `idle` from update-presence `status` is one breaking change naming it', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'teamchat-diff-enum-'));
    try {
      cpSync(join(ROOT, 'spec'), join(copy, 'spec'), { recursive: true });
      const file = join(copy, 'spec/paths/users_me_presence.yaml');
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('enum: [active, idle]');
      writeFileSync(file, text.replace('enum: [active, idle]', 'enum: [active]'));
      const real = await model(join(ROOT, 'spec/openapi.yaml'));
      const edited = buildModel(await loadSpec(join(copy, 'spec/openapi.yaml'), copy));
      expect(diffModels(real, edited).map((c) => [c.operationId, c.name, c.kind, c.breaking, c.message])).toEqual([
        ['update-presence', 'status', 'enum-value-removed', true, 'parameter `status` lost the value "idle"; it is now always "active"'],
      ]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('checkLevels', () => {
  it('names each change not noted above the base level', () => {
    const problems = checkLevels(base, head, changes);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^remove-legacy: DELETE \/legacy was removed \[operation-removed\]: no `x-changes` entry or `x-feature-level` above 5/);
    expect(problems.slice(1).every((p) => p.startsWith('error codes: '))).toBe(true);
  });

  it('requires the highest level to rise', () => {
    const flat = { ...head, maxFeatureLevel: base.maxFeatureLevel };
    expect(checkLevels(base, flat, changes).at(-1)).toMatch(/highest feature level is still 5/);
  });

  it('passes when nothing changed', async () => {
    const spec = await model(join(ROOT, 'spec/openapi.yaml'));
    expect(checkLevels(spec, spec, diffModels(spec, spec))).toEqual([]);
  });
});

describe('SchemaDiff on constraints beyond the fixture pair', () => {
  const run = (direction: 'request' | 'response', a: Schema, b: Schema) => {
    const found: [string, string, boolean][] = [];
    const diff = new SchemaDiff(new Map(), new Map(), (_place, name, kind, breaking) => found.push([name, kind, breaking]));
    diff.compare({ operationId: 'op', location: direction === 'request' ? 'body' : 'response', direction, chain: [] }, 'x', a, b);
    return found;
  };

  it('uniqueItems, contains, minProperties and patternProperties', () => {
    expect(run('request', { kind: 'array', items: { kind: 'string' } }, { kind: 'array', items: { kind: 'string' }, uniqueItems: true })).toEqual([['x', 'limit-changed', true]]);
    expect(run('response', { kind: 'array', items: { kind: 'any' }, contains: { kind: 'string' } }, { kind: 'array', items: { kind: 'any' } })).toEqual([['x', 'type-widened', true]]);
    const object = (extra: Partial<ObjectSchema>): ObjectSchema => ({ kind: 'object', properties: [], additionalProperties: true, ...extra });
    expect(run('request', object({}), object({ minProperties: 1 }))).toEqual([['x', 'limit-changed', true]]);
    expect(run('response', object({ patternProperties: [{ pattern: '^[0-9]+$', schema: { kind: 'integer' } }] }), object({ patternProperties: [{ pattern: '^[0-9]+$', schema: { kind: 'number' } }] }))).toEqual([
      ['x{^[0-9]+$}', 'type-widened', true],
    ]);
  });

  it('never, any with enum, allOf and not', () => {
    expect(run('request', { kind: 'string' }, { kind: 'never' })).toEqual([['x', 'type-narrowed', true]]);
    expect(run('response', { kind: 'any', enum: [1, 'a'] }, { kind: 'any', enum: [1, 'a', null] })).toEqual([['x', 'enum-value-added', true]]);
    expect(run('request', { kind: 'string' }, { kind: 'string', not: { kind: 'string', const: '' } })).toEqual([['x', 'type-narrowed', true]]);
    expect(run('request', { kind: 'string', allOf: [{ kind: 'string', pattern: 'a' }] }, { kind: 'string', allOf: [{ kind: 'string', pattern: 'a', description: 'only words' }] })).toEqual([]);
  });

  it('enum and const values compared as one set', () => {
    const withMessages = (direction: 'request' | 'response', a: Schema, b: Schema) => {
      const found: [string, boolean, string][] = [];
      const diff = new SchemaDiff(new Map(), new Map(), (_place, _name, kind, breaking, message) => found.push([kind, breaking, message]));
      diff.compare({ operationId: 'op', location: direction === 'request' ? 'body' : 'response', direction, chain: [] }, 'x', a, b);
      return found;
    };
    // An enum that becomes a const is one narrowing naming the removed values.
    expect(withMessages('request', { kind: 'string', enum: ['a', 'b', 'c'] }, { kind: 'string', const: 'a' })).toEqual([
      ['enum-value-removed', true, 'parameter `x` lost the values "b", "c"; it is now always "a"'],
    ]);
    // The other way round it widens: compatible in a request, breaking in a response.
    expect(withMessages('request', { kind: 'string', const: 'a' }, { kind: 'string', enum: ['a', 'b'] })).toEqual([['enum-value-added', false, 'parameter `x` gained the value "b"; it now takes "a", "b"']]);
    expect(withMessages('response', { kind: 'string', const: 'a' }, { kind: 'string', enum: ['a', 'b'] })).toEqual([['enum-value-added', true, 'response field `x` gained the value "b"; it now takes "a", "b"']]);
    // Values replaced: what is removed and what is added, each by its own effect.
    expect(withMessages('request', { kind: 'integer', enum: [1, 2] }, { kind: 'integer', enum: [2, 3] }).map(([k, b]) => [k, b])).toEqual([
      ['enum-value-removed', true],
      ['enum-value-added', false],
    ]);
    expect(withMessages('request', { kind: 'string', const: 'a' }, { kind: 'string', const: 'b' })).toEqual([['const-changed', true, 'parameter `x` changed from "a" to "b"']]);
    expect(withMessages('request', { kind: 'string', enum: ['b', 'a'] }, { kind: 'string', enum: ['a', 'b'] })).toEqual([]);
    // A const and an enum together allow the const when the enum has it.
    expect(withMessages('request', { kind: 'string', enum: ['a', 'b'], const: 'a' }, { kind: 'string', const: 'a' })).toEqual([]);
    // Values of any type are named as JSON.
    expect(withMessages('response', { kind: 'any', enum: [1, 'a'] }, { kind: 'any', enum: [1, 'a', null, { k: 1 }] })[0]![2]).toBe('response field `x` gained the values null, {"k":1}; it now takes 1, "a", null, {"k":1}');
    expect(withMessages('request', { kind: 'boolean' }, { kind: 'boolean', const: true })).toEqual([['const-changed', true, 'parameter `x` is now always true']]);
  });

  it('integer and number enums, exclusive bounds and multipleOf', () => {
    expect(run('request', { kind: 'integer', enum: [1, 2] }, { kind: 'integer', enum: [1] })).toEqual([['x', 'enum-value-removed', true]]);
    expect(run('request', { kind: 'number', exclusiveMinimum: 0 }, { kind: 'number' })).toEqual([['x', 'limit-changed', false]]);
    expect(run('request', { kind: 'number', multipleOf: 0.5 }, { kind: 'number', multipleOf: 0.25 })).toEqual([['x', 'limit-changed', false]]);
    expect(run('request', { kind: 'number', multipleOf: 0.25 }, { kind: 'number', multipleOf: 0.5 })).toEqual([['x', 'limit-changed', true]]);
  });
});
