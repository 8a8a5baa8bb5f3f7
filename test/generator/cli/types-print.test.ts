/**
 * The `types` target prints openapi-typescript's syntax nodes with its own
 * printer (generator/targets/types/print.ts), handing TypeScript's printer
 * only the declarations it does not cover. The text must be the one
 * TypeScript's printer gives, on every fixture document and on one written
 * to be awkward (comments with `*\/`, CR, tabs and U+2028, non-ASCII and
 * quoted names, negative and nested literals, empty tuples); and the fast
 * path must be the one taken, TypeScript printing only what was parsed
 * from text (openapi-typescript's helper types).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { openapiTypescriptTransform, typescript } from '../../../generator/cjs.js';
import { loadSpec } from '../../../generator/load/index.js';
import { printDeclarations } from '../../../generator/targets/types/print.js';
import { declarationNodes, type TransformOptions } from '../../../generator/targets/types/transform.js';
import { syntheticSpec } from '../../support/synthetic-spec.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['malformed', 'swagger20', 'near-miss', 'schema-null-in-union'].includes(entry.name))
    .map((entry) => join(folder, entry.name, 'openapi.yaml'));
// `values` has an `enum` beside `type: object`, which openapi-typescript refuses until the types target adjusts the document.
const specs = ['spec/openapi.yaml', ...fixtures('test/fixtures/generator'), ...fixtures('test/fixtures/schemas').filter((spec) => !spec.includes('/values/'))];
const variants: TransformOptions[] = [{ defaultNonNullable: false }, { defaultNonNullable: false, readWriteMarkers: true }];

/** Both printers' text of one document, and the statements ours handed to TypeScript's. */
function printBoth(document: Record<string, unknown>, options: TransformOptions) {
  const { astToString } = openapiTypescriptTransform();
  const nodes = declarationNodes(structuredClone(document) as unknown as OpenAPI3, options);
  const handedOver: number[] = [];
  const ours = printDeclarations(typescript(), nodes, (node) => {
    handedOver.push(nodes.indexOf(node));
    return astToString([node]);
  });
  const parsed = nodes.flatMap((node, index) => (node.pos >= 0 ? [index] : []));
  return { ours, theirs: astToString(nodes), handedOver, parsed, count: nodes.length };
}

const awkward = {
  openapi: '3.1.0',
  info: { title: 'awkward', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'get-thing',
        summary: 'Get a thing */ now',
        description: 'Line one\r\nline two\twith a tab\u2028after a separator\n\n    indented */ line\n\t\ttabbed',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: -5, enum: [-1, 0, 2.5] } }],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['naïve', 'quote"d'],
                  properties: {
                    'naïve': { type: 'string', description: 'Ünïcödé 🎉 and "quotes" and \\ backslash' },
                    'quote"d': { type: ['string', 'null'], enum: ['a"b', 'c\\d', 'e\nf', '\u0000', 'é', null] },
                    'with space': { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
                    nested: { type: 'array', items: { type: 'array', items: { oneOf: [{ const: true }, { const: -3 }] } } },
                    tuple: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
                    empty: { type: 'array', prefixItems: [], items: false },
                    map: { type: 'object', additionalProperties: { type: 'string', readOnly: true } },
                    both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'number', writeOnly: true } } }] },
                    nothing: { type: 'object', properties: {} },
                    '200': { type: 'boolean', default: false, example: { x: [1, 2] }, deprecated: true, title: 'Title\nover lines' },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  components: { schemas: { Empty: { type: 'object' }, Pet: { type: 'object', properties: { name: { type: 'string', format: 'date-time' } } } } },
};

describe('types printer', () => {
  it.each(specs)('prints %s as TypeScript does', async (spec) => {
    const { document } = await loadSpec(spec, root);
    for (const options of variants) {
      const { ours, theirs, handedOver, parsed, count } = printBoth(document, options);
      expect(ours).toBe(theirs);
      expect(handedOver).toEqual(parsed);
      expect(count - handedOver.length).toBeGreaterThanOrEqual(3);
    }
  });

  it('prints an awkward document and a copy of the synthetic one as TypeScript does', () => {
    for (const document of [awkward, syntheticSpec({ resources: 3, eventKinds: 20, wideFields: 30, depth: 6 })]) {
      for (const options of variants) {
        const { ours, theirs, handedOver, parsed } = printBoth(document, options);
        expect(ours).toBe(theirs);
        expect(handedOver).toEqual(parsed);
      }
    }
  });
});
