/**
 * The generated client's runtime: request building, the fetch exchange,
 * errors and response validation. The generated `client.ts` gives it the
 * API's shape (the operation table, typed methods) and types its errors by
 * augmenting {@link ClientTypes}. No dependencies: it runs in browsers and Node.
 */

/**
 * Types the generated `client.ts` supplies through module augmentation:
 * `declare module './client-runtime.js' { interface ClientTypes { errorBody: ErrorBody } }`.
 */
export interface ClientTypes {}

/** Every error body the API defines (the union of its error schemas). */
export type KnownErrorBody = ClientTypes extends { errorBody: infer B } ? B : UnknownErrorBody;

/** Every error code the API defines. */
export type KnownErrorCode = KnownErrorBody extends { code: infer C extends string } ? C : string;

/** A file to upload: its bytes, name and media type. */
export interface UploadFile {
  filename: string;
  contentType?: string;
  data: Blob | Uint8Array;
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Server root, e.g. `http://127.0.0.1:9991`; the client appends the API's base path. */
  baseUrl: string;
  /** Username of HTTP Basic auth: the user's or bot's email address. */
  email: string;
  /** Password of HTTP Basic auth: the API key. */
  apiKey: string;
  /**
   * The server's feature level: operations and parameters newer than it are
   * refused before anything is sent, and response fields newer than it may be
   * absent. `'server'`: learn it from the `X-Feature-Level` header of every
   * answer (nothing is refused before the first answer); see also
   * {@link detectFeatureLevel}.
   */
  featureLevel?: number | 'server';
  /** Defaults to `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Check every response body against the spec; `'strict'` also reports fields the spec does not list. */
  validateResponses?: boolean | 'strict';
  /** Abort a call, reading its body and any retries included, after this many milliseconds. */
  timeoutMs?: number;
  /** Retry throttled, unavailable and unreachable answers (off by default). */
  retry?: RetryOptions;
}

/**
 * Which answers are retried: 429 for every method; 502, 503, 504 and a
 * connection that failed before the request was sent only for idempotent
 * methods (GET, PUT, DELETE). A `Retry-After` header (seconds or an HTTP
 * date) sets the wait; otherwise the wait grows exponentially, with jitter.
 * Retries stop at `attempts`, at `timeoutMs`, when the caller's signal
 * aborts, or when the server asks for a wait longer than `maxDelayMs`; the
 * last answer (or failure) is then what the call returns.
 */
export interface RetryOptions {
  /** Sends at most, the first included (1: no retry). */
  attempts: number;
  /** Wait before the first retry, in milliseconds, doubling each retry (default 250). */
  baseDelayMs?: number;
  /** Longest wait, of the backoff and of a `Retry-After`, in milliseconds (default 30 000). */
  maxDelayMs?: number;
}

/** Per-call options, the second argument of every method. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** An error body whose code this client does not know (the server may be newer). */
export interface UnknownErrorBody {
  result: 'error';
  msg: string;
  code: string;
  [field: string]: unknown;
}

/** The body of an error with code `C`: the spec's schema for a known code, else {@link UnknownErrorBody}. */
export type ErrorBodyFor<C extends string> = string extends C
  ? KnownErrorBody | UnknownErrorBody
  : [Extract<KnownErrorBody, { code: C }>] extends [never]
    ? UnknownErrorBody
    : Extract<KnownErrorBody, { code: C }>;

type ReservedErrorKey = 'result' | 'msg' | 'code' | keyof ApiError;

/** An {@link ApiError} with a known code, carrying that code's extra fields on the error itself. */
export type ApiErrorOf<C extends KnownErrorCode> = ApiError<C> &
  Readonly<Omit<Extract<KnownErrorBody, { code: C }>, ReservedErrorKey>>;

/**
 * The server answered with an error envelope. Narrow it by code with
 * {@link isApiError} or {@link ApiError.is}: `if (isApiError(e, 'STREAM_DOES_NOT_EXIST')) e.stream_id`.
 */
export class ApiError<C extends string = string> extends Error {
  override readonly name = 'ApiError';
  readonly operation: string;
  readonly status: number;
  readonly code: C;
  readonly msg: string;
  /** The whole response body, including fields the spec does not list. */
  readonly body: ErrorBodyFor<C>;

