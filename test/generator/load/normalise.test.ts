import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec, SpecError } from '../../../generator/load/index.js';
import { FIXTURES } from '../../support/generator.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const load = (fixture: string) => loadSpec(join(FIXTURES, fixture, 'openapi.yaml'), root);

type Node = Record<string, any>;

describe('OpenAPI 3.0 is normalised to 3.1 by the loader', () => {
  it('rewrites nullable, boolean exclusive bounds and example', async () => {
    const loaded = await load('openapi30');
    const doc = loaded.document as Node;
    expect(loaded.sourceVersion).toBe('3.0.3');
    expect(doc.openapi).toBe('3.1.0');

    const limit = doc.paths['/pets'].get.parameters[0].schema;
    expect(limit).toEqual({ examples: [20], exclusiveMinimum: 0, maximum: 100, type: 'integer' });

    const pet = doc.components.schemas.Pet.properties;
    expect(pet.name).toEqual({ examples: ['Rex'], type: ['string', 'null'] });
    expect(pet.kind).toEqual({ enum: ['cat', 'dog', null], type: ['string', 'null'] });
    expect(pet.owner).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }],
      description: 'Who looks after it.',
    });
    expect(pet.tag).toEqual({ anyOf: [{ allOf: [{ $ref: '#/components/schemas/Owner' }] }, { type: 'null' }] });
    expect(pet.anything).toEqual({});
    expect(pet.age).toEqual({ exclusiveMaximum: 30, type: 'number' });
  });

  it('keeps file:line for nodes it creates', async () => {
    const loaded = await load('openapi30');
    const owner = (loaded.document as Node).components.schemas.Pet.properties.owner;
    const file = 'test/fixtures/generator/openapi30/openapi.yaml';
    expect(loaded.sources.locate(owner)).toEqual({ file, line: 62 });
    expect(loaded.sources.locate(owner.anyOf[0])).toEqual({ file, line: 62 });
    expect(loaded.sources.locate(owner.anyOf[1])).toEqual({ file, line: 62 });
  });

  it('drops callbacks with one note naming file and line', async () => {
    const loaded = await load('openapi30');
    expect((loaded.document as Node).paths['/pets'].get.callbacks).toBeUndefined();
    expect(loaded.warnings).toEqual([
      'test/fixtures/generator/openapi30/openapi.yaml:26: ignored `callbacks` of 1 operation: the generator covers requests the API receives, not ones it sends',
    ]);
  });

  it('leaves a 3.1 document as written', async () => {
    const loaded = await load('basic');
    expect(loaded.sourceVersion).toBe('3.1.0');
    expect(loaded.warnings).toEqual([]);
  });
});

describe('Swagger 2.0', () => {
  it('is refused in one line that says how to convert it', async () => {
    const error = await load('swagger20').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    const message = (error as SpecError).message;
    expect(message).toMatch(/^test\/fixtures\/generator\/swagger20\/openapi\.yaml:1: Swagger 2\.0 is not supported: convert it to OpenAPI 3 first/);
    expect(message).toContain('swagger2openapi');
    expect(message).not.toContain('\n');
  });
});
