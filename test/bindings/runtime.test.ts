/**
 * The bindings runtime on its own, for documents unlike ours: hand-written
 * routes and decoders that record the raw request they get, so these tests
 * check what the bindings read (headers, cookies, whole bodies, files), how
 * they answer (statuses, media types, headers, no envelope), authenticate
 * (every scheme kind, alternatives, optional credentials) and word their
 * framework errors (the default envelope, or the document's error schema).
 */
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import fc from 'fast-check';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  operation,
  registerOperations,
  type ApiSettings,
  type Credential,
  type ErrorFormat,
  type Handler,
  type Responded,
  type Route,
} from '../../runtime/server-runtime/index.js';
import { sameText } from '../../runtime/server-runtime/credentials.js';
import { parseCookies, parseForm } from '../../runtime/server-runtime/parsing.js';
import type { FullRawRequest } from '../../runtime/server-runtime/requests.js';
import type { Decoded, RawRequest } from '../../runtime/validators-runtime/index.js';

const api: ApiSettings = {
  title: 'Pets',
  securitySchemes: {
    bearerAuth: { kind: 'bearer' },
    basicAuth: { kind: 'basic' },
    headerKey: { kind: 'apiKey', in: 'header', name: 'X-API-Key' },
    queryKey: { kind: 'apiKey', in: 'query', name: 'api_key' },
    cookieKey: { kind: 'apiKey', in: 'cookie', name: 'session' },
    digest: { kind: 'http', scheme: 'Digest' },
  },
  successEnvelope: false,
  parametersInFields: false,
  refusedBodyStatus: 415,
  unauthorized: { basicPair: 'username:password', invalid: 'Invalid credentials', basicChallenge: false },
  errors: { status: {}, format: undefined },
};

function route(operationName: string, method: Route['method'], path: string, extra: Partial<Route> = {}): Route {
  return { operation: operationName, operationId: operationName, method, path: `/v2${path}`, auth: false, security: [], ...extra };
}

/** A decoder that hands the raw request through as the params, so handlers see what the bindings read. */
const passThrough = (raw: RawRequest): Decoded<FullRawRequest> => ({ ok: true, value: raw as FullRawRequest, unsupported: [] });
const noValidation = () => [];

let received: FullRawRequest | undefined;
let users: unknown[] = [];
const credentials: Credential[] = [];

type AnyHandler = Handler<FullRawRequest, unknown, unknown, Responded>;

function bind(r: Route, handler: AnyHandler) {
  return operation(r, passThrough, handler, noValidation);
}

const record: AnyHandler = async (raw, ctx) => {
  received = raw;
  users.push(ctx.user);
  return { ok: true };
};

let app: FastifyInstance;

