/**
 * The generated clients side by side: cost per call with an injected fetch
 * that answers at once with the operation's canned success body (so a call
 * is: encode the request, "send", parse the JSON body), and the size of each
 * client bundled and minified with esbuild, raw and gzipped.
 *
 * Ours: `createClient({ fetch })`. hey-api: its fetch client with `fetch`
 * and `auth` in the config, called through the SDK functions. orval: its
 * functions call the global fetch, which is swapped for the canned one for
 * the duration; credentials go in each call's RequestInit headers.
 */
import { gzipSync } from 'node:zlib';
import type { ApiModel, Operation, ParameterLocation } from '../generator/model/types.js';
import type { Outputs } from './outputs.js';
import { compareRounds } from './stats.js';

const PEERS = ['hey-api', 'orval'];
const CASES = ['getOwnUser', 'getMessage', 'updateMessageFlagsForNarrow'];
const BASE = 'http://127.0.0.1:9991';
const EMAIL = 'member@example.com';
const API_KEY = 'a'.repeat(32);

type Call = () => Promise<unknown>;

/** The request as it reached fetch, normalised for comparing clients. */
interface WireRequest {
  method: string;
  path: string;
  /** Query and form fields, sorted. */
  fields: [string, string][];
  authorized: boolean;
}

export interface ClientRow {
  name: string;
  opsPerSec: Record<string, number>;
  ratioVsOurs: Record<string, number>;
  /** Per client: differences from our request on the wire (empty: the same request). */
  wireDifferences: Record<string, string[]>;
}

export interface BundleRow {
  client: string;
  /** What importing the client loads. */
  minifiedBytes: number;
  gzipBytes: number;
  /** Code split off behind a dynamic import (ours: the response validators, loaded only with `validateResponses`). */
  lazyMinifiedBytes: number;
  lazyGzipBytes: number;
}

function largestExample<T extends { value: unknown }>(examples: T[]): T | undefined {
  return [...examples].sort((a, b) => JSON.stringify(b.value).length - JSON.stringify(a.value).length)[0];
}

async function toWire(input: RequestInfo | URL, init?: RequestInit): Promise<WireRequest> {
  const request = input instanceof Request ? input : new Request(input, init);
  const url = new URL(request.url);
  const fields: [string, string][] = [...url.searchParams.entries()];
  const text = await request.text();
  if (text !== '') fields.push(...new URLSearchParams(text).entries());
  return { method: request.method, path: url.pathname, fields: fields.sort(), authorized: request.headers.get('authorization')?.startsWith('Basic ') ?? false };
}

function differences(ours: WireRequest, theirs: WireRequest): string[] {
  const found: string[] = [];
  if (ours.method !== theirs.method) found.push(`method ${theirs.method}`);
  if (ours.path !== theirs.path) found.push(`path ${theirs.path}`);
  if (ours.authorized !== theirs.authorized) found.push('no Basic auth');
  const text = (fields: [string, string][]) => new Map<string, string>(fields.map(([k, v]) => [k, v]));
  const mine = text(ours.fields);
  const other = text(theirs.fields);
  for (const [name, value] of mine) if (other.get(name) !== value) found.push(`${name}=${other.get(name) ?? '(missing)'}`);
  for (const name of other.keys()) if (!mine.has(name)) found.push(`extra ${name}`);
  return found;
}

/** Example values split by where the operation takes them. */
function splitExample(operation: Operation): Record<ParameterLocation, Record<string, unknown>> & { all: Record<string, unknown> } {
  const all = (largestExample(operation.requestExamples)?.value ?? {}) as Record<string, unknown>;
  const split: Record<ParameterLocation, Record<string, unknown>> & { all: Record<string, unknown> } = { path: {}, query: {}, header: {}, cookie: {}, body: {}, all };
  for (const parameter of operation.parameters) {
    if (all[parameter.name] !== undefined) split[parameter.location][parameter.name] = all[parameter.name];
  }
  return split;
}

type Fn = (...args: unknown[]) => Promise<unknown>;

