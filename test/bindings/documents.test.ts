/**
 * The server target on every fixture document of test/fixtures/operations/:
 * each generates (types, validators, server) into a scratch project, the
 * bindings, mock handlers and handler scaffolds type-check under strict and
 * noUncheckedIndexedAccess, and the mock answers every operation with its
 * primary success status, given a request made from the model (required
 * parameters and bodies from their schemas, credentials for the first
 * security alternative).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { typeCheck } from '../support/type-check.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/cli/pipeline.js';
import { loadSpec } from '../../generator/load/index.js';
import { buildModel } from '../../generator/model/build.js';
import type { ApiModel, Operation, Parameter } from '../../generator/model/types.js';
import { sampleValue } from '../../generator/targets/server/samples.js';
import { targets } from '../../generator/targets/index.js';
import { config } from '../support/generator.js';
import { repoRoot } from '../support/process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- modules generated at test time are untyped here */
type Loaded = Record<string, any>;

const FIXTURES = join(repoRoot, 'test/fixtures/operations');
const fixtures = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

interface Project {
  name: string;
  root: string;
  model: ApiModel;
  app: FastifyInstance;
  server: Loaded;
}

const projects: Project[] = [];
let base: string;

beforeAll(async () => {
  const artifacts = join(repoRoot, 'test/artifacts');
  mkdirSync(artifacts, { recursive: true });
  base = mkdtempSync(join(artifacts, 'documents-'));
  const wanted = new Set(['types', 'validators', 'server']);
  for (const name of fixtures) {
    const root = join(base, name);
    cpSync(join(FIXTURES, name), join(root, 'spec'), { recursive: true });
    await generate(config(root, {}, [...wanted]), targets.filter((target) => wanted.has(target.name)));
    const model = buildModel(await loadSpec(join(root, 'spec/openapi.yaml'), root));
    const server = (await import(pathToFileURL(join(root, 'generated/server.ts')).href)) as Loaded;
    const { mockHandlers } = (await import(pathToFileURL(join(root, 'generated/mock-handlers.ts')).href)) as Loaded;
    const app = Fastify({ frameworkErrors: server.frameworkErrors });
    await server.registerRoutes(app, { handlers: mockHandlers, authenticate: (credential: unknown) => ({ credential }) });
    await app.ready();
    projects.push({ name, root, model, app, server });
  }
}, 300_000);

afterAll(async () => {
  for (const project of projects) await project.app.close();
  if (base !== undefined) rmSync(base, { recursive: true, force: true });
});

describe('the server target on every fixture document', () => {
  it('type-checks the bindings, the mock handlers and the handler scaffolds under strict and noUncheckedIndexedAccess', () => {
    const files = projects.flatMap(({ root }) => [
      join(root, 'generated/server.ts'),
      join(root, 'generated/mock-handlers.ts'),
      join(root, 'generated/handlers.ts'),
    ]);
    expect(typeCheck(files, {}, base).join('\n')).toBe('');
  }, 180_000);

  it.each(fixtures)('%s: the mock answers every operation with its primary success status and media type', async (name) => {
    const project = projects.find((candidate) => candidate.name === name)!;
    const answers: string[] = [];
    const expected: string[] = [];
    for (const operation of project.model.operations) {
      const response = await project.app.inject(requestFor(project.model, operation));
      const status = operation.success.status === 0 ? 200 : operation.success.status;
      const content = operation.success.contents[0];
      const type = String(response.headers['content-type'] ?? '').split(';')[0];
      answers.push(`${operation.id} ${response.statusCode} ${content === undefined || operation.method === 'head' ? '' : type}`);
      const mediaType = content === undefined || operation.method === 'head' ? '' : content.mediaType.includes('*') ? type : content.mediaType;
      expected.push(`${operation.id} ${status} ${mediaType}`);
    }
    expect(answers).toEqual(expected);
  });
});