  constructor(operation: string, status: number, body: ErrorBodyFor<C>) {
    super(`${operation} failed with ${body.code} (HTTP ${status}): ${body.msg}`);
    this.operation = operation;
    this.status = status;
    this.code = body.code as C;
    this.msg = body.msg;
    this.body = body;
    // The code's extra fields (e.g. `stream_id`) are readable on the error itself.
    for (const [key, value] of Object.entries(body)) {
      if (key !== 'result' && !(key in this)) Object.defineProperty(this, key, { value, enumerable: true });
    }
  }

  is<K extends KnownErrorCode>(code: K): this is ApiErrorOf<K> {
    return (this.code as string) === code;
  }
}

/** Whether `error` is an {@link ApiError}, optionally with the given code (which narrows its fields). */
export function isApiError(error: unknown): error is ApiError;
export function isApiError<K extends KnownErrorCode>(error: unknown, code: K): error is ApiErrorOf<K>;
export function isApiError(error: unknown, code?: string): boolean {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

export type TransportErrorKind = 'network' | 'timeout' | 'aborted' | 'invalid-body';

/** The request did not produce a usable answer: no response, a timeout, an abort, or a body that is not a JSON envelope. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly operation: string;
  readonly kind: TransportErrorKind;
  /** HTTP status, when a response arrived. */
  readonly status: number | undefined;
  /** The start of the response body, when it could not be used. */
  readonly bodyExcerpt: string | undefined;

  constructor(
    operation: string,
    kind: TransportErrorKind,
    detail: string,
    extra: { status?: number; bodyExcerpt?: string; cause?: unknown } = {},
  ) {
    super(`${operation}: ${detail}`, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.operation = operation;
    this.kind = kind;
    this.status = extra.status;
    this.bodyExcerpt = extra.bodyExcerpt;
  }
}

/** The operation, or a parameter passed to it, is newer than the `featureLevel` the client was given. Nothing was sent. */
export class UnsupportedFeatureError extends Error {
  override readonly name = 'UnsupportedFeatureError';
  readonly operation: string;
  /** The parameter that needs the newer level, when the operation itself is old enough. */
  readonly parameter: string | undefined;
  readonly requiredLevel: number;
  readonly serverLevel: number;

  constructor(operation: string, parameter: string | undefined, requiredLevel: number, serverLevel: number) {
    const what = parameter === undefined ? operation : `${operation}: parameter "${parameter}"`;
    super(`${what} needs feature level ${requiredLevel}, the server is at ${serverLevel}`);
    this.operation = operation;
    this.parameter = parameter;
    this.requiredLevel = requiredLevel;
    this.serverLevel = serverLevel;
  }
}

export interface ResponseIssue {
  path: string;
  message: string;
}

/** `validateResponses` is on and a response body does not match the spec. */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  readonly operation: string;
  readonly status: number;
  readonly issues: readonly ResponseIssue[];
  readonly body: unknown;

  constructor(operation: string, status: number, issues: readonly ResponseIssue[], body: unknown) {
    const listed = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    super(`${operation}: response (HTTP ${status}) does not match the spec: ${listed}`);
    this.operation = operation;
    this.status = status;
    this.issues = issues;
    this.body = body;
  }
}

export type ParamLocation = 'path' | 'query' | 'body';
export type ParamEncoding = 'plain' | 'json' | 'file';

export interface ParamSpec {
  /** Name on the wire, also the key in the parameters object. */
  readonly name: string;
  readonly in: ParamLocation;
  readonly encoding: ParamEncoding;
  readonly featureLevel?: number;
}

/** `[path, level]`: a response field (`linkifiers[].example_input`) and the newest feature level noted on it. */
export type LevelledPath = readonly [string, number];

export interface OperationSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'TRACE';
  /** Relative to the base path, with `{name}` placeholders. */
  readonly path: string;
  readonly auth: boolean;
  readonly body: 'none' | 'form' | 'multipart';
  readonly featureLevel?: number;
  readonly params: readonly ParamSpec[];
  /** Success-body fields a server below their level may leave out or send in an older shape. */
  readonly newerFields?: readonly LevelledPath[];
}

const BODY_EXCERPT_LENGTH = 200;

/** A response check of the generated validators. */
export type ResponseCheck = (body: unknown, options?: { strict?: boolean; allErrors?: boolean }) => ResponseIssue[];

/** What the client needs of the generated validators module, loaded only when `validateResponses` is on. */
export interface ResponseValidators {
  responseValidators: { readonly [operation: string]: ResponseCheck };
  validateErrorBody: ResponseCheck;
}

