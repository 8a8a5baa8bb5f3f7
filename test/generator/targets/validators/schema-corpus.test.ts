/**
 * The schema corpus (test/fixtures/schemas/<family>/openapi.yaml, one small
 * document per construct family): golden output for the validators and types
 * targets (type-checked by `npm run lint` under strict and
 * noUncheckedIndexedAccess), differential tests of every named schema's
 * validator against ajv (draft 2020-12) on fast-check values, and the
 * documents' own examples.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type LoadedSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import { patternFlags } from '../../../../generator/model/schema.js';
import type { ApiModel, Schema } from '../../../../generator/model/types.js';
import { renderValidators } from '../../../../generator/targets/validators/index.js';
import { arbitraryFor } from '../../../fixtures/validators/arbitraries.js';
import { loadGenerated, removeWritten, TEMPLATES_DIR, type GeneratedValidators } from '../../../fixtures/validators/load.js';
import { expectGoldenValidatorsAndTypes } from '../../../support/goldens.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CORPUS = join(ROOT, 'test/fixtures/schemas');
const FAMILIES = readdirSync(CORPUS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const DOC = 'https://teamchat.test/corpus.json';

/** Schemas whose meaning we choose to differ from plain JSON Schema, each with why (tested on their own below). */
const CHOSEN_DIFFERENCES: Record<string, string> = {
  'composition.Closed': '`additionalProperties: false` in an allOf member covers every member\'s properties',
};

type Validate = (value: unknown, options?: { strict?: boolean; allErrors?: boolean }) => { path: string; message: string }[];

interface Family {
  loaded: LoadedSpec;
  model: ApiModel;
  generated: GeneratedValidators;
  ajv: Ajv2020;
}

const families = new Map<string, Family>();

beforeAll(async () => {
  for (const name of FAMILIES) {
    const loaded = await loadSpec(join(CORPUS, name, 'openapi.yaml'), ROOT);
    const model = buildModel(loaded);
    const generated = await loadGenerated(model);
    // Patterns as the generator compiles them (ECMA-262, Unicode mode only when needed); one that does not compile is not checked.
    const ajv = new Ajv2020({
      strict: false,
      code: {
        regExp: ((pattern: string) => {
          try {
            return new RegExp(pattern, patternFlags(pattern));
          } catch {
            return { test: () => true };
          }
        }) as never,
      },
    });
    addFormats(ajv);
    ajv.addSchema({ ...structuredClone(loaded.document), $id: DOC });
    families.set(name, { loaded, model, generated, ajv });
  }
}, 120_000);

afterAll(removeWritten);

const family = (name: string): Family => families.get(name)!;
const ours = (name: string, schema: string): Validate => (family(name).generated.schemaValidators as Record<string, Validate>)[schema]!;
const theirs = (name: string, schema: string) => family(name).ajv.getSchema(`${DOC}#/components/schemas/${encodeURIComponent(schema)}`)!;

describe.each(FAMILIES)('schema family %s', (name) => {
  it('generates golden validators and types', () => expectGoldenValidatorsAndTypes(family(name).model, join(CORPUS, name, 'golden')));

  it('agrees with ajv on every named schema', () => {
    const { model } = family(name);
    let valid = 0;
    let invalid = 0;
    for (const named of model.schemas) {
      if (CHOSEN_DIFFERENCES[`${name}.${named.name}`] !== undefined) continue;
      const check = ours(name, named.name);
      const oracle = theirs(name, named.name);
      fc.assert(
        fc.property(arbitraryFor(named.schema, model), (value) => {
          const verdict = check(value).length === 0;
          if (verdict) valid++;
          else invalid++;
          expect(verdict, `${named.name}: ${JSON.stringify(value)}`).toBe(oracle(value));
        }),
        { numRuns: 150, seed: 4361 },
      );
    }
    // Both verdicts must be exercised, or the comparison proves little.
    expect(valid).toBeGreaterThan(model.schemas.length * 5);
    expect(invalid).toBeGreaterThan(model.schemas.length * 5);
  });

  it('accepts every example ajv accepts, and only those', () => {
    const { model } = family(name);
    let seen = 0;
    for (const named of model.schemas) {
      if (CHOSEN_DIFFERENCES[`${name}.${named.name}`] !== undefined) continue;
      for (const example of examplesOf(named.schema)) {
        seen++;
        const verdict = ours(name, named.name)(example).length === 0;
        expect(verdict, `${named.name}: ${JSON.stringify(example)}`).toBe(theirs(name, named.name)(example));
      }
    }
    if (['composition', 'unions', 'strings', 'arrays', 'objects'].includes(name)) expect(seen).toBeGreaterThanOrEqual(2);
  });
});

function examplesOf(schema: Schema): unknown[] {
  return schema.examples ?? [];
}

