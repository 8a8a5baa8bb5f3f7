import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiModel } from '../../../../generator/model/types.js';
import { routes } from '../../../bindings/fixture/generated/server.js';
import { artifactDir, fixtureDir, output, runTarget, writeOutputs } from '../../../bindings/fixture/harness.js';
import { fixtureModel } from '../../../bindings/fixture/model.js';
import { anyObject, bool, int, operation, param, response } from '../../../support/model.js';
import { repoRoot } from '../../../support/process.js';
import { runtimeAsWritten } from '../../../support/goldens.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = artifactDir();
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project folder holding the scaffolds of a first run, and what that run returned. */
async function scaffolded(model: ApiModel) {
  const dir = freshDir();
  const first = await runTarget(model, dir);
  writeOutputs(dir, first.outputs);
  return { dir, first };
}

describe('server target: golden output of the fixture model', () => {
  it('matches the files under test/bindings/fixture/ (update with npm run test:update)', async () => {
    const emitted = await runTarget(fixtureModel(), freshDir());
    expect(emitted.outputs.map((file) => [file.path, file.ownership])).toEqual([
      ['generated/server.ts', 'generated'],
      ...readdirSync(join(repoRoot, 'runtime/server-runtime'))
        .sort()
        .map((name) => [`generated/server-runtime/${name}`, 'generated']),
      ['generated/handlers.ts', 'generated'],
      ['generated/mock-handlers.ts', 'generated'],
      ['server/handlers/fetch-api-key.ts', 'scaffold'],
      ['server/handlers/get-message.ts', 'scaffold'],
      ['server/handlers/remove-reaction.ts', 'scaffold'],
      ['server/handlers/update-stream.ts', 'scaffold'],
      ['server/handlers/upload-file.ts', 'scaffold'],
      ['server/handlers/get-own-user.ts', 'scaffold'],
    ]);
    // runtimeAsWritten takes the banner from a file that has a blank line after it.
    const banner = `${output(emitted, 'generated/server.ts').split('\n').filter((line, i, lines) => lines.slice(0, i + 1).every((l) => l.startsWith('//'))).join('\n')}\n\n`;
    for (const file of emitted.outputs) {
      // The runtime is the same for every document: compared with runtime/, not stored (the fixture's rootDirs reach it there).
      if (file.path.startsWith('generated/server-runtime/')) expect(file.contents).toBe(runtimeAsWritten(file.path.slice('generated/'.length), banner));
      else await expect(file.contents).toMatchFileSnapshot(join(fixtureDir, file.path));
    }
  });

  it('is byte-identical from one run to the next', async () => {
    const a = await runTarget(fixtureModel(), freshDir());
    const b = await runTarget(fixtureModel(), freshDir());
    expect(b.outputs).toEqual(a.outputs);
  });
});

describe('server target: route table and Handlers type', () => {
  it('gives each operation its method, full Fastify path, name and auth flag', () => {
    expect(Object.values(routes)).toEqual([
      { operation: 'fetchApiKey', operationId: 'fetch-api-key', method: 'POST', path: '/api/v1/fetch_api_key', auth: false, security: [] },
      { operation: 'getMessage', operationId: 'get-message', method: 'GET', path: '/api/v1/messages/:message_id', auth: true, security: [['basicAuth']] },
      {
        operation: 'removeReaction',
        operationId: 'remove-reaction',
        method: 'DELETE',
        path: '/api/v1/messages/:message_id/reactions',
        auth: true,
        security: [['basicAuth']],
      },
      { operation: 'updateStream', operationId: 'update-stream', method: 'PATCH', path: '/api/v1/streams/:stream_id', auth: true, security: [['basicAuth']] },
      { operation: 'uploadFile', operationId: 'upload-file', method: 'POST', path: '/api/v1/user_uploads', auth: true, security: [['basicAuth']], file: 'file' },
      { operation: 'getOwnUser', operationId: 'get-own-user', method: 'GET', path: '/api/v1/users/me', auth: true, security: [['basicAuth']] },
    ]);
  });

  it('types each handler by its Params and Response types, with no user where no authentication', async () => {
    const server = output(await runTarget(fixtureModel(), freshDir()), 'generated/server.ts');
    expect(server).toContain('  updateStream: Handler<UpdateStreamParams, HandlerResult<UpdateStreamResponse>, User, UpdateStreamResponded>;');
    expect(server).toContain('  fetchApiKey: Handler<FetchApiKeyParams, HandlerResult<FetchApiKeyResponse>, undefined, FetchApiKeyResponded>;');
    expect(server).toContain("  'STREAM_DOES_NOT_EXIST': 400,");
    expect(server).toContain('operation(routes.uploadFile, decodeUploadFile, handlers.uploadFile, responseValidators.uploadFile),');
  });

  it('generates for a model without the error codes the bindings send: they fall back to the default envelope', async () => {
    const model = fixtureModel();
    model.errors = model.errors.filter((error) => error.code !== 'METHOD_NOT_ALLOWED' && error.code !== 'INTERNAL_ERROR');
    const emitted = await runTarget(model, freshDir());
    expect(output(emitted, 'generated/server.ts')).not.toContain("'METHOD_NOT_ALLOWED'");
    expect(output(emitted, 'generated/mock-handlers.ts')).not.toContain("'INTERNAL_ERROR'");
  });

  it('routes a path parameter Fastify would split under an alias, mapped back to its name', async () => {
    const model = fixtureModel();
    model.operations.push(operation('get-thing', 'get', '/things/{thing-id}/{p0}', [
      param('thing-id', int(), { location: 'path', required: true }),
      param('p0', int(), { location: 'path', required: true }),
    ]));
    const server = output(await runTarget(model, freshDir()), 'generated/server.ts');
    expect(server).toContain("path: '/api/v1/things/:p1/:p0',");
    expect(server).toContain("pathNames: { p1: 'thing-id' },");
  });

  it('keeps hostile summaries inside their comments and aliases an operation named like the index export', async () => {
    const model = fixtureModel();
    const example = { name: 'success', summary: '', value: { result: 'success', msg: '', "it's": '*/ {{x}}' } };
    const hostile = operation('handlers', 'get', '/handlers', [], { success: response(200, anyObject(), { examples: [example] }) });
    hostile.summary = 'Ends */ a comment\nand breaks a line';
    model.operations.push(hostile);
    const emitted = await runTarget(model, freshDir());
    const server = output(emitted, 'generated/server.ts');
    expect(server).toContain('/** GET /handlers: Ends *\\/ a comment and breaks a line */');
    expect(output(emitted, 'generated/handlers.ts')).toContain("import { handlers as handlersHandler } from '../server/handlers/handlers.js';");
    expect(output(emitted, 'generated/mock-handlers.ts')).toContain("'it\\'s': '*/ {{x}}',");
  });
});

