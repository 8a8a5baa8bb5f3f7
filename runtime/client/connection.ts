/**
 * A connection (`connect(options)`: base URL, credentials, fetch, limits; no
 * operation) and a call of one operation on it. Optional behaviour arrives as
 * values the caller imports (`retry: retrying(...)`, `levels:
 * featureLevels(...)`), so a bundle without them carries none of their code.
 */
import { readAnswer, declaredFor, type Validate } from './answers.js';
import { applySecurity } from './credentials.js';
import { exchange, type Answer, type RedirectPolicy } from './exchange.js';
import type { FeatureLevels } from './levels.js';
import { buildRequest } from './request.js';
import type { Retrier } from './retry.js';
import type { ApiResponse, ConventionsSpec, Credential, OperationSpec, RequestOptions } from './types.js';

/** Options every generated `connect` takes; the generated `ConnectOptions` adds `auth` (credentials per security scheme). */
export interface BaseConnectOptions {
  /** Server root, e.g. `http://127.0.0.1:9991`; the client appends the API's base path. */
  baseUrl: string;
  /** Defaults to `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Check every response body against the spec; `'strict'` also reports fields the spec does not list. */
  validateResponses?: boolean | 'strict';
  /** Abort a call, reading its body and any retries included, after this many milliseconds. */
  timeoutMs?: number;
  /** Retry throttled, unavailable and unreachable answers: `retrying({ attempts: 4 })` (off by default). */
  retry?: Retrier;
  /** Headers sent with every request (a call's own `headers` and parameters take precedence). */
  headers?: Record<string, string>;
  /**
   * Whether an operation the document sends to its own server goes there
   * (default true). `false`: every operation goes to `baseUrl` plus its base
   * path, e.g. to a local mock that serves them all.
   */
  operationServers?: boolean;
  /**
   * What to do when the server answers an undocumented redirect to another
   * origin (scheme, host or port). `'refuse'` (the default): the call fails
   * with a `TransportError` of kind `redirect`. `'follow-without-credentials'`:
   * the redirect is followed with no credential of any security scheme (the
   * `Authorization` and `Cookie` headers, API-key headers, API-key query
   * parameters), on that hop and every later one. Same-origin redirects are
   * always followed, credentials included; a redirect the operation documents
   * is never followed: it is the call's answer (docs/decisions/0023-redirects.md).
   */
  crossOriginRedirects?: 'refuse' | 'follow-without-credentials';
}

/** What the runtime receives: the generated options, credentials keyed by scheme name. */
export interface ConnectInput extends BaseConnectOptions {
  auth?: { readonly [scheme: string]: Credential | undefined };
  /** Shorthand of the document's Basic scheme (our own API: the user's email address). */
  email?: string;
  /** Shorthand of the document's Basic scheme (our own API: the API key). */
  apiKey?: string;
  /** Feature levels (documents that name them): `featureLevels(400)` or `featureLevels('server')`. */
  levels?: FeatureLevels;
}

/** What the generated `client.ts` knows of the whole document. */
export interface DocumentSpec {
  /** Path prefix of every operation (e.g. `/api/v1`). */
  readonly basePath: string;
  /** The scheme `email`/`apiKey` fill, for documents following our conventions. */
  readonly basicShorthand?: string;
  readonly conventions: ConventionsSpec;
  /** Lower-cased names of the headers API-key schemes use, removed on a redirect to another origin. */
  readonly credentialHeaders: readonly string[];
  /** Names of the query parameters API-key schemes use, removed likewise. */
  readonly credentialQuery: readonly string[];
  /** False when the client was generated without validators: no operation has response checks. */
  readonly responseChecks?: false;
}

/** An open connection: what every operation function takes first. */
export interface Connection {
  readonly root: string;
  readonly document: DocumentSpec;
  readonly options: ConnectInput;
  readonly credentials: { readonly [scheme: string]: Credential | undefined };
}

/** The headers that always carry credentials, besides the document's API-key headers. */
const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie'];

export function openConnection(options: ConnectInput, document: DocumentSpec): Connection {
  if (document.responseChecks === false && (options.validateResponses ?? false) !== false) {
    throw new Error('validateResponses: this client was generated without the validators target, so it has no response checks; generate that target too, or leave validateResponses off');
  }
  const credentials: { [scheme: string]: Credential | undefined } = { ...options.auth };
  if (document.basicShorthand !== undefined && options.email !== undefined && options.apiKey !== undefined) {
    credentials[document.basicShorthand] ??= { username: options.email, password: options.apiKey };
  }
  return { root: options.baseUrl.replace(/\/+$/, ''), document, options, credentials };
}

