/**
 * Parameters of every style end to end: the generated client writes them,
 * the generated bindings read them (path, query string, headers, Cookie
 * header) and the generated decoders turn them back into the values the
 * client was given. Handlers echo their params. One generation and one
 * server per fixture document.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../generator/cli/pipeline.js';
import { targets } from '../../../../generator/targets/index.js';
import { config } from '../../../support/generator.js';
import { repoRoot } from '../../../support/process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
type Loaded = Record<string, any>;

const apps: FastifyInstance[] = [];
const roots: string[] = [];

/** Generates a fixture, serves it with echoing handlers, and returns a client for it. */
async function serve(fixture: string): Promise<Loaded> {
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, `${fixture}-http-`));
  roots.push(root);
  cpSync(join(repoRoot, 'test/fixtures/operations', fixture), join(root, 'spec'), { recursive: true });
  const wanted = new Set(['types', 'validators', 'client', 'server']);
  await generate(config(root, {}, [...wanted]), targets.filter((target) => wanted.has(target.name)));
  const server = (await import(pathToFileURL(join(root, 'generated/server.ts')).href)) as Loaded;
  const client = (await import(pathToFileURL(join(root, 'generated/client.ts')).href)) as Loaded;
  const handlers = Object.fromEntries(Object.keys(server.routes).map((name) => [name, async (params: unknown) => ({ params })]));
  const app = Fastify();
  apps.push(app);
  await server.registerRoutes(app, { handlers, authenticate: () => ({}) });
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  return client.createClient({ baseUrl });
}

let query: Loaded;
let path: Loaded;
let headers: Loaded;

beforeAll(async () => {
  query = await serve('params-query');
  path = await serve('params-path');
  headers = await serve('params-header-cookie');
}, 240_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('parameters of every style, client to bindings over HTTP', () => {
  it('query: form exploded or not, space and pipe delimited, deepObject objects and lists, exploded objects, unions', async () => {
    const params = {
      q: 'hello world',
      tags: ['red', 'blue'],
      ids: [1, 2, 3],
      words: ['a', 'b'],
      scores: [1.5, 2],
      filter: { min: 1, max: 9, open: true },
      point: { x: 1.5, y: -2 },
      color: { R: 100, G: 200 },
      limit: 'all',
      since: 7,
      path: '/a/b?c',
      expand: ['customer', 'invoice'],
      created: { gt: 5 },
      rates: [1, 2],
      cwes: ['79', '89'],
      sort: [{ field: 'name', desc: true }],
    };
    expect(await query.search(params)).toEqual({ params });
    expect(await query.search({ q: 'x', created: 5, rates: '', cwes: '79,89', limit: 3 })).toEqual({
      params: { q: 'x', created: 5, rates: '', cwes: '79,89', limit: 3 },
    });
  });

  it('query: a free-form map of fields takes every field no other parameter takes', async () => {
    const params = { text: 'a', near: { x: 1 }, range: { n: 2 }, criteria: { name: 'x', 'labels.env': 'prod' } };
    expect(await query.lookup(params)).toEqual({ params });
    expect(await query.lookup({ criteria: { q2: 'y' } })).toEqual({ params: { criteria: { q2: 'y' } } });
  });

  it('path: simple lists, label and matrix values and objects', async () => {
    expect(await path.getItem({ id: 4 })).toEqual({ params: { id: 4 } });
    expect(await path.simpleList({ ids: [1, 2, 3] })).toEqual({ params: { ids: [1, 2, 3] } });
    expect(await path.getPoint({ point: { x: 1, y: 2 } })).toEqual({ params: { point: { x: 1, y: 2 } } });
    expect(await path.getColor({ color: 'blue' })).toEqual({ params: { color: 'blue' } });
  });

  it('headers and cookies, and a name used in two locations', async () => {
    const params = {
      path_id: 3,
      header_id: 'h',
      'x-request-id': 'r-1',
      'X-Tags': ['a', 'b'],
      'X-Dims': { w: 1, h: 2 },
      'X-Trace': { span: 9 },
      session: 'abcd1234',
      prefs: ['dark', 'compact'],
      debug: true,
    };
    expect(await headers.getThing(params)).toEqual({ params });
  });
});
