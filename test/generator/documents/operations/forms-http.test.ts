/**
 * Form and multipart fields end to end (test/fixtures/operations/bodies-form):
 * the generated client writes lists and objects as their Encoding Object says
 * (`style`/`explode`, by default `form` exploded: the field repeated; JSON
 * only where a `contentType` asks for it; per-part media types), the
 * generated bindings read them and the decoders give back the values the
 * client was given. Handlers echo their params; a recording fetch keeps what
 * went over the wire.
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

let app: FastifyInstance;
let root: string;
let api: Loaded;
let baseUrl: string;
const sent: { contentType: string; body: string }[] = [];

beforeAll(async () => {
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  root = mkdtempSync(join(base, 'bodies-form-http-'));
  cpSync(join(repoRoot, 'test/fixtures/operations/bodies-form'), join(root, 'spec'), { recursive: true });
  const wanted = new Set(['types', 'validators', 'client', 'server']);
  await generate(config(root, {}, [...wanted]), targets.filter((target) => wanted.has(target.name)));
  const server = (await import(pathToFileURL(join(root, 'generated/server.ts')).href)) as Loaded;
  const client = (await import(pathToFileURL(join(root, 'generated/client.ts')).href)) as Loaded;
  // Files come back as their name, type and text, so the echo is JSON.
  const echo = (params: Record<string, unknown>) => ({
    params: Object.fromEntries(
      Object.entries(params).map(([key, value]) => {
        const file = value as { filename?: string; contentType?: string; data?: Uint8Array };
        return [key, file?.data instanceof Uint8Array ? { filename: file.filename, contentType: file.contentType, text: Buffer.from(file.data).toString('utf8') } : value];
      }),
    ),
  });
  const handlers = Object.fromEntries(Object.keys(server.routes).map((name) => [name, async (params: Record<string, unknown>) => echo(params)]));
  app = Fastify();
  await server.registerRoutes(app, { handlers, authenticate: () => ({}) });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    // Read through a copy, so that what the client gave fetch goes out untouched.
    const copy = new Request(input, { ...init, body: init.body instanceof FormData ? init.body : init.body instanceof Blob ? init.body.slice() : init.body ?? null });
    sent.push({ contentType: copy.headers.get('content-type') ?? '', body: await copy.text() });
    return globalThis.fetch(input, init);
  };
  api = client.createClient({ baseUrl, fetch });
}, 240_000);

afterAll(async () => {
  await app?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

const last = () => sent[sent.length - 1]!;

describe('form bodies by their Encoding Object, client to bindings over HTTP', () => {
  it('urlencoded: lists repeated by default, styles as written, deepObject, exploded objects, JSON only by contentType', async () => {
    const params = {
      name: 'Ann & Bob',
      tags: ['red', 'blue'],
      ids: [1, 2, 3],
      words: ['a', 'b'],
      pipes: ['x', 'y'],
      filter: { min: 1, max: 9 },
      location: { lat: 1.5, lng: -2 },
      dims: { w: 3, h: 4 },
      meta: { source: 'web', nested: [1, 2] },
      expand: ['customer', 'invoice'],
      note: 'call first',
      urgent: true,
    };
    expect(await api.createOrder(params)).toEqual({ params });
    const body = last().body;
    expect(last().contentType).toBe('application/x-www-form-urlencoded');
    const pairs = body.split('&');
    expect(pairs).toEqual(
      expect.arrayContaining([
        'tags=red',
        'tags=blue',
        'ids=1,2,3',
        'words=a%20b',
        'pipes=x|y',
        'filter[min]=1',
        'filter[max]=9',
        'lat=1.5',
        'lng=-2',
        'dims=w,3,h,4',
        'expand[0]=customer',
        'expand[1]=invoice',
      ].map((pair) => expect.stringMatching(new RegExp(`^${pair.replace(/[[\]|.]/g, '\\$&')}$`)))),
    );
    expect(new URLSearchParams(body).get('meta')).toBe('{"source":"web","nested":[1,2]}');
    // One element is still a list; a scalar field alone is fine.
    expect(await api.createOrder({ name: 'n', tags: ['only'], ids: [7] })).toEqual({ params: { name: 'n', tags: ['only'], ids: [7] } });
  });

  it('urlencoded, as another client writes it: repeated fields and exploded objects decode the same', async () => {
    const response = await fetch(`${baseUrl}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=n&tags=a&tags=b&lat=2&lng=3&filter%5Bmin%5D=4&ids=5,6',
    });
    expect(await response.json()).toEqual({ params: { name: 'n', tags: ['a', 'b'], location: { lat: 2, lng: 3 }, filter: { min: 4 }, ids: [5, 6] } });
  });

  it('a body in JSON, form and multipart media types: the form ones decode field by field to the same value', async () => {
    const body = { title: 'Plan', count: 3, tags: ['a', 'b'], meta: { source: 'web' }, range: { from: 1, to: 5 } };
    for (const contentType of ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      expect(await api.createNote({ body }, { contentType }), contentType).toEqual({ params: { body } });
    }
    expect(last().contentType).toMatch(/^multipart\/form-data; boundary=/);
    await api.createNote({ body }, { contentType: 'application/x-www-form-urlencoded' });
    expect(last().body.split('&')).toEqual(expect.arrayContaining(['tags=a', 'tags=b', 'range[from]=1', 'range[to]=5', 'source=web', 'count=3']));
    // Decoded and checked: a count that is not an integer is refused.
    const refused = await fetch(`${baseUrl}/notes`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'title=t&count=many' });
    expect(refused.status).toBe(400);
  });

  it('multipart: a part per list element, objects as application/json parts, declared part types, deepObject parts, a file', async () => {
    const params = {
      title: 'Trip',
      labels: ['a', 'b'],
      counts: [1, 2],
      meta: { source: 'app' },
      items: [{ sku: 'x', qty: 1 }, { sku: 'y', qty: 2 }],
      csv: 'a,b\n1,2',
      range: { from: 1, to: 5 },
      settings: { mode: 'fast' },
      attachment: { filename: 'notes.txt', contentType: 'text/plain', data: new TextEncoder().encode('hello') },
    };
    const { attachment, ...rest } = params;
    expect(await api.upload(params)).toEqual({ params: { ...rest, attachment: { filename: 'notes.txt', contentType: 'text/plain', text: 'hello' } } });
    const { contentType, body } = last();
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const parts = body.split(/\r\n--[^\r\n]+\r\n?/).filter((part) => part.includes('Content-Disposition'));
    const part = (name: string) => parts.filter((p) => p.includes(`name="${name}"`)).map((p) => p.replace(/^[\s\S]*?\r\n\r\n/, ''));
    const headersOf = (name: string) => parts.find((p) => p.includes(`name="${name}"`))!.split('\r\n\r\n')[0]!;
    expect(part('labels')).toEqual(['a', 'b']);
    expect(part('counts')).toEqual(['1', '2']);
    expect(part('items')).toEqual(['{"sku":"x","qty":1}', '{"sku":"y","qty":2}']);
    expect(part('meta')).toEqual(['{"source":"app"}']);
    expect(headersOf('meta')).toContain('Content-Type: application/json');
    expect(headersOf('settings')).toContain('Content-Type: application/json');
    expect(headersOf('csv')).toContain('Content-Type: text/csv');
    expect(headersOf('title')).not.toContain('Content-Type');
    expect(part('range[from]')).toEqual(['1']);
    // One element of a list of objects is still a list.
    expect(await api.upload({ title: 't', items: [{ sku: 'z' }] })).toEqual({ params: { title: 't', items: [{ sku: 'z' }] } });
  });
});
