/**
 * What a browser app that calls one operation ships: a small app per client,
 * bundled with esbuild `--bundle --minify --splitting --format=esm` (code
 * splitting at dynamic imports, as Vite and Rollup do by default), measured
 * as its entry chunk and as the total over every chunk.
 *
 * Ours: `connect` plus one operation function, with and without
 * `validateResponses: true` (whose checks arrive through a dynamic import).
 * hey-api: its fetch client configured once plus the SDK function. orval: its
 * fetch function.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildModel } from '../generator/model/build.js';
import { loadSpec } from '../generator/load/index.js';
import type { Outputs } from './outputs.js';

export interface AppBundleRow {
  app: string;
  /** The chunk the page loads first. */
  entryBytes: number;
  entryGzipBytes: number;
  /** The entry chunk and the chunks it imports statically: what runs before the first call. */
  eagerBytes: number;
  /** Every chunk, lazy ones included. */
  totalBytes: number;
  chunks: number;
}

/** The app sources, relative to the scratch project; `OP` is the operation's camelCase name, `ARGS` its parameters. */
const APPS: Record<string, (op: string, args: string, file: string) => string> = {
  'ours: connect + one operation': (op, args, file) => `import { connect } from '../generated/client/connect.js';
import { ${op} } from '../generated/client/operations/${file}.js';
const connection = connect({ baseUrl: location.origin, email: 'member@example.com', apiKey: 'key' });
${op}(connection, ${args}).then((result) => console.log(result));
`,
  'ours: the same, validateResponses: true': (op, args, file) => `import { connect } from '../generated/client/connect.js';
import { ${op} } from '../generated/client/operations/${file}.js';
const connection = connect({ baseUrl: location.origin, email: 'member@example.com', apiKey: 'key', validateResponses: true });
${op}(connection, ${args}).then((result) => console.log(result));
`,
  'ours: both from client.ts, validateResponses: true': (op, args) => `import { connect, ${op} } from '../generated/client.js';
const connection = connect({ baseUrl: location.origin, email: 'member@example.com', apiKey: 'key', validateResponses: true });
${op}(connection, ${args}).then((result) => console.log(result));
`,
  'hey-api: client config + one SDK function': (op, args) => `import { client } from '../peers/hey-api/client.gen.js';
import { ${op} } from '../peers/hey-api/sdk.gen.js';
client.setConfig({ baseUrl: location.origin + '/api/v1', auth: () => 'member@example.com:key' });
${op}(${heyArgs(args)}).then((result) => console.log(result.data));
`,
  'orval: one fetch function': (op, args) => `import { ${op} } from '../peers/orval/client.js';
${op}(${orvalArgs(args)}).then((result) => console.log(result));
`,
};

/** Every app, in table order. */
export const APP_NAMES = Object.keys(APPS);

/** `{ message_id: 1 }` as hey-api's options (`{ path: { message_id: 1 } }`); the bench case has one path parameter. */
function heyArgs(args: string): string {
  return `{ path: ${args} }`;
}

function orvalArgs(args: string): string {
  return Object.values(JSON.parse(args.replace(/(\w+):/g, '"$1":')) as Record<string, unknown>).map(String).join(', ');
}

/** The operation an app calls: its function name (ours, hey-api's and orval's alike), our module's file name, and its arguments. */
export interface BundledOperation {
  id: string;
  camel: string;
  file: string;
  /** Every path parameter, `1` or `"1"` by its type: `{ message_id: 1 }`. */
  args: string;
}

/**
 * The operation `operationId` of the scratch project's document, as the apps
 * call it; an error naming the document when it has no such operation.
 */
export async function bundledOperation(outputs: Outputs, operationId: string, documentLabel: string): Promise<BundledOperation> {
  const model = buildModel(await loadSpec(outputs.project.spec, outputs.project.dir));
  const operation = model.operations.find((o) => o.id === operationId);
  if (operation === undefined) throw new Error(`bench: ${documentLabel} has no operation ${operationId}; name one with --bundle-operation`);
  const args = operation.parameters
    .filter((p) => p.location === 'path')
    .map((p) => {
      const schema = p.schema.kind === 'ref' ? model.schemas.find((s) => s.name === (p.schema as { name: string }).name)?.schema : p.schema;
      return `${p.key ?? p.name}: ${schema?.kind === 'integer' || schema?.kind === 'number' ? '1' : '"1"'}`;
    });
  return { id: operation.id, camel: operation.names.camel, file: operation.names.file, args: `{ ${args.join(', ')} }` };
}

export async function appBundles(outputs: Outputs, operation: Pick<BundledOperation, 'camel' | 'args' | 'file'> = { camel: 'getMessage', args: '{ message_id: 1 }', file: 'get-message' }, apps = Object.keys(APPS)): Promise<AppBundleRow[]> {
  const { camel: op, args, file } = operation;
  const esbuild = await import('esbuild');
  const rows: AppBundleRow[] = [];
  for (const app of apps) {
    const source = APPS[app]!;
    const path = outputs.path(`apps/${app.replace(/[^a-z0-9]+/gi, '-')}.ts`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, source(op, args, file));
    const result = await esbuild.build({
      entryPoints: { entry: path },
      metafile: true,
      outdir: outputs.path('bundle-app'),
      bundle: true,
      splitting: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const entry = result.outputFiles.find((f) => f.path.endsWith('/entry.js'))!;
    rows.push({
      app,
      entryBytes: entry.contents.byteLength,
      entryGzipBytes: gzipSync(entry.contents, { level: 9 }).byteLength,
      eagerBytes: eagerBytes(result.metafile!),
      totalBytes: result.outputFiles.reduce((n, f) => n + f.contents.byteLength, 0),
      chunks: result.outputFiles.length,
    });
  }
  return rows;
}

/** The entry chunk plus every chunk reached from it through static imports. */
function eagerBytes(metafile: { outputs: Record<string, { bytes: number; imports: { path: string; kind: string }[] }> }): number {
  const seen = new Set<string>();
  const visit = (path: string): number => {
    if (seen.has(path)) return 0;
    seen.add(path);
    const output = metafile.outputs[path]!;
    return output.bytes + output.imports.filter((i) => i.kind === 'import-statement').reduce((n, i) => n + visit(i.path), 0);
  };
  return visit(Object.keys(metafile.outputs).find((path) => path.endsWith('/entry.js'))!);
}