/** The operations of the main app: what each test below sends requests to. */
function mainBindings() {
  return [
    bind(route('readRaw', 'GET', '/raw/:id', { cookies: true }), record),
    bind(route('dashed', 'GET', '/dashed/:p0', { pathNames: { p0: 'pet-id' } }), record),
    bind(
      route('createPet', 'POST', '/pets', {
        status: 201,
        body: {
          required: true,
          contents: [
            { mediaType: 'application/json', kind: 'json' },
            { mediaType: 'application/merge-patch+json', kind: 'json' },
            { mediaType: 'text/plain', kind: 'text' },
            { mediaType: 'image/*', kind: 'binary' },
          ],
        },
        responses: { 201: [{ mediaType: 'application/json', kind: 'json' }], 202: [], default: [{ mediaType: 'application/json', kind: 'json' }] },
      }),
      async (raw, ctx) => {
        received = raw;
        const value = raw.content?.value;
        if (value !== null && typeof value === 'object' && 'later' in value) return ctx.respond(202);
        return { id: 7 };
      },
    ),
    bind(
      route('notePet', 'PUT', '/pets/:id/note', { body: { required: false, contents: [{ mediaType: 'text/plain', kind: 'text' }] }, status: 204, responses: { 204: [] } }),
      async (raw) => {
        received = raw;
        return undefined;
      },
    ),
    bind(route('upload', 'POST', '/files', { body: undefined }), record),
    bind(
      route('photo', 'GET', '/pets/:id/photo', {
        responses: {
          200: [{ mediaType: 'image/png', kind: 'binary' }],
          303: [],
          '4XX': [{ mediaType: 'application/problem+json', kind: 'json' }],
        },
      }),
      async (raw, ctx) => {
        const id = (raw.path as Record<string, string>).id;
        if (id === 'moved') return ctx.respond(303, undefined, { location: '/v2/pets/1/photo' });
        if (id === 'gone') return ctx.respond(410, { title: 'Gone' });
        return new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
      },
    ),
    bind(
      route('text', 'GET', '/text', { responses: { 200: [{ mediaType: 'text/csv', kind: 'text' }] } }),
      async (_raw, ctx) => ctx.respond(200, 'a,b\n1,2\n', { 'x-rows': 1, 'cache-control': 'no-store' }),
    ),
    bind(route('scalar', 'GET', '/scalar'), async () => 'a JSON string'),
    // The same method and path again (path keys differing by a fragment): the first is served.
    bind(route('scalarAgain', 'GET', '/scalar'), async () => 'the second'),
    bind(route('list', 'GET', '/list'), async () => [1, 2]),
    bind(route('bearerOnly', 'GET', '/bearer', { auth: true, security: [['bearerAuth']] }), record),
    bind(route('anyKey', 'GET', '/keys', { auth: true, security: [['headerKey'], ['queryKey'], ['cookieKey']] }), record),
    bind(route('both', 'GET', '/both', { auth: true, security: [['basicAuth', 'headerKey']] }), record),
    bind(route('basicOnly', 'GET', '/basic', { auth: true, security: [['basicAuth']] }), record),
    bind(route('optional', 'GET', '/optional', { security: [[], ['bearerAuth']] }), record),
    bind(route('digest', 'GET', '/digest', { auth: true, security: [['digest']] }), record),
    bind(route('fails', 'GET', '/fails'), async () => {
      throw new Error('secret detail');
    }),
    bind(route('notFound', 'GET', '/missing'), async () => {
      throw new ApiError('NOT_FOUND', 'No such pet');
    }),
  ];
}

/** The main app's operations, registered with `settings`. */
async function mainApp(settings: ApiSettings): Promise<FastifyInstance> {
  const served = Fastify();
  await registerOperations(
    served,
    '/v2',
    mainBindings(),
    {
      authenticate: (credential) => {
        credentials.push(credential);
        if (credential.kind === 'bearer') return credential.token === 'good' ? { token: credential.token } : undefined;
        if (credential.kind === 'apiKey') return credential.value === 'k1' ? { key: credential.name } : null;
        if (credential.kind === 'basic') return credential.password === 'pw' ? { user: credential.username } : null;
        if (credential.kind === 'http') return { digest: credential.credentials };
        return undefined;
      },
      bodyLimit: 1024,
    },
    settings,
  );
  await served.ready();
  return served;
}

beforeAll(async () => {
  app = await mainApp(api);
});

afterAll(async () => {
  await app.close();
});

afterEach(() => {
  received = undefined;
  users = [];
  credentials.length = 0;
});

async function injectInto(options: InjectOptions, to: FastifyInstance) {
  const response = await to.inject(options);
  return { status: response.statusCode, headers: response.headers, text: response.body, raw: response.rawPayload };
}

function inject(options: InjectOptions) {
  return injectInto(options, app);
}

