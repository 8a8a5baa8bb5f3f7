/**
 * A path whose item is a `$ref` to another path's item (an alias): each path
 * gets operations of its own, named from its own path, so no two operations
 * share a name in the model, the types or the server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { generate } from '../../../generator/cli/pipeline.js';
import { targets } from '../../../generator/targets/index.js';
import { config, fixtureModel, tempProject } from '../../support/generator.js';

it('gives each path its own operations, renaming a copied operationId with a note', async () => {
  const model = await fixtureModel('path-item-ref');
  expect(model.operations.map((o) => [o.path, o.id])).toEqual([
    ['/animals', 'get-animals'],
    ['/ip-address', 'get-ip-address'],
    ['/pets', 'listPets'],
    ['/support/ip-address', 'get-support-ip-address'],
  ]);
  expect(model.operations.find((o) => o.id === 'get-support-ip-address')?.summary).toBe("The caller's address");
  expect(model.warnings).toEqual([
    expect.stringMatching(/^test\/fixtures\/generator\/path-item-ref\/openapi\.yaml:25: path `\/animals` refers to another path's item: its operations are named from their own path/),
  ]);
});

it('types each operation once', async () => {
  const project = tempProject('path-item-ref');
  try {
    const wanted = ['types', 'server'];
    await generate(config(project.root, {}, wanted), targets.filter((t) => wanted.includes(t.name)));
    const types = readFileSync(join(project.root, 'generated/types.ts'), 'utf8');
    for (const id of ['get-animals', 'get-ip-address', 'listPets', 'get-support-ip-address']) {
      expect(types.match(new RegExp(`^    "?${id}"?: \\{`, 'gm')), id).toHaveLength(1);
    }
  } finally {
    project.dispose();
  }
});
