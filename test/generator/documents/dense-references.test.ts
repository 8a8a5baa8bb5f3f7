/**
 * Documents whose named schemas refer to each other densely, as Stripe's
 * does (every object has "expandable" fields: `anyOf: [string, $ref]`), and
 * whose operations each reach hundreds of named types. Made by a script here
 * (the real document is not ours to commit).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARGET_OPTIONS } from '../../../generator/config.js';
import { produce } from '../../../generator/cli/pipeline.js';
import { loadSpec } from '../../../generator/load/index.js';
import { buildModel } from '../../../generator/model/build.js';
import type { ApiModel } from '../../../generator/model/types.js';
import { newerResponseFields } from '../../../generator/targets/client/levels.js';
import { renderMarkdown } from '../../../generator/targets/docs/index.js';
import { PAGE_TYPE_LIMIT } from '../../../generator/targets/docs/operation-page.js';
import type { OutputFile, TargetContext } from '../../../generator/targets/types.js';
import { config } from '../../support/generator.js';

type Node = Record<string, unknown>;
const ref = (name: string): Node => ({ $ref: `#/components/schemas/${name}` });

/**
 * `Chain0` ... `Chain<n-1>`: each refers to the next three times (one of them
 * through an expandable union), so the named-schema paths from `Chain0` number
 * 3^n. `Small` refers to two schemas only. `levelled` puts `x-feature-level`
 * on a field of `Leaf`, reached from `Levelled` beside a dense chain.
 */
function denseSpec(n: number, levelled: boolean): Node {
  const schemas: Record<string, Node> = {};
  for (let i = 0; i < n; i++) {
    const next = i + 1 < n ? ref(`Chain${i + 1}`) : { type: 'string' };
    schemas[`Chain${i}`] = {
      type: 'object',
      properties: {
        id: { type: 'string' },
        expandable: { anyOf: [{ type: 'string' }, next] },
        direct: next,
        list: { type: 'array', items: next },
      },
    };
  }
  schemas.Small = { type: 'object', properties: { a: ref('Leaf'), b: { oneOf: [ref('Leaf'), { type: 'integer' }] } } };
  schemas.Leaf = { type: 'object', properties: { z: { type: 'integer', ...(levelled ? { 'x-feature-level': 5 } : {}) } } };
  schemas.Levelled = { type: 'object', properties: { dense: ref('Chain0'), deep: { type: 'object', properties: { leaf: ref('Leaf') } } } };
  const get = (id: string, schema: string): Node => ({
    get: { operationId: id, responses: { '200': { description: 'OK.', content: { 'application/json': { schema: ref(schema) } } } } },
  });
  return {
    openapi: '3.0.3',
    info: { title: 'Dense', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com' }],
    paths: { '/chain': get('getChain', 'Chain0'), '/small': get('getSmall', 'Small'), '/levelled': get('getLevelled', 'Levelled') },
    components: { schemas },
  };
}

const root = mkdtempSync(join(tmpdir(), 'teamchat-dense-'));
// 3^60 paths: a walk that enters every named schema once per path never ends.
const DEPTH = 60;

async function model(name: string, levelled: boolean): Promise<ApiModel> {
  writeFileSync(join(root, 'spec', `${name}.json`), JSON.stringify(denseSpec(DEPTH, levelled)));
  return buildModel(await loadSpec(`spec/${name}.json`, root));
}

function markdown(model: ApiModel): OutputFile[] {
  const ctx: TargetContext = {
    model,
    root,
    outDir: 'generated',
    templatesDir: join(import.meta.dirname, '..', '..', '..', 'templates'),
    command: 'npm run generate',
    readExisting: () => undefined,
    options: DEFAULT_TARGET_OPTIONS,
    filesOf: async () => [],
    produces: () => true,
    report: () => undefined,
  };
  return renderMarkdown(ctx);
}

function page(files: OutputFile[], path: string): string {
  const file = files.find((candidate) => candidate.path === `generated/docs/${path}`);
  if (file === undefined) throw new Error(`no ${path} among ${files.map((f) => f.path).join(', ')}`);
  return file.contents;
}

let plain: ApiModel;
let levelled: ApiModel;
beforeAll(async () => {
  mkdirSync(join(root, 'spec'));
  plain = await model('plain', false);
  levelled = await model('levelled', true);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('densely cross-referenced schemas', () => {
  it('the client target generates: response fields are walked only toward feature levels', async () => {
    writeFileSync(join(root, 'spec', 'openapi.json'), JSON.stringify(denseSpec(DEPTH, false)));
    const produced = await produce(config(root, { spec: 'spec/openapi.json', out: 'out' }, ['client']));
    const client = produced.targets[0]!.files.find((file) => file.path === 'out/client.ts')!;
    expect(client.contents).toContain('getChain');
    expect(client.contents).not.toContain('newerFields');
  });

  it('still finds a levelled field behind a dense chain', () => {
    const byId = (m: ApiModel, id: string) => m.operations.find((operation) => operation.id === id)!;
    expect(newerResponseFields(levelled, byId(levelled, 'getLevelled'))).toEqual([['deep.leaf.z', 5]]);
    expect(newerResponseFields(levelled, byId(levelled, 'getSmall'))).toEqual([['a.z', 5], ['b.z', 5]]);
    expect(newerResponseFields(plain, byId(plain, 'getLevelled'))).toEqual([]);
  });

  it('a page reaching more than PAGE_TYPE_LIMIT named types links to the shared types page, which defines each once', () => {
    // The expandable unions name Chain1 ... Chain<DEPTH-1>.
    const reached = DEPTH - 1;
    expect(reached).toBeGreaterThan(PAGE_TYPE_LIMIT);
    const files = markdown(plain);
    const chain = page(files, 'reference/get-chain.md');
    expect(chain).toContain(`This operation uses ${reached} named types, defined on the [types page](../types.md).`);
    expect(chain).not.toMatch(/^### Chain1$/m);
    const types = page(files, 'types.md');
    const headings = [...types.matchAll(/^## (\w+)$/gm)].map((match) => match[1]);
    expect(headings).toHaveLength(reached);
    expect(new Set(headings).size).toBe(reached);
    expect(headings.slice(0, 3)).toEqual(['Chain1', 'Chain10', 'Chain11']);
  });

  it('a field table spells out each named schema once, and notes where for its other fields', () => {
    const chain = page(markdown(plain), 'reference/get-chain.md');
    const rows = chain.split('\n').filter((line) => line.startsWith('| `'));
    // id, expandable, direct, list per level (Chain0 ... Chain<DEPTH-1>): one row per field of each, not one per path.
    expect(rows).toHaveLength(4 * DEPTH);
    expect(rows).toContainEqual('| `list` | `Chain1[]` | may be absent | `Chain1`: fields as under `direct`. |');
    expect(rows.filter((row) => row.startsWith('| `list[]'))).toEqual([]);
  });

  it('a page under the limit defines its types itself', () => {
    const files = markdown(plain);
    const small = page(files, 'reference/get-small.md');
    expect(small).not.toContain('types.md');
    expect([...small.matchAll(/^### (\w+)$/gm)].map((match) => match[1])).toContain('Leaf');
  });

  it('a document with no page over the limit has no types page', () => {
    const files = markdown({ ...plain, operations: plain.operations.filter((operation) => operation.id === 'getSmall') });
    expect(files.some((file) => file.path.endsWith('types.md'))).toBe(false);
  });
});