describe('what the decoders get', () => {
  it('passes headers with lower-case names and the parsed cookies', async () => {
    const response = await inject({
      method: 'GET',
      url: '/v2/raw/5?tag=a&tag=b',
      headers: { 'X-Request-Id': 'r-1', cookie: 'theme=dark; name="J%C3%BCrgen"; theme=light; bad=%zz' },
    });
    expect(response.status).toBe(200);
    expect(received?.headers?.['x-request-id']).toBe('r-1');
    expect(received?.cookies).toEqual({ theme: ['dark', 'light'], name: 'Jürgen', bad: '%zz' });
    expect(received?.path).toEqual({ id: '5' });
    expect(received?.query).toEqual({ tag: ['a', 'b'] });
    expect(received?.content).toBeUndefined();
  });

  it('gives path parameters routed under an alias their own names', async () => {
    await inject({ method: 'GET', url: '/v2/dashed/5' });
    expect(received?.path).toEqual({ 'pet-id': '5' });
  });

  it('parses the Cookie header only for operations with cookie parameters', async () => {
    await inject({ method: 'POST', url: '/v2/files', headers: { cookie: 'theme=dark' } });
    expect(received?.cookies).toEqual({});
  });

  it('parses cookies without a Cookie header into an empty record', () => {
    expect(parseCookies(undefined)).toEqual({});
    expect(parseCookies('a=1;b;=2; c = 3 ')).toEqual({ a: '1', c: '3' });
  });

  it.each([
    ['application/json', '{"name":"Rex","tags":["a"]}', { name: 'Rex', tags: ['a'] }],
    ['application/json; charset=utf-8', '"just a string"', 'just a string'],
    ['application/merge-patch+json', '{"name":null}', { name: null }],
    ['text/plain; charset=utf-8', 'free text', 'free text'],
  ])('takes a whole %s body as { mediaType, value }', async (contentType, payload, value) => {
    const response = await inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': contentType }, payload });
    expect(response.status).toBe(201);
    expect(JSON.parse(response.text)).toEqual({ id: 7 });
    expect(received?.content).toEqual({ mediaType: contentType.split(';')[0], value });
    expect(received?.body).toEqual({});
  });

  it('takes bytes of a type matched by a declared wildcard, as a Uint8Array', async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const response = await inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': 'image/png' }, payload: bytes });
    expect(response.status).toBe(201);
    expect(received?.content?.mediaType).toBe('image/*');
    expect(received?.content?.value).toBeInstanceOf(Uint8Array);
    expect([...(received?.content?.value as Uint8Array)]).toEqual([0, 1, 2, 255]);
  });

  it('answers an undeclared media type with 415 in the default envelope', async () => {
    const response = await inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': 'application/xml' }, payload: '<pet/>' });
    expect(response.status).toBe(415);
    expect(JSON.parse(response.text)).toEqual({
      result: 'error',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      msg: expect.stringContaining('application/json, application/merge-patch+json, text/plain, image/*'),
    });
    const form = await inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' });
    expect(form.status).toBe(415);
  });

  it('answers malformed JSON with 400 and a missing required body with 400', async () => {
    const malformed = await inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text).msg).toMatch(/^Malformed JSON request body/);
    const missing = await inject({ method: 'POST', url: '/v2/pets' });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).msg).toMatch(/request body is required/);
  });

  it('leaves content out when an optional body is not sent, and answers 204 without a body', async () => {
    const response = await inject({ method: 'PUT', url: '/v2/pets/3/note' });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(received?.content).toBeUndefined();
    const sent = await inject({ method: 'PUT', url: '/v2/pets/3/note', headers: { 'content-type': 'text/plain' }, payload: 'hi' });
    expect(sent.status).toBe(204);
    expect(received?.content).toEqual({ mediaType: 'text/plain', value: 'hi' });
  });

  it('refuses a body at an operation that takes none with 415 (no form convention)', async () => {
    const response = await inject({ method: 'POST', url: '/v2/files', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(response.status).toBe(415);
    expect(JSON.parse(response.text).msg).toBe('upload does not take a Content-Type "application/json" body');
  });

  it('passes every file part of a multipart body, several under one name', async () => {
    const data = new FormData();
    data.append('note', 'two photos');
    data.append('photos', new Blob(['first'], { type: 'image/png' }), 'a.png');
    data.append('photos', new Blob(['second!'], { type: 'image/jpeg' }), 'b.jpg');
    data.append('cover', new Blob(['c']), 'c.bin');
    const encoded = new Response(data);
    const response = await inject({
      method: 'POST',
      url: '/v2/files',
      headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(response.status).toBe(200);
    expect(received?.body).toEqual({ note: 'two photos' });
    expect(received?.files?.map((file) => [file.field, file.filename, file.contentType, Buffer.from(file.data).toString()])).toEqual([
      ['photos', 'a.png', 'image/png', 'first'],
      ['photos', 'b.jpg', 'image/jpeg', 'second!'],
      ['cover', 'c.bin', 'application/octet-stream', 'c'],
    ]);
  });
});

describe('answers', () => {
  it('sends the primary success with its status and no envelope', async () => {
    const response = await inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response.text)).toEqual({ id: 7 });
  });

  it('sends another declared status without a body through respond', async () => {
    const response = await inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': 'application/json' }, payload: '{"later":true}' });
    expect(response.status).toBe(202);
    expect(response.text).toBe('');
  });

  it('sends bytes as the declared binary media type, a redirect with its Location, a range status as its JSON type', async () => {
    const png = await inject({ method: 'GET', url: '/v2/pets/1/photo' });
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect([...png.raw]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const moved = await inject({ method: 'GET', url: '/v2/pets/moved/photo' });
    expect(moved.status).toBe(303);
    expect(moved.headers.location).toBe('/v2/pets/1/photo');
    expect(moved.text).toBe('');
    const gone = await inject({ method: 'GET', url: '/v2/pets/gone/photo' });
    expect(gone.status).toBe(410);
    expect(gone.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(gone.text)).toEqual({ title: 'Gone' });
  });

  it('sends text as its declared media type, with response headers', async () => {
    const response = await inject({ method: 'GET', url: '/v2/text' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['x-rows']).toBe('1');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text).toBe('a,b\n1,2\n');
  });

  it('sends top-level JSON strings and arrays as JSON', async () => {
    const scalar = await inject({ method: 'GET', url: '/v2/scalar' });
    expect(scalar.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(scalar.text)).toBe('a JSON string');
    const list = await inject({ method: 'GET', url: '/v2/list' });
    expect(JSON.parse(list.text)).toEqual([1, 2]);
  });
});

describe('authentication', () => {
  it('reads Basic credentials as UTF-8 from any base64, padded or not, as Buffer decodes them', async () => {
    const seen = async (encoded: string) => {
      credentials.length = 0;
      await inject({ method: 'GET', url: '/v2/basic', headers: { authorization: `Basic ${encoded}` } });
      const found = credentials[0];
      return found?.kind === 'basic' ? `${found.username}:${found.password}` : undefined;
    };
    const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string());
    const bytes = fc.oneof(
      text.map((value) => Buffer.from(`${value}:${value}`, 'utf8')),
      fc.uint8Array({ minLength: 1, maxLength: 40 }).map((value) => Buffer.from(value)),
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.integer({ min: 0, max: 3 }), async (data, unpad) => {
        const full = data.toString('base64');
        // Padding left off, in part or whole, and one character too many, as clients may send.
        const encoded = unpad === 3 ? `${full.replace(/=+$/, '')}A` : full.slice(0, full.length - Math.min(unpad, (full.match(/=+$/)?.[0] ?? '').length));
        const decoded = Buffer.from(encoded, 'base64').toString('utf8');
        const expected = decoded.indexOf(':') > 0 ? decoded : undefined;
        expect(await seen(encoded)).toBe(expected);
      }),
      { numRuns: 300 },
    );
    expect(await seen(Buffer.from('zoë:pässwörd').toString('base64'))).toBe('zoë:pässwörd');
  });

  it('decodes each Basic header a keep-alive connection sends, whatever the one before it was', async () => {
    const served = Fastify();
    const seen: string[] = [];
    await registerOperations(
      served,
      '/v2',
      [bind(route('basicOnly', 'GET', '/basic', { auth: true, security: [['basicAuth']] }), record)],
      {
        authenticate: (credential) => {
          if (credential.kind !== 'basic') return null;
          seen.push(`${credential.username}:${credential.password}`);
          return credential.password === 'pw' ? { user: credential.username } : null;
        },
      },
      api,
    );
    let connections = 0;
    served.server.on('connection', () => connections++);
    const address = await served.listen({ host: '127.0.0.1', port: 0 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (authorization: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.get(`${address}/v2/basic`, { agent, headers: { authorization } }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', reject);
      });
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    try {
      const sent = [
        basic('ann:pw'),
        basic('ann:pw'),
        basic('bob:pw'),
        basic('ann:wrong'),
        'Basic !!!',
        basic('ann:pw'),
        basic('no colon'),
        ` ${basic('ann:pw').toLowerCase().slice(0, 6)}${basic('ann:pw').slice(6)}  `,
        basic('ann:pw'),
      ];
      const statuses: number[] = [];
      for (const authorization of sent) statuses.push(await get(authorization));
      expect(connections).toBe(1);
      expect(statuses).toEqual([200, 200, 200, 401, 401, 200, 401, 200, 200]);
      expect(seen).toEqual(['ann:pw', 'ann:pw', 'bob:pw', 'ann:wrong', 'ann:pw', 'ann:pw', 'ann:pw']);
    } finally {
      agent.destroy();
      await served.close();
    }
  });

  it('compares a header with the one kept for its connection as === does (sameText)', () => {
    const text = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(sameText(a, b)).toBe(a === b);
        expect(sameText(a, a + b)).toBe(b === '');
        expect(sameText(a + b, a)).toBe(b === '');
        expect(sameText(a, `${a}`.split('').join(''))).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(sameText('Basic YTpi', 'Basic YTpj')).toBe(false);
    expect(sameText('', '')).toBe(true);
  });

  it('hands a bearer token to authenticate and the user to the handler', async () => {
    const response = await inject({ method: 'GET', url: '/v2/bearer', headers: { authorization: 'Bearer good' } });
    expect(response.status).toBe(200);
    expect(credentials).toEqual([{ scheme: 'bearerAuth', kind: 'bearer', token: 'good' }]);
    expect(users).toEqual([{ token: 'good' }]);
  });

  it('answers a missing or wrong bearer token with 401 and a Bearer challenge', async () => {
    const missing = await inject({ method: 'GET', url: '/v2/bearer' });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(missing.text)).toMatchObject({ code: 'UNAUTHORIZED', msg: expect.stringContaining('bearerAuth') });
    const wrong = await inject({ method: 'GET', url: '/v2/bearer', headers: { authorization: 'Bearer bad' } });
    expect(wrong.status).toBe(401);
    const basic = await inject({ method: 'GET', url: '/v2/bearer', headers: { authorization: 'Basic dTpw' } });
    expect(basic.status).toBe(401);
    expect(JSON.parse(basic.text).msg).toMatch(/expected a Bearer token/);
  });

  it.each([
    ['a header', { headers: { 'x-api-key': 'k1' } }, { scheme: 'headerKey', in: 'header', name: 'X-API-Key' }],
    ['a query parameter', { query: { api_key: 'k1' } }, { scheme: 'queryKey', in: 'query', name: 'api_key' }],
    ['a cookie', { headers: { cookie: 'session=k1' } }, { scheme: 'cookieKey', in: 'cookie', name: 'session' }],
  ])('takes an API key from %s, trying the alternatives in order', async (_where, options, expected) => {
    const response = await inject({ method: 'GET', url: '/v2/keys', ...options });
    expect(response.status).toBe(200);
    expect(credentials).toEqual([{ kind: 'apiKey', value: 'k1', ...expected }]);
  });

  it('needs every scheme of an alternative, and answers 401 without a challenge for API keys alone', async () => {
    const keys = await inject({ method: 'GET', url: '/v2/keys' });
    expect(keys.status).toBe(401);
    expect(keys.headers['www-authenticate']).toBeUndefined();
    const basic = `Basic ${Buffer.from('ann:pw').toString('base64')}`;
    const half = await inject({ method: 'GET', url: '/v2/both', headers: { authorization: basic } });
    expect(half.status).toBe(401);
    expect(half.headers['www-authenticate']).toBe('Basic realm="Pets"');
    const both = await inject({ method: 'GET', url: '/v2/both', headers: { authorization: basic, 'x-api-key': 'k1' } });
    expect(both.status).toBe(200);
    expect(credentials.map((credential) => credential.scheme)).toEqual(['basicAuth', 'headerKey']);
    expect(users).toEqual([{ user: 'ann' }]);
  });

  it('lets optional credentials be left out, but still checks credentials that are sent', async () => {
    const none = await inject({ method: 'GET', url: '/v2/optional' });
    expect(none.status).toBe(200);
    expect(users).toEqual([undefined]);
    const good = await inject({ method: 'GET', url: '/v2/optional', headers: { authorization: 'Bearer good' } });
    expect(good.status).toBe(200);
    expect(users).toEqual([undefined, { token: 'good' }]);
    const bad = await inject({ method: 'GET', url: '/v2/optional', headers: { authorization: 'Bearer bad' } });
    expect(bad.status).toBe(401);
  });

  it('hands another HTTP scheme its credentials text', async () => {
    const response = await inject({ method: 'GET', url: '/v2/digest', headers: { authorization: 'Digest username="a", nonce="b"' } });
    expect(response.status).toBe(200);
    expect(credentials).toEqual([{ scheme: 'digest', kind: 'http', authScheme: 'Digest', credentials: 'username="a", nonce="b"' }]);
    const missing = await inject({ method: 'GET', url: '/v2/digest' });
    expect(missing.headers['www-authenticate']).toBe('Digest');
  });
});