/** A request the operation's decoder accepts: required parameters and body made from their schemas, credentials for the first alternative. */
function requestFor(model: ApiModel, operation: Operation): InjectOptions {
  const headers: Record<string, string> = {};
  const query: Record<string, string> = {};
  const cookies: string[] = [];
  let path = operation.path;
  for (const parameter of operation.parameters) {
    if (!parameter.required || parameter.location === 'body') continue;
    let value = sampleValue(parameter.schema, model);
    // An empty list would leave an empty path segment (`/lists//x`, `/lists/./x`).
    if (Array.isArray(value) && value.length === 0 && parameter.schema.kind === 'array' && parameter.schema.items !== undefined) {
      value = [sampleValue(parameter.schema.items, model)];
    }
    const text = plainText(parameter, value);
    if (parameter.location === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    else if (parameter.location === 'query') query[parameter.name] = text;
    else if (parameter.location === 'header') headers[parameter.name.toLowerCase()] = text;
    else cookies.push(`${parameter.name}=${encodeURIComponent(text)}`);
  }
  for (const name of operation.security[0] ?? []) {
    const scheme = model.securitySchemes.find((candidate) => candidate.name === name);
    if (scheme?.kind === 'basic') headers.authorization = `Basic ${Buffer.from('user:secret').toString('base64')}`;
    else if (scheme?.kind === 'bearer' || scheme?.kind === 'oauth2' || scheme?.kind === 'openIdConnect') headers.authorization = 'Bearer token';
    else if (scheme?.kind === 'http') headers.authorization = `${scheme.scheme ?? 'Custom'} credentials`;
    else if (scheme?.kind === 'apiKey' && scheme.in === 'query') query[scheme.parameterName ?? ''] = 'key';
    else if (scheme?.kind === 'apiKey' && scheme.in === 'cookie') cookies.push(`${scheme.parameterName ?? ''}=key`);
    else if (scheme?.kind === 'apiKey') headers[(scheme.parameterName ?? '').toLowerCase()] = 'key';
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const options: InjectOptions = { method: operation.method.toUpperCase() as 'GET', url: operation.basePath + path, query, headers };
  const body = operation.requestBody;
  const fields = operation.parameters.filter((parameter) => parameter.location === 'body' && parameter.required);
  if (body?.mode === 'whole' && body.required) {
    const content = body.contents[0]!;
    const value = content.examples[0]?.value ?? sampleValue(content.schema, model);
    headers['content-type'] = content.mediaType.includes('*') ? 'application/octet-stream' : content.mediaType;
    options.payload = content.kind === 'json' ? JSON.stringify(value) : typeof value === 'string' ? value : JSON.stringify(value ?? '');
  } else if (fields.length > 0 && body?.contents[0]?.kind === 'multipart') {
    // Required fields and files as one multipart body (a one-byte file each).
    const boundary = 'teamchat-fixture-boundary';
    const parts = fields.map((field) =>
      field.encoding === 'file'
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${field.name}"; filename="${field.name}.bin"\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${field.name}"\r\n\r\n${plainText(field, sampleValue(field.schema, model))}\r\n`,
    );
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    options.payload = `${parts.join('')}--${boundary}--\r\n`;
  } else if (fields.length > 0 && fields.every((field) => field.encoding !== 'file')) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    options.payload = new URLSearchParams(fields.map((field) => [field.name, plainText(field, sampleValue(field.schema, model))])).toString();
  }
  return options;
}

/** A plain parameter's text in its style (OpenAPI's style table), for scalars, arrays and objects of scalars. */
function plainText(parameter: Parameter, value: unknown): string {
  if (parameter.encoding === 'json') return JSON.stringify(value);
  const explode = parameter.explode === true;
  const scalar = (item: unknown) => (typeof item === 'string' ? item : JSON.stringify(item));
  let pairs: [string, string][] | undefined;
  let items: string[];
  if (Array.isArray(value)) items = value.map(scalar);
  else if (typeof value === 'object' && value !== null) {
    pairs = Object.entries(value).map(([key, item]) => [key, scalar(item)]);
    items = explode ? pairs.map(([key, item]) => `${key}=${item}`) : pairs.flat();
  } else items = [scalar(value)];
  switch (parameter.style) {
    case 'label':
      return '.' + items.join(explode ? '.' : ',');
    case 'matrix':
      if (pairs !== undefined && explode) return pairs.map(([key, item]) => `;${key}=${item}`).join('');
      if (Array.isArray(value) && explode) return items.map((item) => `;${parameter.name}=${item}`).join('');
      return `;${parameter.name}=${items.join(',')}`;
    default:
      return items.join(',');
  }
}
