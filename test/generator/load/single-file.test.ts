/**
 * A document in one file that refers to nothing outside itself is parsed
 * without Redocly's bundler (generator/load/index.ts, `selfContained`).
 * Whatever path it takes, the loaded document must be the one Redocly's
 * bundle gives: checked on single-file fixtures (YAML), the synthetic
 * document (JSON), and documents the fast path must hand to Redocly.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec, type LoadedSpec } from '../../../generator/load/index.js';
import { syntheticSpec } from '../../support/synthetic-spec.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'teamchat-single-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const singleFile = ['test/fixtures/generator', 'test/fixtures/schemas', 'test/fixtures/generator/near-miss'].flatMap((folder) =>
  readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['malformed', 'swagger20', 'basic', 'near-miss', 'schema-null-in-union'].includes(entry.name))
    .map((entry) => join(folder, entry.name, 'openapi.yaml')),
);

const view = (loaded: LoadedSpec) => ({ document: loaded.document, warnings: loaded.warnings, version: loaded.sourceVersion, files: loaded.files });

async function bothWays(spec: string, at = root): Promise<[unknown, unknown]> {
  const fast = view(await loadSpec(spec, at));
  const redocly = view(await loadSpec(spec, at, { bundler: 'redocly' }));
  return [fast, redocly];
}

function write(name: string, document: unknown): string {
  writeFileSync(join(scratch, name), typeof document === 'string' ? document : JSON.stringify(document, null, 2));
  return name;
}

const base = {
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  paths: {
    '/a': {
      get: {
        operationId: 'get-a',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } },
      },
    },
  },
  components: { schemas: { A: { type: 'object', nullable: true, properties: { id: { type: 'integer' } } } } },
};

describe('a self-contained document loads as Redocly bundles it', () => {
  it.each(singleFile)('%s', async (spec) => {
    const [fast, redocly] = await bothWays(spec);
    expect(fast).toEqual(redocly);
  });

  it('the synthetic document as JSON', async () => {
    const [fast, redocly] = await bothWays(write('synthetic.json', syntheticSpec({ resources: 4, eventKinds: 20, wideFields: 30, depth: 6 })), scratch);
    expect(fast).toEqual(redocly);
  });

  it('a document without components gets an empty components object, as from Redocly', async () => {
    const { components: _, ...bare } = base;
    const document = { ...bare, paths: { '/b': { get: { operationId: 'get-b', responses: { '204': { description: 'none' } } } } } };
    const [fast, redocly] = await bothWays(write('bare.json', document), scratch);
    expect((fast as { document: Record<string, unknown> }).document.components).toEqual({});
    expect(fast).toEqual(redocly);
  });

  it('a `$ref` inside an example, an externalValue or a mapping to a file: Redocly decides', async () => {
    const withExampleRef = structuredClone(base) as Record<string, any>;
    withExampleRef.components.examples = { a: { value: { id: 1 } } };
    withExampleRef.paths['/a'].get.responses['200'].content['application/json'].example = { $ref: '#/components/examples/a/value' };
    const [fast, redocly] = await bothWays(write('example-ref.json', withExampleRef), scratch);
    expect(fast).toEqual(redocly);
  });

  it('a `$ref` in an extension, in a default, or as a property name: loaded as Redocly bundles it', async () => {
    const inExtension = structuredClone(base) as Record<string, any>;
    inExtension.paths['/a'].get['x-source'] = { $ref: '#/components/schemas/A' };
    const inDefault = structuredClone(base) as Record<string, any>;
    inDefault.components.schemas.A.default = { $ref: '#/components/schemas/A' };
    const asName = structuredClone(base) as Record<string, any>;
    asName.components.schemas.A.properties = { $ref: { type: 'string' }, id: { $ref: '#/components/schemas/Id' } };
    asName.components.schemas.Id = { type: 'integer' };
    for (const [name, document] of [['in-extension', inExtension], ['in-default', inDefault], ['as-name', asName]] as const) {
      const [fast, redocly] = await bothWays(write(`${name}.json`, document), scratch);
      expect(fast).toEqual(redocly);
    }
  });

  it('YAML with anchors and merge keys', async () => {
    const yaml = [
      'openapi: 3.1.0',
      'info: {title: T, version: "1"}',
      'paths:',
      '  /a:',
      '    get:',
      '      operationId: get-a',
      '      responses:',
      "        '200': &ok",
      '          description: ok',
      '          content: {application/json: {schema: {$ref: "#/components/schemas/A"}}}',
      '    post:',
      '      operationId: post-a',
      '      responses:',
      "        '200': {<<: *ok, description: created}",
      'components:',
      '  schemas:',
      '    A: {type: object, properties: {when: {type: string, examples: [2024-01-01]}, on: {type: boolean, default: no}}}',
      '',
    ].join('\n');
    const [fast, redocly] = await bothWays(write('merge.yaml', yaml), scratch);
    expect(fast).toEqual(redocly);
  });
});
