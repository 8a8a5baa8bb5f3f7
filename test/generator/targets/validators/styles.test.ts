/**
 * Plain parameters in every style (query form/spaceDelimited/pipeDelimited/
 * deepObject, exploded or not; path simple/label/matrix; header; cookie):
 * values from fast-check are written the way OpenAPI serialises them, read
 * back by the generated decoders, and the verdict compared with ajv's on the
 * value the text stands for. The parameters come from the params-* fixture
 * documents, through the real model.
 */
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import type { ApiModel, Operation, Parameter, Schema } from '../../../../generator/model/types.js';
import { arbitraryFor } from '../../../fixtures/validators/arbitraries.js';
import { definitions, toJsonSchema } from '../../../fixtures/validators/json-schema.js';
import { loadGenerated, removeWritten, type GeneratedValidators } from '../../../fixtures/validators/load.js';
import { repoRoot } from '../../../support/process.js';

const FIXTURES = ['params-query', 'params-path', 'params-header-cookie'];
const RUNS = 200;

/** One operation per plain parameter of the fixtures, so each decoder reads exactly one parameter. */
let model: ApiModel;
let generated: GeneratedValidators;
const cases: { label: string; camel: string; parameter: Parameter }[] = [];

beforeAll(async () => {
  const operations: Operation[] = [];
  let first: ApiModel | undefined;
  for (const fixture of FIXTURES) {
    const root = join(repoRoot, 'test/fixtures/operations', fixture);
    const built = buildModel(await loadSpec(join(root, 'openapi.yaml'), root));
    first ??= built;
    for (const operation of built.operations) {
      for (const parameter of operation.parameters) {
        if (parameter.encoding !== 'plain') continue;
        const camel = `p${operations.length}`;
        operations.push({ ...operation, id: camel, names: { camel, pascal: `P${operations.length}`, file: camel }, parameters: [parameter] });
        cases.push({ label: `${fixture} ${operation.id} ${parameter.location} ${parameter.name}`, camel, parameter });
      }
    }
  }
  model = { ...first!, operations, schemas: [], errors: [] };
  generated = await loadGenerated(model);
}, 60_000);

afterAll(removeWritten);

const ajv = new Ajv2020({ strict: false, allErrors: false });
ajv.addSchema(definitions({ schemas: [] } as unknown as ApiModel));

/* The scalar kinds a schema allows, and how text reads as one of them (the rule the decoders document). */
type Kinds = Set<'boolean' | 'integer' | 'number' | 'null' | 'string'>;

function kindsOf(schema: Schema, into: Kinds = new Set()): Kinds {
  switch (schema.kind) {
    case 'union':
      for (const variant of schema.variants) kindsOf(variant, into);
      break;
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'null':
      into.add(schema.kind);
      break;
    default:
      into.add('string');
  }
  return into;
}