export async function benchClients(model: ApiModel, outputs: Outputs, options: { rounds: number; msPerRound: number }): Promise<ClientRow[]> {
  const ours = await outputs.import<{ createClient: (options: Record<string, unknown>) => Record<string, Fn> }>('generated/client.ts');
  const heySdk = await outputs.import<Record<string, Fn>>('peers/hey-api/sdk.gen.ts');
  const heyFetch = await outputs.import<{ createClient: (config: Record<string, unknown>) => unknown }>('peers/hey-api/client/index.ts');
  const orval = await outputs.import<Record<string, Fn>>('peers/orval/client.ts');

  let cannedBody = '{}';
  let captured: WireRequest[] = [];
  let capture = false;
  const cannedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (capture) captured.push(await toWire(input, init));
    return new Response(cannedBody, { status: 200, headers: { 'content-type': 'application/json' } });
  };

  const oursClient = ours.createClient({ baseUrl: BASE, email: EMAIL, apiKey: API_KEY, fetch: cannedFetch });
  const heyClient = heyFetch.createClient({ baseUrl: `${BASE}${model.basePath}`, fetch: cannedFetch, auth: () => `${EMAIL}:${API_KEY}` });
  const authorization = `Basic ${Buffer.from(`${EMAIL}:${API_KEY}`).toString('base64')}`;

  const realFetch = globalThis.fetch;
  globalThis.fetch = cannedFetch as typeof fetch;
  const rows: ClientRow[] = [];
  try {
    for (const camel of CASES) {
      const operation = model.operations.find((o) => o.names.camel === camel);
      if (operation === undefined) throw new Error(`no operation ${camel} in the spec`);
      cannedBody = JSON.stringify(largestExample(operation.success.examples)?.value ?? { result: 'success', msg: '' });
      const values = splitExample(operation);
      const hasQuery = operation.parameters.some((p) => p.location === 'query');
      const hasBody = operation.parameters.some((p) => p.location === 'body');
      const pathArgs = operation.parameters.filter((p) => p.location === 'path').map((p) => values.path[p.name]);
      const heyOptions: Record<string, unknown> = { client: heyClient, throwOnError: true };
      if (pathArgs.length > 0) heyOptions.path = values.path;
      if (hasQuery) heyOptions.query = values.query;
      if (hasBody) heyOptions.body = values.body;
      const orvalArgs = [...pathArgs, ...(hasBody ? [values.body] : hasQuery ? [values.query] : []), { headers: { authorization } }];

      const bareInit = { method: operation.method.toUpperCase(), headers: { authorization } };
      const calls: Record<string, Call> = {
        // The floor every client pays: the canned fetch and reading its JSON body.
        'fetch + JSON only': async () => (await cannedFetch(`${BASE}${model.basePath}${operation.path}`, bareInit)).json(),
        ours: () => oursClient[camel]!(values.all),
        'hey-api': () => heySdk[camel]!(heyOptions),
        orval: () => orval[camel]!(...orvalArgs),
      };
      // One captured call each: what every client actually sent, and that it read the canned body.
      const wire: Record<string, WireRequest> = {};
      capture = true;
      for (const name of ['ours', ...PEERS]) {
        const call = calls[name]!;
        captured = [];
        await call();
        wire[name] = captured[0]!;
      }
      capture = false;
      const wireDifferences = Object.fromEntries(PEERS.map((n) => [n, differences(wire.ours!, wire[n]!)]));
      const timed = Object.fromEntries(Object.entries(calls).map(([name, call]) => [name, async () => (await call()) === undefined ? 0 : 1]));
      const compared = await compareRounds(timed, { ...options, ours: 'ours' });
      rows.push({ name: `${operation.method.toUpperCase()} ${operation.path} (${operation.id})`, ...compared, wireDifferences });
    }
  } finally {
    globalThis.fetch = realFetch;
  }
  return rows;
}

/**
 * Each client with every operation, bundled and minified for the browser with
 * code splitting, so code behind a dynamic import is counted apart. The
 * peers' zod schemas are not part of their clients.
 */
export async function bundleSizes(outputs: Outputs): Promise<BundleRow[]> {
  const esbuild = await import('esbuild');
  const entries: Record<string, string> = {
    ours: 'generated/client.ts',
    'hey-api': 'peers/hey-api/index.ts',
    orval: 'peers/orval/client.ts',
  };
  const rows: BundleRow[] = [];
  for (const [client, entry] of Object.entries(entries)) {
    const result = await esbuild.build({
      entryPoints: { entry: outputs.path(entry) },
      outdir: outputs.path('bundle'),
      bundle: true,
      splitting: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const sizes = (files: typeof result.outputFiles) => ({
      raw: files.reduce((n, f) => n + f.contents.byteLength, 0),
      gzip: files.reduce((n, f) => n + gzipSync(f.contents, { level: 9 }).byteLength, 0),
    });
    const eager = sizes(result.outputFiles.filter((f) => f.path.endsWith('/entry.js')));
    const lazy = sizes(result.outputFiles.filter((f) => !f.path.endsWith('/entry.js')));
    rows.push({ client, minifiedBytes: eager.raw, gzipBytes: eager.gzip, lazyMinifiedBytes: lazy.raw, lazyGzipBytes: lazy.gzip });
  }
  return rows;
}