/** The API's shape, from the generated `client.ts`. */
export interface ClientDefinition<N extends string> {
  /** Path prefix of every operation (e.g. `/api/v1`). */
  basePath: string;
  operations: { readonly [K in N]: OperationSpec };
  /** Per error code, its extra fields newer than some level. */
  newerErrorFields?: { readonly [code: string]: readonly LevelledPath[] };
  loadValidators(): Promise<ResponseValidators>;
}

/** Sends operation `name` with its parameters; resolves to the success body. */
export type Send<N extends string> = (<T>(name: N, params: object | undefined, options: RequestOptions | undefined) => Promise<T>) & {
  /** The level the client works with: given, or learned from the server; undefined until known. */
  featureLevel(): number | undefined;
};

/** The header every answer of our server carries its feature level in. */
export const FEATURE_LEVEL_HEADER = 'x-feature-level';

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']);
const RETRY_STATUSES = new Set([502, 503, 504]);

export function createSender<N extends string>(definition: ClientDefinition<N>, options: ClientOptions): Send<N> {
  const root = options.baseUrl.replace(/\/+$/, '') + definition.basePath;
  const authorization = basicAuthorization(options.email, options.apiKey);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const validation = options.validateResponses ?? false;
  let validators: Promise<ResponseValidators> | undefined;
  let learned: number | undefined;
  const level = (): number | undefined => (typeof options.featureLevel === 'number' ? options.featureLevel : learned);

  const send = async <T>(name: N, params: object | undefined, requestOptions: RequestOptions | undefined): Promise<T> => {
    const spec: OperationSpec = definition.operations[name];
    const values = (params ?? {}) as Record<string, unknown>;
    checkFeatureLevel(name, spec, values, level());
    const init = buildRequest(name, spec, values, authorization);
    const url = root + init.path + (init.query ? `?${init.query}` : '');
    const { status, body, headers } = await exchangeWithRetries(name, fetchImpl, url, init.request, options, requestOptions?.signal);
    if (options.featureLevel === 'server') learned = reportedLevel(headers) ?? learned;

    if (validation !== false && spec.method !== 'HEAD') {
      validators ??= definition.loadValidators();
      const { responseValidators, validateErrorBody } = await validators;
      const failed = isErrorResponse(status, body);
      const check = failed ? validateErrorBody : responseValidators[name];
      const newer = failed ? definition.newerErrorFields?.[String(body['code'])] : spec.newerFields;
      const issues = withoutNewerFields(check === undefined ? [] : check(body, { strict: validation === 'strict', allErrors: true }), newer, level());
      if (issues.length > 0) throw new ResponseValidationError(name, status, issues, body);
    }
    if (isErrorResponse(status, body)) {
      if (typeof body.code !== 'string' || typeof body.msg !== 'string') {
        throw new TransportError(name, 'invalid-body', `HTTP ${status} without an error code`, {
          status,
          bodyExcerpt: JSON.stringify(body).slice(0, BODY_EXCERPT_LENGTH),
        });
      }
      throw new ApiError(name, status, body as UnknownErrorBody);
    }
    return body as T;
  };
  return Object.assign(send, { featureLevel: level });
}

const clientLevels = new WeakMap<object, () => number | undefined>();

/** Ties a client object to its sender, for {@link featureLevelOf}. */
export function bindClient<C extends object>(client: C, send: { featureLevel(): number | undefined }): C {
  clientLevels.set(client, () => send.featureLevel());
  return client;
}

/** The feature level a client works with: the one it was given, or the one it learned from the server (`featureLevel: 'server'`). */
export function featureLevelOf(client: object): number | undefined {
  return clientLevels.get(client)?.();
}