describe('server target: handler scaffolds', () => {
  it('scaffolds a missing handler returning the first success example without the envelope', async () => {
    const emitted = await runTarget(fixtureModel(), freshDir());
    const scaffold = output(emitted, 'server/handlers/fetch-api-key.ts');
    expect(scaffold).toContain("import type { Handlers } from '../../generated/server.js';");
    expect(scaffold).toContain("export const fetchApiKey: Handlers['fetchApiKey'] = async (params, ctx) => {");
    expect(scaffold).toContain("    api_key: 'gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1',");
    expect(scaffold).not.toContain("result: 'success'");
  });

  it('hands back an existing file unchanged when only its body differs', async () => {
    const { dir } = await scaffolded(fixtureModel());
    const path = join(dir, 'server/handlers/update-stream.ts');
    const edited = readFileSync(path, 'utf8').replace('  return {};', '  await ctx.request.server.close();\n  return {};');
    writeFileSync(path, edited);
    const again = await runTarget(fixtureModel(), dir);
    expect(output(again, 'server/handlers/update-stream.ts')).toBe(edited);
    expect(again.reports).toEqual([]);
  });

  it('updates the generated doc comment when a parameter is added, keeping every other byte', async () => {
    const { dir } = await scaffolded(fixtureModel());
    const path = join(dir, 'server/handlers/update-stream.ts');
    const body = [
      '  // Hand-written: only administrators may rename.',
      "  if (params.description === '') throw new Error('empty');",
      '  return {};',
    ].join('\n');
    const edited =
      readFileSync(path, 'utf8').replace('  return {};', body).replace("import type { Handlers }", "import { z } from './z.js';\nimport type { Handlers }") +
      '\nfunction helper(): number {\n  return 1;\n}\n';
    writeFileSync(path, edited);

    const model = fixtureModel();
    const updateStream = model.operations.find((op) => op.id === 'update-stream')!;
    updateStream.parameters.push(param('is_private', bool()));
    const merged = output(await runTarget(model, dir), 'server/handlers/update-stream.ts');

    const added = ' * - `is_private` (boolean, body, optional)\n';
    const anchor = ' * - `folder_id` (integer | null, body, optional, JSON-encoded)\n';
    expect(merged).toBe(edited.replace(anchor, anchor + added));
    expect(merged).toContain(body);
  });

  it('restores a changed type annotation and a removed Handlers import', async () => {
    const { dir, first } = await scaffolded(fixtureModel());
    const path = join(dir, 'server/handlers/get-message.ts');
    const original = output(first, 'server/handlers/get-message.ts');
    const edited = original
      .replace("import type { Handlers } from '../../generated/server.js';", "import { ApiError } from '../../generated/server.js';")
      .replace(": Handlers['getMessage'] =", ': any =');
    writeFileSync(path, edited);
    const merged = output(await runTarget(fixtureModel(), dir), 'server/handlers/get-message.ts');
    expect(merged).toBe(
      original.replace("import type { Handlers } from '../../generated/server.js';", "import { ApiError, type Handlers } from '../../generated/server.js';"),
    );
  });

  it('reports, and leaves alone, a handler file without its export', async () => {
    const { dir } = await scaffolded(fixtureModel());
    const path = join(dir, 'server/handlers/get-own-user.ts');
    const replaced = 'export async function getOwnUser() {\n  return {};\n}\n';
    writeFileSync(path, replaced);
    const again = await runTarget(fixtureModel(), dir);
    expect(output(again, 'server/handlers/get-own-user.ts')).toBe(replaced);
    expect(again.reports).toEqual([
      'server/handlers/get-own-user.ts: no `export const getOwnUser`, so its signature cannot be kept in step with the spec',
    ]);
  });

  it('reports a handler whose operation left the spec, without deleting or rewriting it', async () => {
    const { dir } = await scaffolded(fixtureModel());
    const model = fixtureModel();
    model.operations = model.operations.filter((op) => op.id !== 'remove-reaction');
    const again = await runTarget(model, dir);
    expect(again.reports).toEqual([
      'server/handlers/remove-reaction.ts: its operation is no longer in the spec; the file is kept, delete it by hand',
    ]);
    expect(again.outputs.map((file) => file.path)).not.toContain('server/handlers/remove-reaction.ts');
    expect(output(again, 'generated/handlers.ts')).not.toContain('removeReaction');
  });
});