describe('framework errors', () => {
  it('answer in the default envelope without an error schema', async () => {
    const response = await inject({ method: 'GET', url: '/v2/nothing-here' });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.text)).toEqual({ result: 'error', msg: 'No operation at /v2/nothing-here', code: 'NOT_FOUND' });
  });

  /** The main app with the document's error schema given at registration. */
  async function withFormat(format: ErrorFormat, test: (to: FastifyInstance) => Promise<void>): Promise<void> {
    const formatted = await mainApp({ ...api, errors: { status: {}, format } });
    try {
      await test(formatted);
    } finally {
      await formatted.close();
    }
  }

  it("answer in the document's error schema when it is registered: message, status and code filled, other fields from the template", async () => {
    const format = {
      mediaType: 'application/problem+json',
      template: { type: 'about:blank', title: '', status: 0, detail: '' },
      message: ['detail'],
      status: ['status'],
      code: ['title'],
    };
    await withFormat(format, async (to) => {
      const inject = (options: InjectOptions) => injectInto(options, to);
      const notFound = await inject({ method: 'GET', url: '/v2/nothing-here' });
      expect(notFound.status).toBe(404);
      expect(notFound.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(notFound.text)).toEqual({ type: 'about:blank', title: 'NOT_FOUND', status: 404, detail: 'No operation at /v2/nothing-here' });
      const notAllowed = await inject({ method: 'DELETE', url: '/v2/pets' });
      expect(notAllowed.status).toBe(405);
      expect(notAllowed.headers.allow).toBe('POST');
      expect(JSON.parse(notAllowed.text)).toMatchObject({ status: 405, title: 'METHOD_NOT_ALLOWED' });
      const thrown = await inject({ method: 'GET', url: '/v2/missing' });
      expect(JSON.parse(thrown.text)).toEqual({ type: 'about:blank', title: 'NOT_FOUND', status: 404, detail: 'No such pet' });
      const internal = await inject({ method: 'GET', url: '/v2/fails' });
      expect(internal.status).toBe(500);
      expect(internal.text).not.toContain('secret');
      expect(JSON.parse(internal.text)).toMatchObject({ status: 500, detail: 'Internal server error' });
      const tooLarge = await inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(2000) });
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.text)).toMatchObject({ status: 413, title: 'REQUEST_TOO_LARGE' });
      const unauthorized = await inject({ method: 'GET', url: '/v2/bearer' });
      expect(JSON.parse(unauthorized.text)).toMatchObject({ status: 401, title: 'UNAUTHORIZED' });
    });
    // The app registered without it still answers in the default envelope.
    expect(JSON.parse((await inject({ method: 'GET', url: '/v2/nothing-here' })).text)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('fill a message nested one level down', async () => {
    const format = { mediaType: 'application/json', template: { error: { code: 0, message: '' } }, message: ['error', 'message'], status: ['error', 'code'] };
    await withFormat(format, async (to) => {
      const response = await injectInto({ method: 'GET', url: '/v2/nothing-here' }, to);
      expect(JSON.parse(response.text)).toEqual({ error: { code: 404, message: 'No operation at /v2/nothing-here' } });
    });
  });
});