/** Calls an operation; resolves to its success body (a documented redirect: the whole answer). */
export async function call(connection: Connection, spec: OperationSpec, params: object | undefined, options: RequestOptions | undefined): Promise<unknown> {
  const answer = await send(connection, spec, params, options);
  return spec.answer === true ? answer : answer.body;
}

/** Calls an operation; resolves to the status, headers and body of its success answer. */
export async function send(connection: Connection, spec: OperationSpec, params: object | undefined, requestOptions: RequestOptions | undefined): Promise<ApiResponse> {
  const { document, options } = connection;
  const values = (params ?? {}) as Record<string, unknown>;
  options.levels?.check(spec, values);
  const built = buildRequest(spec, values, requestOptions?.contentType);
  await applySecurity(spec.security, connection.credentials, built);
  const headers: Record<string, string> = { ...options.headers, ...requestOptions?.headers, ...built.headers };
  if (built.cookies.length > 0) headers['Cookie'] = [headers['Cookie'], ...built.cookies].filter((c) => c !== undefined && c !== '').join('; ');
  const query = built.query.join('&');
  const prefix = spec.server !== undefined && options.operationServers !== false ? spec.server.replace(/\/+$/, '') : connection.root + (spec.basePath ?? document.basePath);
  const url = prefix + built.path + (query === '' ? '' : `?${query}`);
  const request: RequestInit = { method: spec.method, headers };
  if (built.body !== undefined) request.body = built.body;
  const redirects: RedirectPolicy = {
    documented: (status) => status >= 300 && status <= 399 && declaredFor(spec, status) !== undefined,
    crossOrigin: options.crossOriginRedirects ?? 'refuse',
    headers: [...CREDENTIAL_HEADERS, ...document.credentialHeaders],
    query: document.credentialQuery,
  };
  const signal = requestOptions?.signal;
  const attempt = (timeLeft: number | undefined): Promise<Answer> => exchange(spec.name, options.fetch ?? globalThis.fetch, url, request, timeLeft, options.timeoutMs, signal, redirects);
  const answer = options.retry === undefined ? await attempt(options.timeoutMs) : await options.retry(spec.name, spec.method, attempt, options.timeoutMs, signal);
  options.levels?.learn(answer.headers);
  return readAnswer(spec, answer, document.conventions, validation(connection, spec, answer));
}

/** The response check of a call, when `validateResponses` is on: the operation's checks, imported on first use. */
function validation(connection: Connection, spec: OperationSpec, answer: Answer): Validate | undefined {
  const mode = connection.options.validateResponses ?? false;
  const load = spec.checks;
  if (mode === false || load === undefined || spec.method === 'HEAD') return undefined;
  return async (status, body, failed) => {
    const checks = await load();
    checks.check({ status, headers: answer.headers, body, failed }, { strict: mode === 'strict', level: connection.options.levels?.level() });
  };
}

/** The key under which a client made by {@link bindClient} keeps its connection. */
const CONNECTION = /* @__PURE__ */ Symbol('connection');

/** An operation function of the generated `client.ts`. */
export type OperationFunction = (connection: Connection, params: never, options?: RequestOptions) => Promise<unknown>;

/**
 * The client object of `createClient`: one method per operation function,
 * bound to the connection, and under `withResponseKey` the same operations
 * resolving to status, headers and body, not enumerable so that the client's
 * own keys are its operations.
 */
export function bindClient<C extends object>(
  connection: Connection,
  functions: { readonly [name: string]: OperationFunction },
  specs: { readonly [name: string]: OperationSpec },
  withResponseKey = 'withResponse',
): C {
  const client: Record<string, unknown> = {};
  const full: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(functions)) {
    client[name] = (params: never, options?: RequestOptions) => operation(connection, params, options);
    full[name] = (params: object | undefined, options?: RequestOptions) => send(connection, specs[name]!, params, options);
  }
  Object.defineProperty(client, withResponseKey, { value: full, enumerable: false });
  Object.defineProperty(client, CONNECTION, { value: connection, enumerable: false });
  return client as C;
}

/** The feature level a client or connection works with: the one it was given, or the one it learned from the server. */
export function featureLevelOf(clientOrConnection: object): number | undefined {
  const connection = ((clientOrConnection as { [CONNECTION]?: Connection })[CONNECTION] ?? clientOrConnection) as Partial<Connection>;
  return connection.options?.levels?.level();
}
