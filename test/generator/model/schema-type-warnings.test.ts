/** A `type` the model does not know degrades to an unchecked value, with a note that says what was found. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadSpec } from '../../../generator/load/index.js';
import { buildModel } from '../../../generator/model/build.js';

const root = mkdtempSync(join(tmpdir(), 'teamchat-type-warnings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('names an unknown type, and says what a `type` holding something else holds', async () => {
  const text = [
    'openapi: 3.0.3',
    'info: {title: T, version: "1"}',
    'paths: {}',
    'components:',
    '  schemas:',
    '    Item:',
    '      type: object',
    '      properties:',
    '        kind:',
    '          type: {description: Type of the item., type: string}',
    '        upload:',
    '          type: file',
    '',
  ].join('\n');
  writeFileSync(join(root, 'openapi.yaml'), text);
  const model = buildModel(await loadSpec('openapi.yaml', root));
  expect(model.warnings).toEqual([
    'openapi.yaml:10: `type` holds an object, not a type name: it is not checked',
    'openapi.yaml:12: unknown type `file`: values of that type are not checked',
  ]);
  const item = model.schemas.find((s) => s.name === 'Item')!.schema;
  expect(item.kind === 'object' && item.properties.map((p) => p.schema.kind)).toEqual(['any', 'any']);
});
