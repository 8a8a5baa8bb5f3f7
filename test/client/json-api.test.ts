/**
 * The client generated for a JSON API unlike ours (hand-built model,
 * test/fixtures/client/json/model.ts): what it puts on the wire for every
 * parameter location, body kind and security scheme, and how it reads
 * 201/202/204, text, binary and error responses. A recording fetch answers.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonModel } from '../fixtures/client/json/model.js';
import { emitClient, fixtureDir, importModule, removeEmitted } from '../fixtures/client/harness.js';

afterAll(removeEmitted);

/* eslint-disable @typescript-eslint/no-explicit-any -- the client is emitted at test time, so its module is untyped here */
type Loaded = Record<string, any>;

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

let mod: Loaded;
let validators: Loaded;

beforeAll(async () => {
  const dir = emitClient(jsonModel, {
    'types.ts': join(fixtureDir, 'json/types.ts'),
    'validators.ts': join(fixtureDir, 'json/validators.ts'),
  });
  mod = await importModule<Loaded>(dir, 'client.ts');
  validators = await importModule<Loaded>(dir, 'validators.ts');
});

const pet = { id: 1, name: 'Rex' };

function jsonResponse(status: number, body: unknown, type = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
}

/** A client whose fetch records each request and answers with `respond`. */
function connect(options: Record<string, unknown> = {}, respond: (sent: Sent) => Response = () => jsonResponse(200, pet)) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const request = { method: init.method ?? 'GET', url: String(input), headers, body: init.body };
    sent.push(request);
    return respond(request);
  };
  return { api: mod.createClient({ baseUrl: 'http://api.test/', fetch, ...options }), sent };
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('parameters and servers', () => {
  it('sends query styles and header parameters, with Accept listing every declared media type', async () => {
    const { api, sent } = connect({ auth: { bearerAuth: 't0k' } }, () => jsonResponse(200, [pet]));
    expect(await api.listPets({ limit: 5, tags: ['a b', 'c'], 'X-Request-Id': 'r-1' })).toEqual([pet]);
    expect(sent).toEqual([
      {
        method: 'GET',
        url: 'http://api.test/v1/pets?limit=5&tags=a%20b|c',
        headers: { accept: 'application/json, application/problem+json', authorization: 'Bearer t0k', 'x-request-id': 'r-1' },
        body: undefined,
      },
    ]);
  });

  it('sends a path parameter and a non-exploded form array', async () => {
    const { api, sent } = connect();
    await api.getPet({ petId: 7, fields: ['id', 'name'] });
    expect(sent[0]!.url).toBe('http://api.test/v1/pets/7?fields=id,name');
  });

  it('sends an operation with its own server there, not to baseUrl', async () => {
    const { api, sent } = connect({}, () => new Response('all good', { headers: { 'content-type': 'text/plain' } }));
    expect(await api.getStatus()).toBe('all good');
    expect(sent[0]!.url).toBe('https://status.example.com/v2/status');
    const local = connect({ operationServers: false }, () => new Response('all good', { headers: { 'content-type': 'text/plain' } }));
    await local.api.getStatus();
    expect(local.sent[0]!.url).toBe('http://api.test/v2/status');
  });

  it('merges the headers of the options and of the call, parameters taking precedence', async () => {
    const { api, sent } = connect({ headers: { 'X-App': 'demo', 'X-Request-Id': 'from-options' } });
    await api.listPets({ 'X-Request-Id': 'from-param' }, { headers: { 'X-Call': '1' } });
    expect(sent[0]!.headers).toMatchObject({ 'x-app': 'demo', 'x-call': '1', 'x-request-id': 'from-param' });
  });
});

