/**
 * The `types` target calls openapi-typescript's transform directly
 * (generator/targets/types/transform.ts) instead of `openapiTS()`, which lints
 * and bundles the document again with its own Redocly. Both must give the
 * same declarations for every bundled document we generate from: this
 * catches an openapi-typescript upgrade that changes the context it builds.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { openapiTypescript } from '../../../../generator/cjs.js';
import { loadSpec } from '../../../../generator/load/index.js';
import { inlineDeepRefs } from '../../../../generator/targets/types/declarations.js';
import { declarations, type TransformOptions } from '../../../../generator/targets/types/transform.js';
import { syntheticSpec } from '../../../support/synthetic-spec.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixtures = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['malformed', 'swagger20', 'near-miss', 'schema-null-in-union'].includes(entry.name))
    .map((entry) => join(folder, entry.name, 'openapi.yaml'));

const specs = ['spec/openapi.yaml', ...fixtures('test/fixtures/generator'), ...fixtures('test/fixtures/generator/near-miss'), ...fixtures('test/fixtures/schemas')];

async function viaOpenapiTS(document: Record<string, unknown>, options: TransformOptions): Promise<string> {
  const { default: openapiTS, astToString } = openapiTypescript();
  return astToString(await openapiTS(structuredClone(document) as unknown as OpenAPI3, { silent: true, ...options }));
}

/** The declarations, or the message it stopped with. */
async function outcome(run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const variants: TransformOptions[] = [{ defaultNonNullable: false }, { defaultNonNullable: false, readWriteMarkers: true }];

describe('openapi-typescript transform without openapiTS()', () => {
  it.each(specs)('gives the same declarations as openapiTS() for %s', async (spec) => {
    const { document } = await loadSpec(spec, root);
    for (const options of variants) {
      // A document openapi-typescript cannot take as loaded (the types target adjusts it first) fails alike both ways.
      const direct = await outcome(async () => declarations(structuredClone(document) as unknown as OpenAPI3, options));
      expect(direct.length).toBeGreaterThan(0);
      expect(direct).toBe(await outcome(() => viaOpenapiTS(document, options)));
    }
  });

  it('gives the same declarations for a small copy of the synthetic document (allOf chain, large union)', async () => {
    const document = syntheticSpec({ resources: 3, eventKinds: 20, wideFields: 30, depth: 6 });
    const options: TransformOptions = { defaultNonNullable: false };
    expect(declarations(structuredClone(document) as unknown as OpenAPI3, options)).toBe(await viaOpenapiTS(document, options));
  });
});

describe('refs into paths or inside components, before openapi-typescript', () => {
  const body = (schema: unknown) => ({ requestBody: { content: { 'application/json': { schema } } }, responses: { '204': { description: 'ok' } } });
  const BODY = '#/paths/~1a/post/requestBody/content/application~1json/schema';

  it('are replaced by a copy of their target; a ref back to itself becomes unknown; whole components and data stay', () => {
    const source = {
      openapi: '3.1.0',
      paths: {
        '/a': {
          post: body({ type: 'object', properties: { self: { $ref: BODY }, pet: { $ref: '#/components/schemas/Pet' } } }),
          put: body({ $ref: `${BODY}/properties/pet`, description: 'as in post' }),
          patch: body({ $ref: '#/components/schemas/Pet/properties/id', maxLength: 3, example: { $ref: BODY } }),
        },
      },
      components: { schemas: { Pet: { type: 'object', properties: { id: { type: 'string' } } } } },
    };
    const document = structuredClone(source);
    inlineDeepRefs(document, source);
    const schema = (method: 'post' | 'put' | 'patch') => document.paths['/a'][method].requestBody.content['application/json'].schema;
    expect(schema('post')).toEqual({ type: 'object', properties: { self: { type: 'object', properties: { self: {}, pet: { $ref: '#/components/schemas/Pet' } } }, pet: { $ref: '#/components/schemas/Pet' } } });
    expect(schema('put')).toEqual({ $ref: '#/components/schemas/Pet', description: 'as in post' });
    expect(schema('patch')).toEqual({ maxLength: 3, example: { $ref: BODY }, allOf: [{ type: 'string' }] });
    // The source is left as it was.
    expect(JSON.stringify(source)).toContain(`"self":{"$ref":"${BODY}"}`);
  });

  it('give declarations without an index into paths', () => {
    const source = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': {
          post: body({ type: 'object', properties: { n: { type: 'integer' } } }),
          get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `${BODY}/properties/n` } } } } } },
        },
      },
    };
    const document = structuredClone(source);
    inlineDeepRefs(document, source);
    const text = declarations(document as unknown as OpenAPI3, { defaultNonNullable: false });
    expect(text).not.toContain('paths["/a"]');
    expect(text).toMatch(/"application\/json": number;/);
  });
});
