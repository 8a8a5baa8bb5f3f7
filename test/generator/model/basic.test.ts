import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiModel, ObjectSchema, Operation } from '../../../generator/model/types.js';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadSpec } from '../../../generator/load/index.js';
import { buildModel } from '../../../generator/model/build.js';
import { fixtureModel } from '../../support/generator.js';

let model: ApiModel;
const op = (id: string): Operation => {
  const found = model.operations.find((o) => o.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};

beforeAll(async () => {
  model = await fixtureModel('basic');
});

describe('model of the basic fixture', () => {
  it('reads the document header, base path and highest feature level', () => {
    expect(model.title).toBe('Fixture API');
    expect(model.version).toBe('2.0.0');
    expect(model.basePath).toBe('/api/v1');
    expect(model.maxFeatureLevel).toBe(30);
    expect(model.unspecified).toEqual(['The fixture does not say how clients learn the feature level.']);
    expect(model.tags.map((t) => t.name)).toEqual(['items', 'auth']);
  });

  it('finds the highest feature level among the nodes the loader checked, as a walk of the document does', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    for (const spec of [join(root, 'test/fixtures/generator/basic/openapi.yaml'), join(root, 'spec/openapi.yaml')]) {
      const loaded = await loadSpec(spec, root);
      expect(loaded.extended?.length).toBeGreaterThan(0);
      const walked = buildModel({ ...loaded, extended: undefined }).maxFeatureLevel;
      expect(walked).toBeGreaterThan(0);
      expect(buildModel(loaded).maxFeatureLevel).toBe(walked);
    }
  });

  it('sorts operations by path, then method', () => {
    expect(model.operations.map((o) => `${o.method} ${o.path}`)).toEqual([
      'get /items/{item_id}',
      'patch /items/{item_id}',
      'post /keys',
      'post /uploads',
    ]);
  });

  it('orders parameters path first, then query and body fields in spec order, with their encodings', () => {
    const shape = (o: Operation) => o.parameters.map((p) => [p.name, p.location, p.encoding, p.required]);
    expect(shape(op('get-item'))).toEqual([
      ['item_id', 'path', 'plain', true],
      ['verbose', 'query', 'plain', false],
      ['fields', 'query', 'json', false],
    ]);
    expect(shape(op('update-item'))).toEqual([
      ['item_id', 'path', 'plain', true],
      ['name', 'body', 'plain', false],
      ['tags', 'body', 'json', false],
      ['owner_id', 'body', 'json', false],
      ['kind', 'body', 'plain', false],
    ]);
    expect(shape(op('upload-file'))).toEqual([['file', 'body', 'file', true]]);
    expect(op('update-item').body).toBe('form');
    expect(op('upload-file').body).toBe('multipart');
    expect(op('get-item').body).toBe('none');
  });

  it('carries defaults, descriptions and feature-level notes of parameters', () => {
    const verbose = op('get-item').parameters.find((p) => p.name === 'verbose')!;
    expect(verbose).toMatchObject({ default: false, description: 'Whether to include the history.', featureLevel: 12 });
    expect(verbose.changes).toEqual([{ level: 12, change: 'Added.' }]);
    const tags = op('update-item').parameters.find((p) => p.name === 'tags')!;
    expect(tags.featureLevel).toBe(20);
    const ownerId = op('update-item').parameters.find((p) => p.name === 'owner_id')!;
    expect(ownerId.schema).toMatchObject({ kind: 'union', variants: [{ kind: 'integer' }, { kind: 'null' }] });
    expect(ownerId.description).toBe('New owner; null clears it.');
  });

  it('carries operation notes, auth and source location', () => {
    expect(op('get-item').featureLevel).toBe(10);
    expect(op('update-item')).toMatchObject({ deprecated: true, changes: [{ level: 20, change: 'Tags became a list.' }] });
    expect(op('fetch-key').auth).toBe(false);
    expect(op('get-item').auth).toBe(true);
    expect(op('get-item').source).toEqual({ file: 'test/fixtures/generator/basic/paths/items_{item_id}.yaml', line: 12 });
    expect(op('update-item').parameters[1]!.source).toEqual({ file: 'test/fixtures/generator/basic/paths/items_{item_id}.yaml', line: 86 });
  });

  it('merges the success envelope into one object schema', () => {
    const schema = op('get-item').success.schema as ObjectSchema;
    expect(schema.kind).toBe('object');
    expect(schema.properties.map((p) => [p.name, p.required])).toEqual([
      ['result', true],
      ['msg', true],
      ['item', true],
      ['history', false],
    ]);
    expect(schema.properties[2]!.schema).toMatchObject({ kind: 'ref', name: 'Item' });
    expect(schema.properties[3]!.schema).toMatchObject({ kind: 'union', unspecified: ['Element shape not shown.'] });
    expect(op('get-item').success.examples).toEqual([
      { name: 'found', summary: 'An item', value: { result: 'success', msg: '', item: { id: 7, name: 'Lamp', kind: 'lamp' } } },
    ]);
  });

  it('lists error codes per status, oneOf expanded', () => {
    expect(op('get-item').errors.map((e) => [e.status, e.codes])).toEqual([
      [400, ['BAD_REQUEST', 'ITEM_MISSING']],
      [401, ['UNAUTHORIZED']],
    ]);
    expect(model.errors.map((e) => [e.code, e.status, e.schemaName])).toEqual([
      ['BAD_REQUEST', 400, 'BadRequestError'],
      ['ITEM_MISSING', 400, 'ItemMissingError'],
      ['UNAUTHORIZED', 401, 'UnauthorizedError'],
    ]);
    expect(model.errors[1]!.extraFields.map((f) => [f.name, f.required, f.schema.kind])).toEqual([['item_id', true, 'integer']]);
  });

  it('keeps named schemas sorted, refs as ref nodes, and the constructs of each', () => {
    expect(model.schemas.map((s) => s.name)).toEqual([
      'BadRequestError', 'ErrorEnvelope', 'Item', 'ItemMissingError', 'Kind', 'SuccessEnvelope', 'UnauthorizedError',
    ]);
    const item = model.schemas.find((s) => s.name === 'Item')!.schema as ObjectSchema;
    expect(item.properties.find((p) => p.name === 'kind')!.schema).toEqual({ kind: 'ref', name: 'Kind', refName: 'Kind' });
    expect(item.properties.find((p) => p.name === 'labels')!.schema).toMatchObject({
      kind: 'object',
      additionalProperties: { kind: 'string' },
      propertyNamesPattern: '^[0-9]+$',
    });
    expect(item.properties.find((p) => p.name === 'pair')!.schema).toEqual({
      kind: 'array',
      prefixItems: [{ kind: 'string' }, { kind: 'boolean' }],
      featureLevel: 30,
    });
    expect(model.schemas.find((s) => s.name === 'Kind')!.schema).toMatchObject({
      kind: 'string',
      enum: ['lamp', 'desk'],
      changes: [{ level: 25, change: '`desk` was added.' }],
    });
    const error = model.schemas.find((s) => s.name === 'BadRequestError')!.schema as ObjectSchema;
    expect(error.properties.find((p) => p.name === 'code')!.schema).toEqual({
      kind: 'string',
      const: 'BAD_REQUEST',
      description: 'Machine-readable code.',
    });
  });

  it('collects request examples from the body and from parameters', () => {
    expect(op('update-item').requestExamples).toEqual([
      { name: 'first', summary: '', value: { item_id: 7 } },
      { name: 'rename', summary: 'Rename', value: { name: 'Desk lamp' } },
    ]);
  });

  it('keeps the bundled document for tools that need it', () => {
    expect(Object.keys((model.openapi!.components as { schemas: object }).schemas)).toContain('Item');
  });
});