describe('request bodies', () => {
  it('sends a whole JSON body with its media type; a 201 resolves to its body', async () => {
    const { api, sent } = connect({ auth: { apiKeyQuery: 'q', apiKeyCookie: 'c k' } }, () => jsonResponse(201, pet));
    expect(await api.createPet({ body: { name: 'Rex' } })).toEqual(pet);
    expect(sent[0]).toEqual({
      method: 'POST',
      url: 'http://api.test/v1/pets?key=q',
      headers: { accept: 'application/json', 'content-type': 'application/json', cookie: 'sid=c%20k' },
      body: '{"name":"Rex"}',
    });
  });

  it('sends the media type the call chooses, and refuses one the operation does not declare', async () => {
    const { api, sent } = connect({}, () => jsonResponse(201, pet));
    await api.createPet({ body: 'Rex' }, { contentType: 'text/plain' });
    expect([sent[0]!.headers['content-type'], sent[0]!.body]).toEqual(['text/plain', 'Rex']);
    const error = await rejection(api.createPet({ body: {} }, { contentType: 'application/xml' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('createPet: the request body cannot be sent as "application/xml" (declared: application/json, text/plain)');
    expect(sent).toHaveLength(1);
  });

  it('sends a +json media type as declared', async () => {
    const { api, sent } = connect({ auth: { digest: 'user="a"' } });
    await api.updatePet({ petId: 1, body: { name: 'Max' } });
    expect(sent[0]!.headers).toMatchObject({ 'content-type': 'application/merge-patch+json', authorization: 'Digest user="a"' });
    expect(sent[0]!.body).toBe('{"name":"Max"}');
  });

  it('sends binary bodies as they are: bytes as octet-stream for a wildcard type, a Blob with its own type', async () => {
    const { api, sent } = connect({}, () => new Response('stored', { headers: { 'content-type': 'text/plain' } }));
    const bytes = new Uint8Array([137, 80, 78, 71]);
    expect(await api.putPetPhoto({ petId: 1, body: bytes })).toBe('stored');
    await api.putPetPhoto({ petId: 1, body: new Blob([bytes], { type: 'image/png' }) });
    await api.putPetPhoto({ petId: 1, body: bytes.buffer }, { contentType: 'image/webp' });
    await api.putPetPhoto({ petId: 1 });
    expect(sent.map((s) => s.headers['content-type'])).toEqual(['application/octet-stream', 'image/png', 'image/webp', undefined]);
    expect(sent[0]!.body).toBe(bytes);
    expect(sent[3]!.body).toBeUndefined();
  });

  it('refuses a missing required body before sending', async () => {
    const { api, sent } = connect();
    expect((await rejection(api.createPet({}))).message).toBe('createPet: missing request body "body"');
    expect(sent).toEqual([]);
  });

  it('sends a file array as several parts, typed by the part content type unless the file names its own', async () => {
    const { api, sent } = connect({}, () => jsonResponse(201, pet));
    await api.uploadDocs({
      petId: 3,
      note: 'vet',
      files: [
        { filename: 'a.pdf', data: new TextEncoder().encode('%PDF-a') },
        { filename: 'b.txt', contentType: 'text/plain', data: new TextEncoder().encode('b') },
      ],
    });
    const entries = [...(sent[0]!.body as FormData).entries()] as [string, File | string][];
    expect(entries.map(([name, value]) => [name, typeof value === 'string' ? value : [value.name, value.type, value.size]])).toEqual([
      ['files', ['a.pdf', 'application/pdf', 6]],
      ['files', ['b.txt', 'text/plain', 1]],
      ['note', 'vet'],
    ]);
    expect(sent[0]!.headers['content-type']).toBeUndefined();
  });
});

describe('credentials', () => {
  it('sends the first alternative configured: bearer, else the API key header, else nothing', async () => {
    const both = connect({ auth: { bearerAuth: 'b', api_key: 'k' } });
    const keyOnly = connect({ auth: { api_key: 'k' } });
    const none = connect();
    for (const { api } of [both, keyOnly, none]) await api.listPets();
    expect(both.sent[0]!.headers).toMatchObject({ authorization: 'Bearer b' });
    expect(both.sent[0]!.headers).not.toHaveProperty('x-api-key');
    expect(keyOnly.sent[0]!.headers).toMatchObject({ 'x-api-key': 'k' });
    expect(keyOnly.sent[0]!.headers).not.toHaveProperty('authorization');
    expect(none.sent[0]!.headers).toEqual({ accept: 'application/json, application/problem+json' });
  });

  it('calls a token function before every request, sync or async', async () => {
    let n = 0;
    const { api, sent } = connect({ auth: { oauth: async () => `access-${++n}` } }, () => new Response(null, { status: 204 }));
    await api.deletePet({ petId: 1 });
    await api.deletePet({ petId: 1 });
    expect(sent.map((s) => s.headers['authorization'])).toEqual(['Bearer access-1', 'Bearer access-2']);
    const sync = connect({ auth: { bearerAuth: () => 'sync' } });
    await sync.api.listPets();
    expect(sync.sent[0]!.headers['authorization']).toBe('Bearer sync');
  });

  it('sends all schemes of an alternative, and none when one of them is missing', async () => {
    const partial = connect({ auth: { apiKeyQuery: 'q' } }, () => jsonResponse(201, pet));
    await partial.api.createPet({ body: {} });
    expect(partial.sent[0]!.url).toBe('http://api.test/v1/pets');
    expect(partial.sent[0]!.headers).not.toHaveProperty('cookie');
  });

  it('sends optional Basic credentials only when configured, UTF-8 encoded', async () => {
    const anonymous = connect();
    await anonymous.api.getPet({ petId: 1 });
    expect(anonymous.sent[0]!.headers).not.toHaveProperty('authorization');
    const named = connect({ auth: { basicAuth: { username: 'zoë', password: 'p:w' } } });
    await named.api.getPet({ petId: 1 });
    expect(named.sent[0]!.headers['authorization']).toBe(`Basic ${Buffer.from('zoë:p:w').toString('base64')}`);
  });

  it('takes a mutualTLS requirement as met without HTTP credentials', async () => {
    const { api, sent } = connect({}, () => new Response('ok', { headers: { 'content-type': 'text/plain' } }));
    await api.putPetPhoto({ petId: 1 });
    expect(sent[0]!.headers).toEqual({ accept: 'text/plain' });
  });
});

describe('responses', () => {
  it('resolves a 204 and a 202 without body to undefined, and a 200 of the same operation to its body', async () => {
    let status = 202;
    const { api } = connect({ auth: { digest: 'x', oauth: 'o' } }, () => (status === 200 ? jsonResponse(200, pet) : new Response(null, { status })));
    expect(await api.updatePet({ petId: 1, body: {} })).toBeUndefined();
    status = 200;
    expect(await api.updatePet({ petId: 1, body: {} })).toEqual(pet);
    status = 204;
    expect(await api.deletePet({ petId: 1 })).toBeUndefined();
  });

  it('gives status and headers with withResponse, which is not one of the operations', async () => {
    const { api } = connect({}, () => new Response(null, { status: 202, headers: { location: '/v1/jobs/9' } }));
    const response = await api.withResponse.updatePet({ petId: 1, body: {} });
    expect([response.status, response.headers.get('location'), response.body]).toEqual([202, '/v1/jobs/9', undefined]);
    expect(Object.keys(api)).not.toContain('withResponse');
  });

  it('resolves a binary body to a Blob', async () => {
    const { api } = connect({}, () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } }));
    const photo = await api.getPetPhoto({ petId: 1 });
    expect(photo).toBeInstanceOf(Blob);
    expect([photo.type, [...new Uint8Array(await photo.arrayBuffer())]]).toEqual(['image/png', [1, 2, 3]]);
  });

  it('reads a JSON array as it is (no envelope) and fails on a success body that is not the declared JSON', async () => {
    const { api } = connect({}, () => new Response('<html>', { status: 200, headers: { 'content-type': 'application/json' } }));
    const error = await rejection(api.listPets());
    expect(error).toBeInstanceOf(mod.TransportError);
    expect([error.kind, error.status, error.bodyExcerpt]).toEqual(['invalid-body', 200, '<html>']);
  });

  it('checks the primary success body with the validators when asked, and only JSON bodies', async () => {
    validators.calls.length = 0;
    let body: object = pet;
    const { api } = connect({ validateResponses: true }, () => jsonResponse(201, body));
    expect(await api.createPet({ body: {} })).toEqual(pet);
    body = { ...pet, bad: 1 };
    const error = await rejection(api.createPet({ body: {} }));
    expect(error).toBeInstanceOf(mod.ResponseValidationError);
    expect([error.status, error.issues]).toEqual([201, [{ path: '$.bad', message: 'is not allowed here' }]]);
    expect(validators.calls).toEqual(['createPet', 'createPet']);
  });
});

