/**
 * The query target as the pipeline runs it: off unless named (and a target
 * reading its files gets none then), obsolete once a run leaves it out,
 * and, in a bundle, as tree-shakable as the client it builds on.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, produce } from '../../../../generator/cli/pipeline.js';
import { resolveGenerateConfig } from '../../../../generator/config.js';
import { target as client } from '../../../../generator/targets/client/index.js';
import { target as query } from '../../../../generator/targets/query/index.js';
import type { OutputFile, Target } from '../../../../generator/targets/types.js';
import { target as types } from '../../../../generator/targets/types/index.js';
import { target as validators } from '../../../../generator/targets/validators/index.js';
import { config, FIXTURES, fixtureModel, tempProject } from '../../../support/generator.js';
import { typeCheck } from '../../../support/type-check.js';
import { repoRoot } from '../../../support/process.js';

const project = tempProject('basic');
afterAll(() => project.dispose());

/** A target that reads the query target's files, as the client package does. */
const reader: Target = {
  name: 'reader',
  description: 'reads query',
  dependsOn: ['query'],
  async generate(ctx): Promise<OutputFile[]> {
    const files = await ctx.filesOf('query');
    return [{ path: `${ctx.outDir}/reader.txt`, contents: files.map((file) => file.path).join('\n'), ownership: 'generated' }];
  },
};
const available = [types, client, query, reader];
const names = available.map((t) => t.name);

describe('the query target is off unless named', () => {
  it('is left out of a run whose targets nobody chose, and gives a reader no files', async () => {
    const produced = await produce(config(project.root, {}, names), available);
    expect(produced.targets.map(({ target }) => target.name)).toEqual(['types', 'client', 'reader']);
    expect(produced.targets.find(({ target }) => target.name === 'reader')!.files[0]!.contents).toBe('');
    expect(produced.reports.filter((report) => report.includes('query'))).toEqual([]);
  });

  it('runs when --only names it, and then a reader gets its files', async () => {
    const produced = await produce(config(project.root, { only: 'query,reader' }, names), available);
    expect(produced.targets.map(({ target }) => target.name)).toEqual(['query', 'reader']);
    const paths = produced.targets[0]!.files.map((file) => file.path);
    expect(paths[0]).toBe('generated/query.ts');
    const runtime = paths.filter((path) => path.startsWith('generated/query-runtime/'));
    expect(runtime).toContain('generated/query-runtime/index.ts');
    expect(paths.slice(-runtime.length)).toEqual(runtime);
    expect(paths.slice(1, -runtime.length).every((path) => /^generated\/query\/[a-z0-9-]+\.ts$/.test(path))).toBe(true);
    expect(produced.targets[1]!.files[0]!.contents).toBe(paths.join('\n'));
  });

  it('runs when the config names it in `targets`, also for a reader that --only picks alone', async () => {
    const fromFile = (only?: string) =>
      resolveGenerateConfig({ spec: 'spec/openapi.yaml', ...(only !== undefined && { only }) }, project.root, names, { targets: ['types', 'client', 'query', 'reader'] });
    const produced = await produce(fromFile(), available);
    expect(produced.targets.map(({ target }) => target.name)).toEqual(['types', 'client', 'query', 'reader']);
    const readerAlone = await produce(fromFile('reader'), available);
    expect(readerAlone.targets.map(({ target }) => target.name)).toEqual(['reader']);
    expect(readerAlone.targets[0]!.files[0]!.contents).toMatch(/^generated\/query\.ts\n/);
  });

  it('leaves the files of a run that named it to be removed by a run that does not', async () => {
    await generate(config(project.root, { only: 'types,client,query' }, names), available);
    expect(existsSync(join(project.root, 'generated/query.ts'))).toBe(true);
    const plain = await generate(config(project.root, {}, names), available);
    const obsolete = plain.obsolete.map((file) => file.path);
    expect(obsolete).toContain('generated/query.ts');
    expect(obsolete).toContain('generated/query-runtime/index.ts');
    expect(obsolete.every((path) => path.startsWith('generated/query'))).toBe(true);
    expect(existsSync(join(project.root, 'generated/query.ts'))).toBe(false);
  });
});

