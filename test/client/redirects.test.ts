/**
 * Redirects against two real servers on different loopback ports (two
 * origins): a credential of any scheme kind never reaches the other origin,
 * same-origin redirects keep it, and a redirect the operation documents is the
 * call's answer. One generation for the file.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generate } from '../../generator/cli/pipeline.js';
import { targets } from '../../generator/targets/index.js';
import { config } from '../support/generator.js';
import { repoRoot } from '../support/process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
type Loaded = Record<string, any>;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server that records every request and answers from a script (default: 200 with a Thing). */
class Origin {
  readonly seen: Seen[] = [];
  script: ((req: IncomingMessage) => { status: number; headers?: Record<string, string>; body?: string })[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const next = this.script.shift()?.(req) ?? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"name":"here"}' };
        res.writeHead(next.status, next.headers);
        res.end(next.body ?? '');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const home = new Origin();
const elsewhere = new Origin();
let client: Loaded;
let root: string;

/** One client per scheme kind, each configured with that scheme's credential only. */
const CREDENTIALS: Record<string, { auth: Record<string, unknown>; secret: string }> = {
  basic: { auth: { basic: { username: 'ann', password: 'secret-basic' } }, secret: Buffer.from('ann:secret-basic').toString('base64') },
  bearer: { auth: { bearer: 'secret-bearer' }, secret: 'secret-bearer' },
  headerKey: { auth: { headerKey: 'secret-header' }, secret: 'secret-header' },
  queryKey: { auth: { queryKey: 'secret-query' }, secret: 'secret-query' },
  cookieKey: { auth: { cookieKey: 'secret-cookie' }, secret: 'secret-cookie' },
  oauth: { auth: { oauth: 'secret-oauth' }, secret: 'secret-oauth' },
  oidc: { auth: { oidc: () => 'secret-oidc' }, secret: 'secret-oidc' },
};

/** Every place a request can carry a secret: its URL, its headers, its body. */
const exposed = (request: Seen): string => `${request.url} ${JSON.stringify(request.headers)} ${request.body}`;

const redirect = (status: number, to: () => string) => () => ({ status, headers: { location: to() } });

beforeAll(async () => {
  await Promise.all([home.start(), elsewhere.start()]);
  const base = join(repoRoot, 'test/artifacts');
  mkdirSync(base, { recursive: true });
  root = mkdtempSync(join(base, 'redirects-'));
  cpSync(join(repoRoot, 'test/fixtures/operations/redirects'), join(root, 'spec'), { recursive: true });
  const wanted = new Set(['types', 'validators', 'client']);
  await generate(config(root, {}, [...wanted]), targets.filter((target) => wanted.has(target.name)));
  client = (await import(pathToFileURL(join(root, 'generated/client.ts')).href)) as Loaded;
}, 120_000);

afterAll(async () => {
  await Promise.all([home.stop(), elsewhere.stop()]);
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  for (const origin of [home, elsewhere]) {
    origin.seen.length = 0;
    origin.script = [];
  }
});

const connect = (scheme: string, extra: Record<string, unknown> = {}) =>
  client.createClient({ baseUrl: home.url, auth: CREDENTIALS[scheme]!.auth, ...extra });

describe.each(Object.keys(CREDENTIALS))('a %s credential', (scheme) => {
  const { secret } = CREDENTIALS[scheme]!;

  it('is sent to the server it is for', async () => {
    expect(await connect(scheme).getThing({ scheme })).toEqual({ name: 'here' });
    expect(exposed(home.seen[0]!)).toContain(secret);
  });

  it('is kept on a same-origin redirect', async () => {
    home.script = [redirect(307, () => `${home.url}/v1/things/moved?api_key=secret-query`)];
    expect(await connect(scheme).getThing({ scheme })).toEqual({ name: 'here' });
    expect(home.seen.map((request) => request.url)).toEqual([expect.stringMatching(`^/v1/things/${scheme}`), expect.stringMatching('^/v1/things/moved')]);
    expect(exposed(home.seen[1]!)).toContain(secret);
  });

  it('stops a cross-origin redirect by default, and nothing reaches the other origin', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      home.script = [redirect(status, () => `${elsewhere.url}/v1/things/${scheme}?api_key=secret-query`)];
      const error = await connect(scheme).getThing({ scheme }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(client.TransportError);
      expect(error).toMatchObject({ kind: 'redirect', status });
      expect(String((error as Error).message)).toContain(elsewhere.url);
    }
    expect(elsewhere.seen).toEqual([]);
  });

  it('is removed when a cross-origin redirect is followed on request, on every later hop too', async () => {
    // home -> elsewhere (query echoed) -> home again -> answer
    home.script = [redirect(302, () => `${elsewhere.url}/v1/things/${scheme}?api_key=secret-query&keep=1`)];
    elsewhere.script = [redirect(307, () => `${home.url}/v1/things/back?api_key=secret-query`)];
    const result = await connect(scheme, { crossOriginRedirects: 'follow-without-credentials' }).getThing({ scheme });
    expect(result).toEqual({ name: 'here' });
    expect(elsewhere.seen).toHaveLength(1);
    expect(exposed(elsewhere.seen[0]!)).not.toContain('secret');
    expect(elsewhere.seen[0]!.url).toContain('keep=1');
    expect(home.seen).toHaveLength(2);
    expect(exposed(home.seen[1]!)).not.toContain('secret');
  });

  it('is removed from a POST that a cross-origin 307 keeps whole, body included', async () => {
    home.script = [redirect(307, () => `${elsewhere.url}/v1/things/${scheme}`)];
    const result = await connect(scheme, { crossOriginRedirects: 'follow-without-credentials' }).createThing({ scheme, body: { name: 'x' } });
    expect(result).toEqual({ name: 'here' });
    expect(elsewhere.seen[0]).toMatchObject({ method: 'POST', body: '{"name":"x"}' });
    expect(exposed(elsewhere.seen[0]!)).not.toContain('secret');
  });
});