describe('errors typed by status', () => {
  it('checks error bodies per status with validateResponse when asked; an undeclared status is not checked', async () => {
    validators.calls.length = 0;
    let status = 404;
    const { api } = connect({ validateResponses: true }, () => jsonResponse(status, { message: 'x', bad: 1 }));
    const invalid = await rejection(api.getPet({ petId: 1 }));
    expect(invalid).toBeInstanceOf(mod.ResponseValidationError);
    expect([invalid.status, invalid.issues]).toEqual([404, [{ path: '$.bad', message: 'is not allowed in a 404' }]]);
    status = 418;
    const undeclared = await rejection(api.getPet({ petId: 1 }));
    expect([undeclared.name, undeclared.status]).toEqual(['ApiError', 418]);
    expect(validators.calls).toEqual(['getPet 404 application/json', 'getPet 404', 'getPet 418 application/json']);
  });

  it('throws ApiError with the status, the parsed body and the headers', async () => {
    const body = { message: 'no such pet', petId: 9 };
    const { api } = connect({}, () => new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json', 'x-trace': 't' } }));
    const error = await rejection(api.getPet({ petId: 9 }));
    expect(error).toBeInstanceOf(mod.ApiError);
    expect([error.status, error.body, error.headers.get('x-trace'), error.operation, error.code, error.msg]).toEqual([404, body, 't', 'getPet', 'HTTP_404', 'no such pet']);
    expect(error.message).toBe('getPet failed with HTTP 404: no such pet');
    expect(mod.isApiError(error, 404)).toBe(true);
    expect(mod.isApiError(error, 404, 'getPet')).toBe(true);
    expect(mod.isApiError(error, 404, 'deletePet')).toBe(false);
    expect(mod.isApiError(error, 400)).toBe(false);
  });

  it('reads error bodies by their media type: problem+json, text, none, and an undeclared HTML page as text', async () => {
    const problem = { type: 'about:blank', title: 'Unavailable', status: 503 };
    const cases: [() => Response, (api: Loaded) => Promise<unknown>, number, unknown][] = [
      [() => jsonResponse(503, problem, 'application/problem+json'), (api) => api.listPets(), 503, problem],
      [() => new Response('gone', { status: 404, headers: { 'content-type': 'text/plain' } }), (api) => api.deletePet({ petId: 1 }), 404, 'gone'],
      [() => new Response(null, { status: 409 }), (api) => api.createPet({ body: {} }), 409, undefined],
      [() => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }), (api) => api.getPet({ petId: 1 }), 502, '<h1>Bad gateway</h1>'],
    ];
    for (const [respond, call, status, body] of cases) {
      const { api } = connect({ auth: { oauth: 'o' } }, respond);
      const error = await rejection(call(api));
      expect([error.name, error.status, error.body]).toEqual(['ApiError', status, body]);
    }
  });

  it('does not treat result "error" in a 200 body as an error without the envelope convention', async () => {
    const { api } = connect({}, () => jsonResponse(200, { result: 'error', id: 1 }));
    expect(await api.getPet({ petId: 1 })).toEqual({ result: 'error', id: 1 });
  });
});