describe('composition semantics', () => {
  it('a base property re-listed as {} keeps its schema (intersection, not replacement)', () => {
    const check = ours('composition', 'Relisted');
    expect(check({ result: 'success', msg: 'hi' })).toEqual([]);
    expect(check({ result: 'error', msg: 'hi' })).not.toEqual([]);
    expect(check({ result: 'success', msg: 'hi', extra: -1 })).not.toEqual([]);
  });

  it('additionalProperties: false on a composed object allows every member\'s properties and nothing else', () => {
    const check = ours('composition', 'Closed');
    expect(check({ result: 'success', msg: '', extra: 'x' })).toEqual([]);
    expect(check({ result: 'success', msg: '' })).toEqual([]);
    expect(check({ result: 'success', msg: '', other: 1 })).toEqual([{ path: '$.other', message: 'is not allowed' }]);
    expect(check({ result: 'error', msg: '' })).not.toEqual([]);
  });

  it('strict mode knows the keys of a union beside an object', () => {
    const check = ours('composition', 'WithUnion');
    expect(check({ id: 1, email: 'a' }, { strict: true })).toEqual([]);
    expect(check({ id: 1, email: 'a', zzz: 1 }, { strict: true })).toEqual([{ path: '$.zzz', message: 'is not a known property' }]);
    expect(check({ id: 1, email: 'a', phone: 'b' })).not.toEqual([]);
  });

  it('an enum refines a referenced string', () => {
    const check = ours('composition', 'Narrowed');
    expect(check('success')).toEqual([]);
    expect(check('error')).not.toEqual([]);
  });

  it('model: allOf merges into one object; a union beside it is kept as an extra check', () => {
    const schemas = new Map(family('composition').model.schemas.map((s) => [s.name, s.schema]));
    const relisted = schemas.get('Relisted')!;
    expect(relisted.kind).toBe('object');
    if (relisted.kind !== 'object') return;
    expect(relisted.properties.map((p) => p.name)).toEqual(['result', 'msg', 'extra']);
    expect(relisted.properties[0]!.schema).toMatchObject({ kind: 'string', const: 'success' });
    expect(relisted.properties[1]!.schema).toMatchObject({ kind: 'string', description: 'The message.' });
    const withUnion = schemas.get('WithUnion')!;
    expect(withUnion.kind).toBe('object');
    expect(withUnion.allOf?.[0]?.kind).toBe('union');
  });
});

describe('unions', () => {
  it('discriminators come from the mapping, the variants\' consts, or are found when every variant pins one', () => {
    const schemas = new Map(family('unions').model.schemas.map((s) => [s.name, s.schema]));
    expect(schemas.get('PetMapped')).toMatchObject({ exclusive: true, discriminator: { propertyName: 'kind', mapping: { cat: 'Cat', dog: 'Dog' } } });
    expect(schemas.get('PetUnmapped')).toMatchObject({ discriminator: { mapping: { cat: 'Cat', dog: 'Dog', fish: 'Fish' } } });
    expect(schemas.get('PetImplicit')).toMatchObject({ discriminator: { propertyName: 'kind', implicit: true } });
  });

  it('a discriminated union dispatches on its property instead of trying each variant', () => {
    const { model } = family('unions');
    const source = renderValidators(model, TEMPLATES_DIR, 'x').validators;
    const body = source.slice(source.indexOf('function checkPetImplicit('), source.indexOf('\n}\n', source.indexOf('function checkPetImplicit(')));
    expect(body).toContain('switch (');
    expect(ours('unions', 'PetImplicit')({ kind: 'dog', good: 'yes' })).toEqual([{ path: '$.good', message: 'must be a boolean' }]);
    expect(ours('unions', 'PetImplicit')({ kind: 'cow' })).toEqual([{ path: '$.kind', message: 'must be one of "cat", "dog", "fish"' }]);
  });

  it('oneOf refuses a value that matches two variants', () => {
    expect(ours('unions', 'Overlapping')(5)).not.toEqual([]);
    expect(ours('unions', 'Overlapping')(20)).toEqual([]);
  });
});

describe('large documents', () => {
  it('a large object written inline several times is checked by one shared function', () => {
    const source = renderValidators(family('repeated').model, TEMPLATES_DIR, 'x').validators;
    expect(source.match(/^\/\*\* A shape the document writes inline in several places\. \*\/\nfunction check\w+\(/gm)).toHaveLength(1);
    // Once in the shared check function, once in its predicate.
    expect(source.match(/\["county"\]/g)).toHaveLength(2);
    expect(ours('repeated', 'Shipping')({ to: { street: 'a', city: 'b' } })).toEqual([]);
    expect(ours('repeated', 'Shipping')({ from: { street: 'a' } })).toEqual([{ path: '$.from.city', message: 'is required' }]);
  });

  it('a 3.1 document with draft-4 boolean bounds means the draft-4 form', () => {
    expect(ours('numbers', 'DraftFourBounds')(1)).not.toEqual([]);
    expect(ours('numbers', 'DraftFourBounds')(1.5)).toEqual([]);
  });
});

describe('patterns and formats', () => {
  it('compiles ECMA-262 patterns without forcing Unicode mode', () => {
    expect(ours('strings', 'Slug')('snake_case')).toEqual([]);
    expect(ours('strings', 'Slug')('Snake')).not.toEqual([]);
    expect(ours('strings', 'Unicode')('Émile')).toEqual([]);
  });

  it('a pattern that is not a JavaScript regex is not checked, with a warning naming file and line', () => {
    expect(ours('strings', 'Python')('anything')).toEqual([]);
    expect(family('strings').model.warnings).toEqual([
      expect.stringMatching(/^test\/fixtures\/schemas\/strings\/openapi\.yaml:15: pattern "\(\?P<id>\[0-9\]\+\)" is not a valid ECMA-262 regular expression/),
    ]);
  });

  it('checks the cheap standard formats and leaves others as annotations', () => {
    expect(ours('strings', 'When')('2024-02-01T10:00:00Z')).toEqual([]);
    expect(ours('strings', 'When')('yesterday')).toEqual([{ path: '$', message: 'must be a valid date-time' }]);
    expect(ours('strings', 'Id')('not-a-uuid')).not.toEqual([]);
    expect(ours('strings', 'Opaque')('whatever')).toEqual([]);
  });
});
