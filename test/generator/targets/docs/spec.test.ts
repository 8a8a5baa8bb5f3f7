import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import type { ApiModel, Operation } from '../../../../generator/model/types.js';
import { curlExample } from '../../../../generator/targets/docs/curl.js';
import { EXAMPLE_ORIGIN, exampleFileName } from '../../../../generator/targets/docs/examples.js';
import { renderMarkdown } from '../../../../generator/targets/docs/index.js';
import { oneLine } from '../../../../generator/targets/docs/markdown.js';
import type { OutputFile } from '../../../../generator/targets/types.js';
import { DEFAULT_TARGET_OPTIONS } from '../../../../generator/config.js';

const run = promisify(execFile);
const root = process.cwd();

// The real document through the docs target: every page is there and every
// curl example sends exactly its request example on the wire.

let model: ApiModel;
let pages: OutputFile[];

beforeAll(async () => {
  model = buildModel(await loadSpec('spec/openapi.yaml', root));
  pages = renderMarkdown({
    model,
    root,
    outDir: 'generated',
    templatesDir: join(root, 'templates'),
    command: 'npm run generate',
    readExisting: () => undefined,
    options: DEFAULT_TARGET_OPTIONS,
    filesOf: async () => [],
    produces: () => true,
    report: () => undefined,
  });
}, 60_000);

function page(path: string): string {
  const found = pages.find((file) => file.path === `generated/docs/${path}`);
  if (found === undefined) throw new Error(`no ${path}`);
  return found.contents;
}

describe('docs of the real document', () => {
  it('has a page per operation with both examples, and every change in the changelog', () => {
    const changelog = page('changelog.md');
    for (const operation of model.operations) {
      const text = page(`reference/${operation.names.file}.md`);
      expect(text).toContain(`\`${operation.method.toUpperCase()} ${model.basePath}${operation.path}\``);
      expect(text).toContain('```sh\ncurl -sS ');
      expect(text).toContain(`await client.${operation.names.camel}(`);
      expect(page('index.md')).toContain(`(reference/${operation.names.file}.md)`);
      for (const { change } of [operation, ...operation.parameters].flatMap((place) => place.changes)) {
        expect(changelog).toContain(oneLine(change));
      }
    }
  });
});

interface Recorded {
  method: string;
  url: URL;
  contentType: string;
  authorization: string | undefined;
  body: Buffer;
}

describe('curl examples of the real document', () => {
  let last: Recorded | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      last = {
        method: request.method ?? '',
        url: new URL(request.url ?? '/', 'http://127.0.0.1'),
        contentType: request.headers['content-type'] ?? '',
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks),
      };
      response.end('{"result":"success","msg":""}');
    });
  });
  let origin = '';
  let workDir = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    workDir = await mkdtemp(join(tmpdir(), 'docs-spec-curl-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(workDir, { recursive: true, force: true });
  });

  /** Fields as the server sees them: query string for GET, form or multipart body otherwise. */
  async function sent(operation: Operation): Promise<{ request: Recorded; fields: Map<string, string> }> {
    for (const parameter of operation.parameters.filter((p) => p.encoding === 'file')) {
      const value = (operation.requestExamples[0]?.value as Record<string, unknown> | undefined)?.[parameter.name];
      await writeFile(join(workDir, exampleFileName(value)), 'file contents');
    }
    last = undefined;
    const command = curlExample(operation, model.basePath).replace(EXAMPLE_ORIGIN, origin);
    await run('sh', ['-c', command], { cwd: workDir, env: { ...process.env, API_KEY: 'k3y' } });
    const request = last as Recorded | undefined;
    if (request === undefined) throw new Error(`${operation.id}: no request arrived`);
    const fields = new Map(request.url.searchParams);
    if (request.contentType.startsWith('application/x-www-form-urlencoded')) {
      for (const [name, value] of new URLSearchParams(request.body.toString('utf8'))) fields.set(name, value);
    }
    if (request.contentType.startsWith('multipart/form-data')) {
      const form = await new Response(new Uint8Array(request.body), { headers: { 'content-type': request.contentType } }).formData();
      for (const [name, value] of form) fields.set(name, typeof value === 'string' ? value : `file:${value.name}`);
    }
    return { request, fields };
  }

  it('sends each request example with the method, path, credentials and wire encoding of its operation', async () => {
    const checked: string[] = [];
    for (const operation of model.operations) {
      const example = (operation.requestExamples[0]?.value ?? {}) as Record<string, unknown>;
      const { request, fields } = await sent(operation);
      expect(request.method, operation.id).toBe(operation.method.toUpperCase());
      expect(request.authorization === undefined, operation.id).toBe(!operation.auth);

      let path = model.basePath + operation.path;
      const expected = new Map<string, string>();
      for (const parameter of operation.parameters) {
        if (!Object.hasOwn(example, parameter.name)) continue;
        const value = example[parameter.name];
        if (parameter.location === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
        else if (parameter.encoding === 'file') expected.set(parameter.name, `file:${exampleFileName(value)}`);
        else if (parameter.encoding === 'json') expected.set(parameter.name, JSON.stringify(value));
        else expected.set(parameter.name, typeof value === 'string' ? value : String(value));
      }
      expect(request.url.pathname, operation.id).toBe(path);
      expect(fields, operation.id).toEqual(expected);
      checked.push(operation.id);
    }
    expect(checked).toHaveLength(model.operations.length);
  }, 60_000);
});