describe('redirects', () => {
  it('turn a POST into a GET without body on 303, as fetch does', async () => {
    home.script = [redirect(303, () => `${home.url}/v1/things/result`)];
    await connect('bearer').createThing({ scheme: 'bearer', body: { name: 'x' } });
    expect(home.seen[1]).toMatchObject({ method: 'GET', body: '' });
    expect(home.seen[1]!.headers['content-type']).toBeUndefined();
    expect(home.seen[1]!.headers['authorization']).toBe('Bearer secret-bearer');
  });

  it('stop after 20 hops', async () => {
    home.script = Array.from({ length: 30 }, () => redirect(302, () => `${home.url}/v1/things/loop`));
    const error = await connect('bearer').getThing({ scheme: 'bearer' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'redirect' });
    expect(String((error as Error).message)).toContain('more than 20 redirects');
    expect(home.seen).toHaveLength(21);
  });

  it('that the operation documents are its answer: status and Location, never followed', async () => {
    home.script = [redirect(302, () => `${elsewhere.url}/authorize?state=1`)];
    const answer = await connect('headerKey').startLogin();
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`${elsewhere.url}/authorize?state=1`);
    expect(answer.body).toBeUndefined();
    expect(elsewhere.seen).toEqual([]);
    // The declared error still throws.
    home.script = [() => ({ status: 400, headers: { 'content-type': 'application/json' }, body: '{"message":"no"}' })];
    await expect(connect('headerKey').startLogin()).rejects.toMatchObject({ status: 400, body: { message: 'no' } });
  });

  it('documented ones are also the withResponse answer', async () => {
    home.script = [redirect(302, () => `${home.url}/elsewhere`)];
    const answer = await connect('headerKey').withResponse.startLogin();
    expect(answer).toMatchObject({ status: 302 });
    expect(home.seen).toHaveLength(1);
  });
});

describe('in a browser, where a manual redirect hides its target', () => {
  /** A fetch that answers `redirect: 'manual'` as browsers do (an opaque redirect), and records each call. */
  const browserFetch = (calls: RequestInit[]) => async (_url: string, init: RequestInit) => {
    calls.push(init);
    if (init.redirect === 'manual') return { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null } as unknown as Response;
    return new Response('{"name":"followed"}', { status: 200, headers: { 'content-type': 'application/json' } });
  };

  it('a GET whose only credential is Authorization is sent again for the browser to follow', async () => {
    const calls: RequestInit[] = [];
    const result = await connect('bearer', { fetch: browserFetch(calls) }).getThing({ scheme: 'bearer' });
    expect(result).toEqual({ name: 'followed' });
    expect(calls.map((init) => init.redirect)).toEqual(['manual', 'follow']);
  });

  it('a request carrying a key fetch would pass on to another origin is not sent again', async () => {
    for (const scheme of ['headerKey', 'queryKey']) {
      const calls: RequestInit[] = [];
      const error = await connect(scheme, { fetch: browserFetch(calls) }).getThing({ scheme }).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'redirect' });
      expect(calls).toHaveLength(1);
    }
  });

  it('a POST is not sent twice', async () => {
    const calls: RequestInit[] = [];
    const error = await connect('bearer', { fetch: browserFetch(calls) }).createThing({ scheme: 'bearer', body: { name: 'x' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'redirect' });
    expect(calls).toHaveLength(1);
  });
});