function readScalar(text: string, kinds: Kinds): unknown {
  if (kinds.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (kinds.has('integer') && /^-?[0-9]+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  if (kinds.has('number') && /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  if (kinds.has('null') && !kinds.has('string') && (text === '' || text === 'null')) return null;
  return text;
}

/** Text of a value inside a style: no separator of any style, so the split is unambiguous. */
function text(value: unknown, nonEmpty: boolean): string {
  const raw = typeof value === 'string' ? value : value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const clean = raw.replace(/[,|;=.[\]\s]/g, 'x');
  return nonEmpty && clean === '' ? 'e' : clean;
}

interface Wire {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  cookies: Record<string, string | string[]>;
}

/** Writes `value` as OpenAPI serialises the parameter, returning the decoded value it stands for (undefined: not writable). */
function encode(parameter: Parameter, value: unknown, wire: Wire, pick: number): { expected: unknown } | undefined {
  const { name, style, explode, location } = parameter;
  let schema = parameter.schema;
  const mixed = schema.kind === 'union' && schema.variants.some((v) => v.kind === 'array' || v.kind === 'object');
  if (schema.kind === 'union' && mixed) {
    // A scalar or a list or object: which one the value is decides how it is written.
    const structured = schema.variants.find((v) => v.kind === 'array' || v.kind === 'object')!;
    const scalars: Schema = { kind: 'union', variants: schema.variants.filter((v) => v !== structured) };
    const isStructured = structured.kind === 'array' ? Array.isArray(value) : value !== null && typeof value === 'object' && !Array.isArray(value);
    schema = isStructured ? structured : scalars;
    if (!isStructured) {
      if (Array.isArray(value) || (value !== null && typeof value === 'object')) return undefined;
      const t = text(value, false);
      wire.query[name] = t;
      return { expected: readScalar(t, kindsOf(scalars)) };
    }
    if (style === 'form' && Array.isArray(value) && value.length < 2) {
      // One field is the scalar: a list is told apart by repeating its field.
      return undefined;
    }
  }
  const set = (texts: string | string[]): void => {
    if (location === 'path') wire.path[name] = texts as string;
    else if (location === 'query') wire.query[name] = texts;
    else if (location === 'header') wire.headers[name.toLowerCase()] = texts;
    else wire.cookies[name] = texts;
  };
  if (schema.kind === 'array') {
    const kinds = kindsOf(schema.items ?? { kind: 'any' });
    const list = (Array.isArray(value) ? value : [value]).map((v) => text(v, true));
    const expected = list.map((t) => readScalar(t, kinds));
    const repeats = (location === 'query' || location === 'cookie') && explode === true;
    if (style === 'deepObject') {
      // `name[]=a&name[]=b`, or `name[0]=a&name[1]=b` (in any order of fields).
      if (list.length === 0) return undefined;
      if (pick % 2 === 0) wire.query[`${name}[]`] = list.length === 1 ? list[0]! : list;
      else [...list.keys()].reverse().forEach((i) => (wire.query[`${name}[${i}]`] = list[i]!));
    } else if (repeats) {
      if (list.length === 0) return undefined;
      set(list.length === 1 ? list[0]! : list);
    } else if (style === 'label') set('.' + list.join(explode ? '.' : ','));
    else if (style === 'matrix') set(explode ? list.map((t) => `;${name}=${t}`).join('') : `;${name}=${list.join(',')}`);
    else set(list.join(style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ','));
    return { expected };
  }
  if (schema.kind === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [text(k === '__proto__' ? 'proto' : k, true), text(v, false)] as const);
    const expected: Record<string, unknown> = {};
    const rest = typeof schema.additionalProperties === 'boolean' ? new Set(['string'] as const) : kindsOf(schema.additionalProperties);
    for (const [k, t] of entries) {
      const property = schema.properties.find((p) => p.name === k);
      expected[k] = readScalar(t, property ? kindsOf(property.schema) : (rest as Kinds));
    }
    const used = new Map(entries);
    if (style === 'deepObject' || ((location === 'query' || location === 'cookie') && explode === true)) {
      // A map that lists no properties takes every field (the only parameter of its operation here).
      const freeForm = schema.properties.length === 0 && schema.additionalProperties !== false;
      if (style !== 'deepObject' && !freeForm) {
        // Only listed properties can be told apart from other fields.
        for (const k of Object.keys(expected)) if (!schema.properties.some((p) => p.name === k)) delete expected[k];
        for (const k of [...used.keys()]) if (!(k in expected)) used.delete(k);
      }
      if (used.size === 0) return undefined;
      for (const [k, t] of used) {
        const key = style === 'deepObject' ? `${name}[${k}]` : k;
        if (location === 'cookie') wire.cookies[key] = t;
        else wire.query[key] = t;
      }
      return { expected };
    }
    const pairs = [...used].flatMap(([k, t]) => [k, t]);
    const assigned = [...used].map(([k, t]) => `${k}=${t}`);
    if (style === 'label') set(explode ? '.' + assigned.join('.') : '.' + pairs.join(','));
    else if (style === 'matrix') set(explode ? assigned.map((a) => ';' + a).join('') : `;${name}=${pairs.join(',')}`);
    else if (style === 'simple') set(explode ? assigned.join(',') : pairs.join(','));
    else set(pairs.join(style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ','));
    return { expected };
  }
  const t = text(value, false);
  if (style === 'label') set('.' + t);
  else if (style === 'matrix') set(`;${name}=${t}`);
  else set(t);
  return { expected: readScalar(t, kindsOf(schema)) };
}

describe('decoders of every parameter style agree with ajv', () => {
  it('cover every style and location', () => {
    const seen = new Set(cases.map(({ parameter: p }) => `${p.location} ${p.style}${p.explode ? ' exploded' : ''} ${p.schema.kind}`));
    for (const want of [
      'query form exploded array',
      'query form array',
      'query spaceDelimited array',
      'query pipeDelimited array',
      'query deepObject object',
      'query deepObject exploded array',
      'query deepObject exploded union',
      'query form exploded union',
      'query form exploded object',
      'query form object',
      'path simple array',
      'path label exploded array',
      'path matrix array',
      'path matrix exploded object',
      'path label string',
      'header simple array',
      'header simple exploded object',
      'cookie form array',
      'cookie form exploded union',
    ]) {
      expect(seen, want).toContain(want);
    }
  });

  it('agree on fast-check values written in each style', () => {
    let valid = 0;
    let invalid = 0;
    for (const { label, camel, parameter } of cases) {
      const theirs = ajv.compile(toJsonSchema(parameter.schema));
      const key = parameter.key ?? parameter.name;
      fc.assert(
        fc.property(arbitraryFor(parameter.schema, model), fc.nat(), (value, pick) => {
          const wire: Wire = { path: {}, query: {}, headers: {}, cookies: {} };
          const written = encode(parameter, value, wire, pick);
          fc.pre(written !== undefined);
          const result = generated.decoders[camel]!({ ...wire, body: {} } as never);
          const verdict = theirs(written!.expected);
          if (verdict) valid++;
          else invalid++;
          expect(result.ok, `${label}: ${JSON.stringify(wire)} -> ${JSON.stringify(written!.expected)}`).toBe(verdict);
          if (result.ok) expect(result.value[key]).toEqual(written!.expected);
          else expect(result.error.parameter).toBe(parameter.name);
        }),
        { numRuns: RUNS, seed: 4361 },
      );
    }
    expect(valid).toBeGreaterThan(cases.length * RUNS * 0.3);
    expect(invalid).toBeGreaterThan(cases.length * RUNS * 0.05);
  });

  it('refuses text not written in the parameter style', () => {
    const find = (name: string, location: string) => cases.find((c) => c.parameter.name === name && c.parameter.location === location)!;
    const decode = (camel: string, raw: Partial<Wire>) => generated.decoders[camel]!({ path: {}, query: {}, body: {}, ...raw } as never);
    const labelCase = cases.find((c) => c.parameter.style === 'label' && c.parameter.schema.kind === 'array')!;
    expect(decode(labelCase.camel, { path: { ids: '1.2' } })).toMatchObject({ ok: false, error: { rule: 'style' } });
    const matrix = cases.find((c) => c.parameter.style === 'matrix' && c.parameter.schema.kind === 'array')!;
    expect(decode(matrix.camel, { path: { ids: ';other=1' } })).toMatchObject({ ok: false, error: { rule: 'style' } });
    const color = find('color', 'query');
    expect(decode(color.camel, { query: { color: 'R,100,G' } })).toMatchObject({ ok: false, error: { rule: 'style' } });
  });

  it('reads exploded form objects and deepObject fields, and does not report them as unknown', () => {
    const point = cases.find((c) => c.parameter.name === 'point')!;
    expect(generated.decoders[point.camel]!({ path: {}, query: { x: '1.5', y: '-2', z: '0' }, body: {} })).toEqual({
      ok: true,
      value: { point: { x: 1.5, y: -2 } },
      unsupported: ['z'],
    });
    const filter = cases.find((c) => c.parameter.name === 'filter')!;
    expect(generated.decoders[filter.camel]!({ path: {}, query: { 'filter[min]': '1', 'filter[open]': 'true', other: 'x' }, body: {} })).toEqual({
      ok: true,
      value: { filter: { min: 1, open: true } },
      unsupported: ['other'],
    });
    expect(generated.decoders[filter.camel]!({ path: {}, query: { 'filter[nope]': '1' }, body: {} })).toMatchObject({ ok: false, error: { parameter: 'filter' } });
  });
});