describe('query options for other documents', () => {
  // Inside the repository (test/artifacts/ is ignored), so `@tanstack/query-core` resolves from the generated files.
  const artifacts = join(repoRoot, 'test/artifacts');
  mkdirSync(artifacts, { recursive: true });
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it.each(['hostile', 'openapi30'])('type-check for the %s fixture, with every read a query and every write a mutation', async (fixture) => {
    const root = mkdtempSync(join(artifacts, `query-${fixture}-`));
    roots.push(root);
    cpSync(join(FIXTURES, fixture), join(root, 'spec'), { recursive: true });
    writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
    const all = [types, validators, client, query];
    const result = await generate(config(root, { only: 'types,validators,client,query' }, all.map((t) => t.name)), all);
    expect(result.targets.map((t) => t.name)).toEqual(['types', 'validators', 'client', 'query']);
    const generated = join(root, 'generated');
    expect(typeCheck([join(generated, 'query.ts')], { exactOptionalPropertyTypes: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] }, generated)).toEqual([]);
    const model = await fixtureModel(fixture);
    const source = readFileSync(join(generated, 'query.ts'), 'utf8');
    const reads = model.operations.filter((operation) => ['get', 'head', 'options', 'trace'].includes(operation.method));
    expect(source.match(/\w+QueryOptions, type \w+ \} from/g)?.length ?? 0).toBe(reads.length);
    expect(source.match(/^export \{ \w+MutationOptions \} from/gm)?.length ?? 0).toBe(model.operations.length - reads.length);
  });
});

describe('query options in a bundle', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'teamchat-query-bundle-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /**
   * esbuild `--bundle --minify --splitting --format=esm` over an app: the
   * entry chunk's text; the bytes of it and the chunks it imports statically
   * (what loads before the first call); the bytes and number of all chunks.
   */
  async function bundle(name: string, source: string): Promise<{ entry: string; eager: number; total: number; chunks: number }> {
    const esbuild = await import('esbuild');
    const path = join(scratch, `${name}.ts`);
    writeFileSync(path, source.replaceAll('GENERATED', join(repoRoot, 'generated')));
    const result = await esbuild.build({
      entryPoints: { [name]: path },
      outdir: join(scratch, 'out'),
      bundle: true,
      splitting: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const entry = result.outputFiles.find((file) => file.path.endsWith(`/${name}.js`))!;
    const outputs = result.metafile!.outputs;
    const seen = new Set<string>();
    const eager = (path: string): number => {
      if (seen.has(path)) return 0;
      seen.add(path);
      const output = outputs[path]!;
      return output.bytes + output.imports.filter((i) => i.kind === 'import-statement').reduce((sum, i) => sum + eager(i.path), 0);
    };
    return {
      entry: entry.text,
      eager: eager(Object.keys(outputs).find((path) => path.endsWith(`/${name}.js`))!),
      total: result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0),
      chunks: result.outputFiles.length,
    };
  }

  const connect = `import { connect } from 'GENERATED/client/connect.js';\nconst connection = connect({ baseUrl: location.origin, email: 'a@example.com', apiKey: 'k' });\n`;
  const others = () =>
    readFileSync(join(repoRoot, 'generated/query.ts'), 'utf8')
      .match(/(?<=from '\.\/query\/)[a-z0-9-]+(?=\.js')/g)!
      .filter((file) => file !== 'get-message');

  it('carries one operation when the app imports one operation’s query options from query.ts', async () => {
    const viaQuery = await bundle('query', `${connect}import { getMessageQueryOptions } from 'GENERATED/query.js';\nconsole.log(getMessageQueryOptions(connection, { message_id: 1 }));\n`);
    const direct = await bundle('direct', `${connect}import { getMessage } from 'GENERATED/client/operations/get-message.js';\nconsole.log(getMessage(connection, { message_id: 1 }));\n`);
    expect(viaQuery.entry).toContain('/messages/{message_id}');
    expect(viaQuery.entry).toContain('get-message');
    expect(others().length).toBeGreaterThan(10);
    for (const id of others()) expect(viaQuery.entry, id).not.toContain(`"${id}"`);
    for (const path of ['/users/me/status', '/messages/{message_id}/history', '/invites']) expect(viaQuery.entry).not.toContain(path);
    // The options add little over the operation function itself: a key, a query function, the signal
    // (joined with the caller's by AbortSignal.any, or by listeners where a platform lacks it: about 200 bytes).
    expect(viaQuery.entry.length - direct.entry.length).toBeLessThan(750);
    expect(viaQuery.eager - direct.eager).toBeLessThan(750);
  });

  it('emits no other operation’s chunks when the app imports the operation’s own query module', async () => {
    const own = await bundle('own', `${connect}import { getMessageQueryOptions } from 'GENERATED/query/get-message.js';\nconsole.log(getMessageQueryOptions(connection, { message_id: 1 }));\n`);
    const direct = await bundle('direct', `${connect}import { getMessage } from 'GENERATED/client/operations/get-message.js';\nconsole.log(getMessage(connection, { message_id: 1 }));\n`);
    // The same chunks as the client function alone: the entry and that operation's lazy checks.
    expect(own.chunks).toBe(direct.chunks);
    expect(own.total - direct.total).toBeLessThan(750);
  });
});