/** Uses of the JSON client that must type-check; each `@ts-expect-error` must really be an error. */
const usage = `
import { createClient, isApiError, type ClientOptions } from './client.js';
import type { Invalid, NotFound, Pet, Problem } from './types.js';

const options: ClientOptions = {
  baseUrl: 'https://api.example.com',
  auth: { bearerAuth: async () => 'token', api_key: 'k', basicAuth: { username: 'u', password: 'p' } },
};
// @ts-expect-error -- Basic credentials are a username and password
const wrongBasic: ClientOptions = { baseUrl: 'x', auth: { basicAuth: 'token' } };
// @ts-expect-error -- no such scheme
const unknownScheme: ClientOptions = { baseUrl: 'x', auth: { nope: 'x' } };
// @ts-expect-error -- email/apiKey are the shorthand of documents following our conventions only
const shorthand: ClientOptions = { baseUrl: 'x', email: 'a', apiKey: 'b' };
// @ts-expect-error -- featureLevel only for documents naming feature levels
const level: ClientOptions = { baseUrl: 'x', featureLevel: 3 };
void [wrongBasic, unknownScheme, shorthand, level];

const client = createClient(options);
export async function use(e: unknown): Promise<void> {
  const pets: Pet[] = await client.listPets({ tags: ['a'] });
  const created: Pet = await client.createPet({ body: { name: 'Rex' } }, { contentType: 'application/json' });
  const updated: Pet | undefined = await client.updatePet({ petId: 1, body: {} });
  // @ts-expect-error -- a 202 has no body: the result may be undefined
  const notNull: Pet = await client.updatePet({ petId: 1, body: {} });
  const deleted: undefined = await client.deletePet({ petId: 1 });
  const photo: Blob = await client.getPetPhoto({ petId: 1 });
  const stored: string = await client.putPetPhoto({ petId: 1, body: new Uint8Array(1) });
  const full = await client.withResponse.updatePet({ petId: 1, body: {} });
  if (full.status === 202) {
    const none: undefined = full.body;
    void none;
  } else {
    const id: number = full.body.id;
    void id;
  }
  const headers: Headers = full.headers;
  void [pets, created, updated, notNull, deleted, photo, stored, headers];

  if (isApiError(e, 404, 'getPet')) {
    const body: NotFound = e.body;
    const status: 404 = e.status;
    void [body, status];
  }
  if (isApiError(e, 418, 'getPet')) {
    const body: Invalid = e.body;
    void body;
  }
  if (isApiError(e, 404)) {
    const body: NotFound | Invalid | Problem | string = e.body;
    // @ts-expect-error -- another operation's 404 may be text
    const only: NotFound = e.body;
    void [body, only];
  }
  if (isApiError(e, 500, 'getPet')) {
    const body: unknown = e.body;
    void body;
  }
  // @ts-expect-error -- no error codes in this document
  isApiError(e, 'NOT_FOUND');
  // @ts-expect-error -- no such operation
  isApiError(e, 404, 'nope');
}
`;

describe('generated JSON client types', () => {
  it('type-check under strict and noUncheckedIndexedAccess, narrowing errors by status', async () => {
    const ts = (await import('typescript')).default;
    const { writeFileSync } = await import('node:fs');
    const dir = emitClient(jsonModel, {
      'types.ts': join(fixtureDir, 'json/types.ts'),
      'validators.ts': join(fixtureDir, 'json/validators.ts'),
    });
    writeFileSync(join(dir, 'usage.ts'), usage);
    const program = ts.createProgram([join(dir, 'client.ts'), join(dir, 'usage.ts')], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noUnusedLocals: true,
      verbatimModuleSyntax: true,
      noEmit: true,
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        return `${d.file?.fileName.slice(dir.length + 1) ?? ''}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