describe('where credentials are checked', () => {
  // An authenticator that answers through a promise, as a database lookup does.
  let asyncApp: FastifyInstance;
  const onRequestHooks = new Map<string, boolean>();
  const decoded: string[] = [];
  const seenUsers: unknown[] = [];
  const failing = (raw: RawRequest): Decoded<FullRawRequest> => {
    decoded.push(String(raw.path?.id));
    return raw.path?.id === 'bad' ? { ok: false, error: { msg: 'id is not a pet', rule: 'type' } as never } : passThrough(raw);
  };
  const handler: AnyHandler = async (raw, ctx) => {
    seenUsers.push(ctx.user);
    return { id: raw.path?.id };
  };

  beforeAll(async () => {
    asyncApp = Fastify();
    asyncApp.addHook('onRoute', (options) => {
      onRequestHooks.set(`${String(options.method)} ${options.url}`, options.onRequest !== undefined);
    });
    const secured = { auth: true, security: [['bearerAuth']] };
    await registerOperations(
      asyncApp,
      '/v2',
      [
        operation(route('getPet', 'GET', '/pets/:id', secured), failing, handler, noValidation),
        operation(route('updatePet', 'POST', '/pets/:id', secured), failing, handler, noValidation),
      ],
      {
        headers: { 'X-Version': '7' },
        authenticate: async (credential) => {
          await new Promise((resolve) => setImmediate(resolve));
          if (credential.kind !== 'bearer') return undefined;
          if (credential.token === 'boom') throw new Error('lookup failed');
          return credential.token === 'good' ? { token: credential.token } : null;
        },
      },
      api,
    );
    await asyncApp.ready();
  });
  afterAll(async () => {
    await asyncApp.close();
  });
  afterEach(() => {
    decoded.length = 0;
    seenUsers.length = 0;
  });

  const get = (id: string, token?: string, method: 'GET' | 'HEAD' = 'GET') =>
    asyncApp.inject({ method, url: `/v2/pets/${id}`, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

  it('needs no onRequest hook on routes of methods without a body, and keeps it where a body is read', () => {
    expect(onRequestHooks.get('GET /v2/pets/:id')).toBe(false);
    expect(onRequestHooks.get('POST /v2/pets/:id')).toBe(true);
  });

  it('hands the user an asynchronous authenticator gives to the handler of a GET', async () => {
    const response = await get('7', 'good');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: '7' });
    expect(seenUsers).toEqual([{ token: 'good' }]);
  });

  it('answers wrong or missing credentials with 401 before decoding, on GET and HEAD', async () => {
    for (const [token, method] of [['bad', 'GET'], [undefined, 'GET'], ['bad', 'HEAD']] as const) {
      const response = await get('bad', token, method);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    expect(JSON.parse((await get('bad', 'bad')).body)).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Invalid credentials' });
    expect(decoded).toEqual([]);
    expect(seenUsers).toEqual([]);
  });

  it('decodes after an asynchronous authentication, and answers its errors as before', async () => {
    const refused = await get('bad', 'good');
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'BAD_REQUEST', msg: 'id is not a pet' });
    const failed = await get('7', 'boom');
    expect(failed.statusCode).toBe(500);
    expect(JSON.parse(failed.body)).toMatchObject({ code: 'INTERNAL_ERROR', msg: 'Internal server error' });
    expect(seenUsers).toEqual([]);
  });

  it('checks credentials before reading the body of a POST', async () => {
    const response = await asyncApp.inject({
      method: 'POST',
      url: '/v2/pets/7',
      headers: { authorization: 'Bearer bad', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=%E0%A4%A',
    });
    expect(response.statusCode).toBe(401);
    const good = await asyncApp.inject({
      method: 'POST',
      url: '/v2/pets/7',
      headers: { authorization: 'Bearer good', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=%E0%A4%A',
    });
    expect(good.statusCode).toBe(400);
  });
});

describe('headers of every answer (RegisterOptions.headers)', () => {
  it('are sent first on successes, errors raised before and by the handler, and 404/405 answers', async () => {
    const app = Fastify();
    await registerOperations(
      app,
      '/v2',
      [
        operation(route('getPet', 'GET', '/pets/:id', { auth: true, security: [['bearerAuth']] }), passThrough, async (raw) => ({ id: raw.path?.id }), noValidation),
        operation(route('addPet', 'POST', '/pets'), passThrough, async () => {
          throw new ApiError('NOT_FOUND', 'No such owner');
        }, noValidation),
      ],
      { headers: { 'X-Version': '7', 'x-build': 'abc' }, authenticate: (credential) => (credential.kind === 'bearer' && credential.token === 'good' ? {} : null) },
      api,
    );
    const answers = {
      success: await app.inject({ method: 'GET', url: '/v2/pets/1', headers: { authorization: 'Bearer good' } }),
      head: await app.inject({ method: 'HEAD', url: '/v2/pets/1', headers: { authorization: 'Bearer good' } }),
      unauthorized: await app.inject({ method: 'GET', url: '/v2/pets/1' }),
      thrown: await app.inject({ method: 'POST', url: '/v2/pets' }),
      // Fastify sets `connection: close` before the error handler runs.
      brokenBody: await app.inject({ method: 'POST', url: '/v2/pets', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=%E0%A4%A' }),
      notFound: await app.inject({ method: 'GET', url: '/v2/nothing' }),
      notAllowed: await app.inject({ method: 'DELETE', url: '/v2/pets' }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, response]) => [name, response.statusCode]))).toEqual({
      success: 200,
      head: 200,
      unauthorized: 401,
      thrown: 404,
      brokenBody: 400,
      notFound: 404,
      notAllowed: 405,
    });
    for (const [name, response] of Object.entries(answers)) {
      const names = response.raw.res.getHeaderNames();
      expect([name, names.slice(0, 2)]).toEqual([name, ['x-version', 'x-build']]);
      expect(response.headers['x-version']).toBe('7');
    }
    expect(answers.brokenBody.headers.connection).toBe('close');
    expect(answers.notAllowed.headers.allow).toBe('POST');
    await app.close();
  });
});