/** Options of {@link detectFeatureLevel}. */
export interface DetectOptions {
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Asks the server for its feature level: one unauthenticated `GET` of the
 * API's base path, whose answer (whatever its status) carries the level in
 * `X-Feature-Level`. Undefined when the server does not report one.
 */
export async function detectLevel(basePath: string, options: DetectOptions): Promise<number | undefined> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}${basePath}/`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const { headers } = await exchange('detectFeatureLevel', fetchImpl, url, { method: 'GET', headers: { Accept: 'application/json' } }, options.timeoutMs, options.timeoutMs, options.signal, false);
  return reportedLevel(headers);
}

function reportedLevel(headers: Headers): number | undefined {
  const value = headers.get(FEATURE_LEVEL_HEADER)?.trim();
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/**
 * Drops the issues a server below some fields' level explains: the field
 * missing, or in an older shape. Issues elsewhere stay.
 */
export function withoutNewerFields(issues: ResponseIssue[], newer: readonly LevelledPath[] | undefined, level: number | undefined): ResponseIssue[] {
  if (level === undefined || newer === undefined || issues.length === 0) return issues;
  const relaxed = newer.filter(([, at]) => at > level).map(([path]) => path);
  if (relaxed.length === 0) return issues;
  return issues.filter((issue) => {
    const path = fieldPath(issue.path);
    return !relaxed.some((r) => path === r || path.startsWith(`${r}.`) || path.startsWith(`${r}[`));
  });
}

/** `$.linkifiers[0]["odd key"]` -> `linkifiers[].odd key`: the form of {@link LevelledPath}. */
function fieldPath(issuePath: string): string {
  return issuePath
    .replace(/^\$/, '')
    .replace(/\[(\d+)\]/g, '[]')
    .replace(/\["((?:[^"\\]|\\.)*)"\]/g, (_match, key: string) => `.${JSON.parse(`"${key}"`) as string}`)
    .replace(/^\./, '');
}

/** Sends the request, retrying as {@link RetryOptions} says; the last answer or failure is the result. */
async function exchangeWithRetries(
  name: string,
  fetchImpl: typeof globalThis.fetch,
  url: string,
  request: RequestInit,
  options: ClientOptions,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  const retry = options.retry;
  const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
  const remaining = (): number | undefined => (deadline === undefined ? undefined : Math.max(0, deadline - Date.now()));
  const idempotent = IDEMPOTENT.has((request.method ?? 'GET').toUpperCase());
  const attempts = Math.max(1, Math.floor(retry?.attempts ?? 1));
  const maxDelay = retry?.maxDelayMs ?? 30_000;
  for (let attempt = 1; ; attempt++) {
    let answer: Answer;
    try {
      answer = await exchange(name, fetchImpl, url, request, remaining(), options.timeoutMs, signal);
    } catch (error) {
      const retryable = retry !== undefined && idempotent && attempt < attempts && error instanceof TransportError && error.kind === 'network' && failedBeforeSending(error.cause);
      if (!retryable || !(await pause(name, retryDelay(attempt, retry), remaining(), signal))) throw error;
      continue;
    }
    const retryable = retry !== undefined && attempt < attempts && (answer.status === 429 || (idempotent && RETRY_STATUSES.has(answer.status)));
    if (!retryable) return answer;
    const asked = retryAfterMs(answer.headers.get('retry-after'), Date.now());
    if (asked !== undefined && asked > maxDelay) return answer;
    if (!(await pause(name, asked ?? retryDelay(attempt, retry), remaining(), signal))) return answer;
  }
}

/**
 * The backoff before retry `attempt` (1 = the first retry): half of
 * `min(maxDelayMs, baseDelayMs * 2^(attempt-1))` plus a random part of the
 * other half.
 */
export function retryDelay(attempt: number, retry: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const cap = Math.min(retry.maxDelayMs ?? 30_000, (retry.baseDelayMs ?? 250) * 2 ** (attempt - 1));
  return cap / 2 + random() * (cap / 2);
}

/** `Retry-After` in milliseconds from now: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Waits `ms` unless that passes the deadline (false: do not retry) or the
 * signal aborts (a TransportError, as an aborted request gives).
 */
function pause(name: string, ms: number, remaining: number | undefined, signal: AbortSignal | undefined): Promise<boolean> {
  if (remaining !== undefined && ms >= remaining) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const aborted = (): void => {
      clearTimeout(timer);
      reject(new TransportError(name, 'aborted', 'request aborted', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve(true);
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** Error codes of a connection that failed before any byte of the request was written. */
const BEFORE_SENDING = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a fetch failure (its cause chain, or every error of an AggregateError) says nothing was sent. */
function failedBeforeSending(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && BEFORE_SENDING.has(code)) return true;
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.every((e) => failedBeforeSending(e, depth + 1));
  return failedBeforeSending((error as { cause?: unknown }).cause, depth + 1);
}

function checkFeatureLevel(
  name: string,
  spec: OperationSpec,
  values: Record<string, unknown>,
  serverLevel: number | undefined,
): void {
  if (serverLevel === undefined) return;
  if (spec.featureLevel !== undefined && spec.featureLevel > serverLevel) {
    throw new UnsupportedFeatureError(name, undefined, spec.featureLevel, serverLevel);
  }
  for (const param of spec.params) {
    if (param.featureLevel !== undefined && param.featureLevel > serverLevel && values[param.name] !== undefined) {
      throw new UnsupportedFeatureError(name, param.name, param.featureLevel, serverLevel);
    }
  }
}

interface BuiltRequest {
  path: string;
  query: string;
  request: RequestInit;
}

function buildRequest(
  name: string,
  spec: OperationSpec,
  values: Record<string, unknown>,
  authorization: string,
): BuiltRequest {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (spec.auth) headers['Authorization'] = authorization;
  const query = new URLSearchParams();
  const form = new URLSearchParams();
  let formFields = 0;
  const multipart = spec.body === 'multipart' ? new FormData() : undefined;
  let path = spec.path;

  for (const param of spec.params) {
    const value = values[param.name];
    if (param.in === 'path') {
      if (value === undefined) throw new TypeError(`${name}: missing path parameter "${param.name}"`);
      path = path.replace(`{${param.name}}`, encodeURIComponent(String(value)));
    } else if (value === undefined) {
      continue;
    } else if (param.in === 'query') {
      query.append(param.name, encodeValue(value, param.encoding));
    } else if (multipart) {
      if (param.encoding === 'file') appendFile(multipart, param.name, value as UploadFile);
      else multipart.append(param.name, encodeValue(value, param.encoding));
    } else {
      form.append(param.name, encodeValue(value, param.encoding));
      formFields += 1;
    }
  }

  const request: RequestInit = { method: spec.method, headers };
  if (multipart) {
    // fetch sets the multipart Content-Type itself, boundary included.
    request.body = multipart;
  } else if (formFields > 0) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    request.body = form.toString();
  }
  return { path, query: query.toString(), request };
}

function encodeValue(value: unknown, encoding: ParamEncoding): string {
  return encoding === 'json' ? JSON.stringify(value) : String(value);
}

function appendFile(form: FormData, field: string, file: UploadFile): void {
  const blob =
    file.data instanceof Blob && file.contentType === undefined
      ? file.data
      : new Blob([file.data] as unknown as ConstructorParameters<typeof Blob>[0], {
          type: file.contentType ?? 'application/octet-stream',
        });
  form.append(field, blob, file.filename);
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/**
 * One request and its JSON body. `timeoutMs` is the time left for it,
 * `budgetMs` the call's whole budget (named in the timeout message).
 * Without `parse`, the body is read and dropped.
 */
async function exchange(
  name: string,
  fetchImpl: typeof globalThis.fetch,
  url: string,
  request: RequestInit,
  timeoutMs: number | undefined,
  budgetMs: number | undefined,
  signal: AbortSignal | undefined,
  parse = true,
): Promise<Answer> {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);

  let status: number;
  let text: string;
  let headers: Headers;
  try {
    const response = await fetchImpl(url, { ...request, signal: controller.signal });
    status = response.status;
    headers = response.headers;
    text = await response.text();
  } catch (error) {
    if (timedOut) throw new TransportError(name, 'timeout', `no answer within ${budgetMs ?? timeoutMs} ms`, { cause: error });
    if (controller.signal.aborted) throw new TransportError(name, 'aborted', 'request aborted', { cause: error });
    throw new TransportError(name, 'network', `request failed: ${describe(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }

  if (!parse) return { status, body: {}, headers };
  // A HEAD answer has headers only.
  if (request.method === 'HEAD' && text === '') return { status, body: {}, headers };
  const bodyExcerpt = text.slice(0, BODY_EXCERPT_LENGTH);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new TransportError(name, 'invalid-body', `HTTP ${status} with a body that is not JSON`, {
      status,
      bodyExcerpt,
      cause: error,
    });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TransportError(name, 'invalid-body', `HTTP ${status} with a body that is not a JSON object`, {
      status,
      bodyExcerpt,
    });
  }
  return { status, body: body as Record<string, unknown>, headers };
}

function isErrorResponse(status: number, body: Record<string, unknown>): boolean {
  return status < 200 || status > 299 || body['result'] === 'error';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `Basic base64(email:apiKey)` over UTF-8 bytes; `btoa` exists in browsers and Node alike. */
function basicAuthorization(email: string, apiKey: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${email}:${apiKey}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
