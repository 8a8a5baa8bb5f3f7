/**
 * The mock server on the real spec: the spec is loaded and the types,
 * validators and server targets run into a scratch project under
 * test/artifacts/, next to a copy of server/mock.ts, so this suite checks
 * the bindings and the real decoders together whether or not generated/ is
 * fresh.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load/index.js';
import { buildModel } from '../../generator/model/build.js';
import type { ApiModel, Operation } from '../../generator/model/types.js';
import { target as serverTarget } from '../../generator/targets/server/index.js';
import { target as typesTarget } from '../../generator/targets/types/index.js';
import { target as validatorsTarget } from '../../generator/targets/validators/index.js';
import { basic } from './fixture/app.js';
import { artifactDir, root, writeOutputs } from './fixture/harness.js';
import { DEFAULT_TARGET_OPTIONS } from '../../generator/config.js';

type MockModule = typeof import('../../server/mock.js');
type Validate = (body: unknown, options?: { strict?: boolean }) => unknown[];

let dir: string;
let model: ApiModel;
let mock: MockModule;
let responseValidators: Record<string, Validate>;
let app: FastifyInstance;

beforeAll(async () => {
  dir = artifactDir();
  model = buildModel(await loadSpec('spec/openapi.yaml', root));
  for (const target of [typesTarget, validatorsTarget, serverTarget]) {
    const outputs = await target.generate({
      model,
      root: dir,
      outDir: 'generated',
      templatesDir: join(root, 'templates'),
      command: 'npm run generate',
      readExisting: () => undefined,
      options: DEFAULT_TARGET_OPTIONS,
      filesOf: async () => [],
      produces: () => true,
      report: () => undefined,
    });
    writeOutputs(dir, outputs);
  }
  mkdirSync(join(dir, 'server'), { recursive: true });
  copyFileSync(join(root, 'server/mock.ts'), join(dir, 'server/mock.ts'));
  mkdirSync(join(dir, 'server/http'), { recursive: true });
  copyFileSync(join(root, 'server/http/framework-errors.ts'), join(dir, 'server/http/framework-errors.ts'));
  copyFileSync(join(root, 'server/http/feature-level.ts'), join(dir, 'server/http/feature-level.ts'));
  mock = (await import(pathToFileURL(join(dir, 'server/mock.ts')).href)) as MockModule;
  ({ responseValidators } = (await import(pathToFileURL(join(dir, 'generated/validators.ts')).href)) as {
    responseValidators: Record<string, Validate>;
  });
  app = await mock.createMockApp();
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const AUTH = basic('anyone@example.com', 'any-key');

/** The operation's first request example as the wire carries it. */
function exampleRequest(operation: Operation) {
  const values = (operation.requestExamples[0]?.value ?? {}) as Record<string, unknown>;
  let url = `${model.basePath}${operation.path}`;
  const fields = new URLSearchParams();
  const upload = new FormData();
  for (const parameter of operation.parameters) {
    const value = values[parameter.name];
    if (value === undefined) continue;
    const text = parameter.encoding === 'json' ? JSON.stringify(value) : String(value);
    if (parameter.location === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(text));
    else if (parameter.encoding === 'file') upload.append(parameter.name, new Blob([text]), 'release-notes.pdf');
    else fields.append(parameter.name, text);
  }
  if (operation.body === 'multipart') return { url, body: upload };
  if (operation.method === 'get') return { url: fields.size > 0 ? `${url}?${fields}` : url, body: undefined };
  return { url, body: fields };
}

async function inject(operation: Operation, authorization = AUTH) {
  const { url, body } = exampleRequest(operation);
  const encoded = body === undefined ? undefined : new Response(body);
  const response = await app.inject({
    method: operation.method.toUpperCase() as 'GET',
    url,
    headers: {
      authorization,
      ...(encoded !== undefined && { 'content-type': encoded.headers.get('content-type') ?? '' }),
    },
    ...(encoded !== undefined && { payload: Buffer.from(await encoded.arrayBuffer()) }),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

describe('mock server on the real spec', () => {
  it('has every operation of the spec', () => {
    expect(model.operations.length).toBeGreaterThanOrEqual(22);
  });

  it('answers each operation, given its request example, with its first success example, valid in strict mode', async () => {
    for (const operation of model.operations) {
      const response = await inject(operation);
      expect([operation.id, response.status]).toEqual([operation.id, 200]);
      expect(response.body).toEqual(operation.success.examples[0]?.value);
      expect([operation.id, responseValidators[operation.names.camel]!(response.body, { strict: true })]).toEqual([operation.id, []]);
    }
  });

  it('still requires credentials where the spec does', async () => {
    const getOwnUser = model.operations.find((operation) => operation.id === 'get-own-user')!;
    const response = await app.inject({ method: 'GET', url: `${model.basePath}${getOwnUser.path}` });
    expect(response.statusCode).toBe(401);
  });

  it('decodes with the real decoders: a bad path parameter is a BAD_REQUEST naming it', async () => {
    const response = await app.inject({ method: 'GET', url: `${model.basePath}/messages/abc`, headers: { authorization: AUTH } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(response.json().msg).toMatch(/message_id/);
  });

  it('lists urlencoded fields named like Object.prototype properties as unsupported parameters, not as known ones', async () => {
    const payload = 'anchor=1&num_before=0&num_after=1&narrow=%5B%5D&op=add&flag=starred&constructor=1&__proto__=2&toString&hasOwnProperty=';
    const response = await app.inject({
      method: 'POST',
      url: `${model.basePath}/messages/flags/narrow`,
      headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().ignored_parameters_unsupported).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
  });

  it('listens on HOST and PORT from the environment', async () => {
    const saved = { host: process.env.HOST, port: process.env.PORT };
    process.env.HOST = '127.0.0.1';
    process.env.PORT = '0';
    const { app: served, url } = await mock.listenMock();
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}${model.basePath}/realm/linkifiers`, { headers: { authorization: AUTH } });
      expect(response.status).toBe(200);
      expect((await response.json()).result).toBe('success');
    } finally {
      await served.close();
      process.env.HOST = saved.host;
      process.env.PORT = saved.port;
      if (saved.host === undefined) delete process.env.HOST;
      if (saved.port === undefined) delete process.env.PORT;
    }
  });
});
