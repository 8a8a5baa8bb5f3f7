/**
 * Nested `deepObject` form fields and query parameters end to end
 * (test/fixtures/operations/bodies-form-nested): the generated client writes
 * objects and lists in bracket notation (`items[0][price]=p`, `expand[0]=a`),
 * the generated bindings read the brackets back into the nested value and
 * check it with its schema; bodies written the other ways form-encoded APIs
 * accept (`expand[]=a`, `name=a` repeated) decode the same. Handlers echo
 * their params; a recording fetch keeps what went over the wire.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeQuery } from '../../../../runtime/client/serialize.js';
import { generate } from '../../../../generator/cli/pipeline.js';
import { targets } from '../../../../generator/targets/index.js';
import { config } from '../../../support/generator.js';
import { repoRoot } from '../../../support/process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
type Loaded = Record<string, any>;

let app: FastifyInstance;
let root: string;
let api: Loaded;
let validators: Loaded;
let baseUrl: string;
const sent: { url: string; contentType: string; body: string }[] = [];

beforeAll(async () => {
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  root = mkdtempSync(join(base, 'bodies-form-nested-http-'));
  cpSync(join(repoRoot, 'test/fixtures/operations/bodies-form-nested'), join(root, 'spec'), { recursive: true });
  const wanted = new Set(['types', 'validators', 'client', 'server']);
  await generate(config(root, {}, [...wanted]), targets.filter((target) => wanted.has(target.name)));
  const server = (await import(pathToFileURL(join(root, 'generated/server.ts')).href)) as Loaded;
  const client = (await import(pathToFileURL(join(root, 'generated/client.ts')).href)) as Loaded;
  validators = (await import(pathToFileURL(join(root, 'generated/validators.ts')).href)) as Loaded;
  const handlers = Object.fromEntries(Object.keys(server.routes).map((name) => [name, async (params: Record<string, unknown>) => ({ params })]));
  app = Fastify();
  await server.registerRoutes(app, { handlers, authenticate: () => ({}) });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const copy = new Request(input, { ...init, body: init.body instanceof FormData ? init.body : init.body instanceof Blob ? init.body.slice() : init.body ?? null });
    sent.push({ url: copy.url, contentType: copy.headers.get('content-type') ?? '', body: await copy.text() });
    return globalThis.fetch(input, init);
  };
  api = client.createClient({ baseUrl, fetch });
}, 240_000);

afterAll(async () => {
  await app?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

const last = () => sent[sent.length - 1]!;

const post = async (path: string, body: string) => {
  const response = await fetch(`${baseUrl}/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('nested deepObject fields, client to bindings over HTTP', () => {
  it('urlencoded: objects and lists nested in bracket notation, lists indexed', async () => {
    const params = {
      amount: 500,
      metadata: { order: '42', note: 'a&b' },
      items: [{ price: 'p_1', quantity: 2 }, { price: 'p_2', tax_rates: ['t1', 't2'] }, { price: 'p_3', tax_rates: '' }],
      shipping: { name: 'Ann', address: { line1: '1 Main St', city: 'Oslo' } },
      tiers: [[1, 2], [3]],
      expand: ['customer', 'invoice'],
    };
    expect(await api.createCharge(params)).toEqual({ params });
    expect(last().contentType).toBe('application/x-www-form-urlencoded');
    expect(last().body.split('&').map(decodeURIComponent)).toEqual([
      'amount=500',
      'metadata[order]=42',
      'metadata[note]=a&b',
      'items[0][price]=p_1',
      'items[0][quantity]=2',
      'items[1][price]=p_2',
      'items[1][tax_rates][0]=t1',
      'items[1][tax_rates][1]=t2',
      'items[2][price]=p_3',
      'items[2][tax_rates]=',
      'shipping[name]=Ann',
      'shipping[address][line1]=1 Main St',
      'shipping[address][city]=Oslo',
      'tiers[0][0]=1',
      'tiers[0][1]=2',
      'tiers[1][0]=3',
      'expand[0]=customer',
      'expand[1]=invoice',
    ]);
  });

  it('null travels as empty text; an empty list writes nothing', async () => {
    expect(await api.createCharge({ amount: 1, shipping: { phone: null }, items: [] })).toEqual({ params: { amount: 1, shipping: { phone: '' } } });
    expect(decodeURIComponent(last().body)).toBe('amount=1&shipping[phone]=');
  });

  it('query: a nested deepObject parameter', async () => {
    const params = { filter: { created: { gt: 5, lt: 9 }, ids: ['a', 'b'] }, limit: 3 };
    expect(await api.listCharges(params)).toEqual({ params });
    expect(decodeURIComponent(new URL(last().url).search)).toBe('?filter[created][gt]=5&filter[created][lt]=9&filter[ids][0]=a&filter[ids][1]=b&limit=3');
    // The scalar branch of the union, beside the object one.
    expect(await api.listCharges({ filter: { created: 7 } })).toEqual({ params: { filter: { created: 7 } } });
  });

  it('multipart: one part per bracket field', async () => {
    const params = { title: 't', layout: { size: { w: 3, h: 4 }, tags: ['x', 'y'] } };
    expect(await api.upload(params)).toEqual({ params });
    expect(last().body).toContain('name="layout[size][w]"');
    expect(last().body).toContain('name="layout[tags][1]"');
  });

  it('as other clients write lists: `[]`, unordered `[n]`, the field repeated', async () => {
    const a = await post('/charges', 'amount=1&expand[]=a&expand[]=b&items[1][price]=y&items[0][price]=x&items[0][tax_rates][]=t&tiers[0][]=1&tiers[0][]=2');
    expect(a).toEqual({ status: 200, body: { params: { amount: 1, expand: ['a', 'b'], items: [{ price: 'x', tax_rates: ['t'] }, { price: 'y' }], tiers: [[1, 2]] } } });
    const b = await post('/charges', 'amount=1&expand=a&expand=b&items%5B0%5D%5Bprice%5D=x');
    expect(b).toEqual({ status: 200, body: { params: { amount: 1, expand: ['a', 'b'], items: [{ price: 'x' }] } } });
  });

  it('the nested value is checked by its schema; a key both text and fields is a style error', async () => {
    const missingPrice = await post('/charges', 'amount=1&items[0][quantity]=2');
    expect(missingPrice.status).toBe(400);
    expect(JSON.stringify(missingPrice.body)).toContain('price');
    const badInteger = await post('/charges', 'amount=1&items[0][price]=p&items[0][quantity]=two');
    expect(badInteger.status).toBe(400);
    expect(JSON.stringify(badInteger.body)).toContain('quantity');
    const conflict = await post('/charges', 'amount=1&shipping[address]=x&shipping[address][city]=y');
    expect(conflict.status).toBe(400);
    expect(JSON.stringify(conflict.body)).toMatch(/deepObject/);
  });
});

describe('nested deepObject decoders, differentially against the values the client sent', () => {
  const decode = (fields: Record<string, string | string[]>, query: Record<string, string | string[]> = {}) =>
    validators.decodeCreateCharge({ path: {}, query, body: fields, headers: {}, cookies: {} });

  it('each form other APIs use gives the same value', () => {
    const want = { amount: 1, items: [{ price: 'a', quantity: 1 }, { price: 'b', quantity: 2 }] };
    const bodies: Record<string, string>[] = [
      { amount: '1', 'items[0][price]': 'a', 'items[0][quantity]': '1', 'items[1][price]': 'b', 'items[1][quantity]': '2' },
      { amount: '1', 'items[1][quantity]': '2', 'items[1][price]': 'b', 'items[0][quantity]': '1', 'items[0][price]': 'a' },
      { amount: '1', 'items[10][price]': 'b', 'items[10][quantity]': '2', 'items[2][price]': 'a', 'items[2][quantity]': '1' },
    ];
    for (const body of bodies) {
      expect(decode(body)).toMatchObject({ ok: true, value: want });
    }
  });

  it('metadata keys named like Object.prototype members stay own data', () => {
    const result = decode({ amount: '1', 'metadata[__proto__]': 'x', 'metadata[constructor]': 'y' });
    expect(result.ok).toBe(true);
    expect(Object.getPrototypeOf(result.value.metadata)).toBe(Object.prototype);
    expect(Object.entries(result.value.metadata)).toEqual([['__proto__', 'x'], ['constructor', 'y']]);
  });

  it('a key given twice is refused by the schema, not merged', () => {
    expect(decode({ amount: '1', 'shipping[name]': ['a', 'b'] })).toMatchObject({ ok: false });
  });
});

describe('nested deepObject round trip of generated values (client serialiser to generated decoder)', () => {
  // Keys with brackets cannot be told from levels once the body is decoded (bracket notation has no escape), so they are left out.
  const key = fc.string({ minLength: 1, maxLength: 6 }).filter((k) => !/[[\]]/.test(k) && k !== '__proto__');
  const text = fc.string({ maxLength: 8 });
  const item = fc.record(
    { price: text, quantity: fc.integer({ min: -1000, max: 1000 }), tax_rates: fc.oneof(fc.constant(''), fc.array(text, { minLength: 1, maxLength: 3 })) },
    { requiredKeys: ['price'] },
  );
  const body = fc.record(
    {
      amount: fc.integer(),
      metadata: fc.dictionary(key, text, { minKeys: 1, maxKeys: 4 }),
      items: fc.array(item, { minLength: 1, maxLength: 12 }),
      shipping: fc.record({ name: text, address: fc.record({ line1: text, city: text }) }, { requiredKeys: [] }).filter((v) => Object.keys(v).length > 0),
      tiers: fc.array(fc.array(fc.integer(), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      expand: fc.array(text, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ['amount'] },
  );

  it('decodes to the value the client was given', () => {
    fc.assert(
      fc.property(body, (params) => {
        const wire = Object.entries(params).flatMap(([name, value]) => serializeQuery(name, value, name === 'amount' ? 'form' : 'deepObject', true)).join('&');
        const fields: Record<string, string | string[]> = {};
        for (const [name, value] of new URLSearchParams(wire)) {
          const had = fields[name];
          fields[name] = had === undefined ? value : [...(typeof had === 'string' ? [had] : had), value];
        }
        const decoded = validators.decodeCreateCharge({ path: {}, query: {}, body: fields, headers: {}, cookies: {} });
        // Empty-text shipping members read back as text; an empty address object writes nothing.
        const want = JSON.parse(JSON.stringify(params, (k, v) => (k === 'address' && Object.keys(v as object).length === 0 ? undefined : v)));
        if (want.shipping !== undefined && Object.keys(want.shipping).length === 0) delete want.shipping;
        expect(decoded, wire).toEqual({ ok: true, value: want, unsupported: [] });
      }),
      { numRuns: 300, seed: 4361 },
    );
  });
});