describe('urlencoded form parsing', () => {
  /** The plain reading: split on `&`, then at the first `=`, `+` as space, strict percent-decoding. */
  function reference(text: string): Record<string, string | string[]> | 'refused' {
    const fields: Record<string, string | string[]> = {};
    try {
      for (const pair of text.split('&')) {
        if (pair === '') continue;
        const equals = pair.indexOf('=');
        const decode = (part: string) => decodeURIComponent(part.replaceAll('+', ' '));
        const name = decode(equals === -1 ? pair : pair.slice(0, equals));
        const value = equals === -1 ? '' : decode(pair.slice(equals + 1));
        const existing = Object.hasOwn(fields, name) ? fields[name] : undefined;
        fields[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
      }
    } catch {
      return 'refused';
    }
    return fields;
  }
  function parsed(text: string): Record<string, string | string[]> | 'refused' {
    try {
      return { ...parseForm(text) };
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('BAD_REQUEST');
      return 'refused';
    }
  }

  it('reads every body as the plain reading does', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', 'b', 'op', 'flag', 'narrow', '=', '&', '+', '%', '%5B', '%5d', '%2', '%zz', '%7F', '%80', '%C3%A9', '%E2%82%AC', '%00', 'é', '€', ' '),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }).map((text) => encodeURIComponent(text)),
    );
    const body = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(body, (text) => {
        const expected = reference(text);
        // Twice: the second reading finds the names of the first among the known ones.
        expect(parsed(text)).toEqual(expected);
        expect(parsed(text)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a body of hundreds of names of many lengths alike, sent twice', () => {
    const names = Array.from({ length: 700 }, (_, i) => `n${i}`.padEnd(3 + (i % 70), 'x'));
    for (let round = 0; round < 2; round++) {
      const text = names.map((name, i) => `${name}=${i}%5B`).join('&');
      expect(parsed(text)).toEqual(Object.fromEntries(names.map((name, i) => [name, `${i}[`])));
    }
  });

  it('keeps the narrow body as sent, repeated fields as lists and names like prototype properties as plain fields', () => {
    const text = 'anchor=1&num_before=0&num_after=99&narrow=%5B%5D&op=add&flag=starred';
    expect(parsed(text)).toEqual({ anchor: '1', num_before: '0', num_after: '99', narrow: '[]', op: 'add', flag: 'starred' });
    expect(parsed('a=1&a=2&a=3&constructor=x&__proto__=y')).toEqual({ a: ['1', '2', '3'], constructor: 'x', ['__proto__']: 'y' });
    expect(parsed('a=%E0%A4%A')).toBe('refused');
    expect(parsed('a=%5')).toBe('refused');
  });
});
