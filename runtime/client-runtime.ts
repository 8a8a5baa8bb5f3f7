/**
 * The generated client's runtime: request building (parameters in every
 * location and style, bodies of every kind, credentials of every security
 * scheme), the fetch exchange, response decoding, errors and response
 * validation. The generated `client.ts` gives it the API's shape as data
 * (the operation table, the security schemes, the conventions the document
 * follows) and types its errors by augmenting {@link ClientTypes}. No
 * dependencies: it runs in browsers and Node.
 */

/**
 * Types the generated `client.ts` supplies through module augmentation:
 * `declare module './client-runtime.js' { interface ClientTypes { errorBody: ErrorBody } }`
 * for a document whose errors carry a `code` (body-coded errors), or
 * `{ errorsBy: 'status'; operationErrors: OperationErrors }` for one whose
 * errors are typed by HTTP status.
 */
export interface ClientTypes {}

/** Every error body the API defines (the union of its error schemas). */
export type KnownErrorBody = ClientTypes extends { errorBody: infer B } ? B : UnknownErrorBody;

/** Every error code the API defines (none when its errors are typed by status). */
export type KnownErrorCode = [KnownErrorBody] extends [never] ? never : KnownErrorBody extends { code: infer C extends string } ? C : string;

/** Per operation, its error bodies by status key (`404`, `'4XX'`, `'default'`). */
export type KnownOperationErrors = ClientTypes extends { operationErrors: infer M } ? M : {};

/** Whether the API types its errors by status (true) or by body `code` (false). */
type ErrorsByStatus = ClientTypes extends { errorsBy: 'status' } ? true : false;

/** A file to upload: its bytes, name and media type. */
export interface UploadFile {
  filename: string;
  contentType?: string;
  data: Blob | Uint8Array;
}

/** Bytes of a binary request body. */
export type BinaryBody = Blob | Uint8Array | ArrayBuffer;

/**
 * A credential given as a value, or as a function the client calls before
 * every request (sync or async), e.g. to refresh an OAuth2 access token.
 * A function returning `undefined` sends no credential for that request.
 */
export type TokenSource = string | (() => string | undefined | Promise<string | undefined>);

/** The user name and password of HTTP Basic authentication. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** The credential of one security scheme: Basic credentials, or a token/key. */
export type Credential = BasicCredentials | TokenSource;

/**
 * Options every generated client takes; the generated `ClientOptions` adds
 * `auth` (credentials per security scheme of the document).
 */
export interface BaseClientOptions {
  /** Server root, e.g. `http://127.0.0.1:9991`; the client appends the API's base path. */
  baseUrl: string;
  /**
   * The server's feature level: operations and parameters newer than it are
   * refused before anything is sent, and response fields newer than it may be
   * absent. `'server'`: learn it from the `X-Feature-Level` header of every
   * answer (nothing is refused before the first answer); see also
   * `detectFeatureLevel`. Only for documents that name feature levels.
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
   * is never followed: it is the call's answer.
   */
  crossOriginRedirects?: 'refuse' | 'follow-without-credentials';
}

/** What the runtime receives: the generated options, credentials keyed by scheme name. */
export interface SenderOptions extends BaseClientOptions {
  auth?: { readonly [scheme: string]: Credential | undefined };
  /** Shorthand of the document's Basic scheme (our own API: the user's email address). */
  email?: string;
  /** Shorthand of the document's Basic scheme (our own API: the API key). */
  apiKey?: string;
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
  /**
   * The media type to send the request body as, one of those the operation
   * declares (default: the first). Ignored by operations without a body.
   */
  contentType?: string;
  /** Extra headers for this call (parameters of the operation take precedence). */
  headers?: Record<string, string>;
}

/** A response with its status and headers, as the `withResponse` methods resolve. */
export interface ApiResponse<S extends number = number, B = unknown> {
  status: S;
  headers: Headers;
  body: B;
}

/** `"201"` -> 201; a range (`"2XX"`) or `"default"` -> number. */
export type StatusOf<K> = K extends number ? K : K extends `${infer N extends number}` ? N : number;

/** The union of {@link ApiResponse} over a map of bodies by status key (`{ "200": A; "202": undefined }`). */
export type ApiResponseOf<R> = { [K in keyof R]-?: ApiResponse<StatusOf<K>, R[K]> }[keyof R];

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

/** The body type of an {@link ApiError} not narrowed further: by code, or `unknown` for status-typed errors. */
export type DefaultErrorBody<C extends string> = ErrorsByStatus extends true ? unknown : ErrorBodyFor<C>;

type ReservedErrorKey = 'result' | 'msg' | 'code' | keyof ApiError;

/** An {@link ApiError} with a known code, carrying that code's extra fields on the error itself. */
export type ApiErrorOf<C extends KnownErrorCode> = ApiError<C> &
  Readonly<Omit<Extract<KnownErrorBody, { code: C }>, ReservedErrorKey>>;

/** `'4XX'` for 404: the range key a status falls in. */
type RangeKey<S extends number> = `${S}` extends `${infer D}${string}` ? `${D}XX` : never;

/**
 * The body an operation's error map `M` (keyed `404` or `"404"`, `"4XX"`,
 * `"default"`) declares for status `S`: exact, else its range, else
 * `default`; never when none.
 */
type DeclaredBody<M, S extends number> = S extends keyof M
  ? M[S]
  : `${S}` extends keyof M
    ? M[`${S}`]
    : RangeKey<S> extends keyof M
    ? M[RangeKey<S>]
    : 'default' extends keyof M
      ? M['default']
      : never;

type AnyOperationBody<S extends number> = {
  [O in keyof KnownOperationErrors]: DeclaredBody<KnownOperationErrors[O], S>;
}[keyof KnownOperationErrors];

/**
 * The error body of status `S`: of operation `O` when given, else of any
 * operation that declares one for `S` (exactly, by its range or `default`);
 * `unknown` when none does.
 */
export type ErrorBodyForStatus<S extends number, O = never> = [O] extends [never]
  ? [AnyOperationBody<S>] extends [never]
    ? unknown
    : AnyOperationBody<S>
  : O extends keyof KnownOperationErrors
    ? [DeclaredBody<KnownOperationErrors[O], S>] extends [never]
      ? unknown
      : DeclaredBody<KnownOperationErrors[O], S>
    : unknown;

/** An {@link ApiError} narrowed to status `S` (and operation `O`): its body is that status's schema. */
export type ApiStatusError<S extends number, O extends string = never> = ApiError<string, ErrorBodyForStatus<S, O>> & {
  readonly status: S;
  readonly operation: [O] extends [never] ? string : O;
};

/**
 * The server answered with an error: an HTTP status of 400 or more (or
 * another status the operation does not declare as a success), or, for a
 * document with our success envelope, `result: "error"`.
 *
 * Narrow it with {@link isApiError}:
 * - by error code, for a document whose error schemas carry one
 *   (`x-error-code`): `if (isApiError(e, 'STREAM_DOES_NOT_EXIST')) e.stream_id`;
 * - by status, for any document: `if (isApiError(e, 404)) e.body` is typed as
 *   the 404 body of any operation that declares one, and
 *   `isApiError(e, 404, 'getPet')` as the 404 body of `getPet` (its `4XX` or
 *   `default` body when it declares no 404).
 *
 * `code` is the body's `code` when it has one, else `HTTP_<status>`; `msg` is
 * the body's `msg` (or `message`) when it has one, else `''`.
 */
export class ApiError<C extends string = string, B = DefaultErrorBody<C>> extends Error {
  override readonly name = 'ApiError';
  readonly operation: string;
  readonly status: number;
  readonly code: C;
  readonly msg: string;
  /** The whole response body, including fields the spec does not list: parsed JSON, text, a Blob, or undefined without a body. */
  readonly body: B;
  /** The response headers (empty when the error was built by hand). */
  readonly headers: Headers;

  constructor(operation: string, status: number, body: B, headers?: Headers) {
    const record: Record<string, unknown> = isRecord(body) ? body : {};
    const code = typeof record['code'] === 'string' ? record['code'] : undefined;
    const msg = typeof record['msg'] === 'string' ? record['msg'] : typeof record['message'] === 'string' ? record['message'] : '';
    super(code === undefined ? `${operation} failed with HTTP ${status}${msg === '' ? '' : `: ${msg}`}` : `${operation} failed with ${code} (HTTP ${status}): ${msg}`);
    this.operation = operation;
    this.status = status;
    this.code = (code ?? `HTTP_${status}`) as C;
    this.msg = msg;
    this.body = body;
    this.headers = headers ?? new Headers();
    // The code's extra fields (e.g. `stream_id`) are readable on the error itself.
    for (const [key, value] of Object.entries(record)) {
      if (key !== 'result' && !(key in this)) Object.defineProperty(this, key, { value, enumerable: true });
    }
  }

  is<K extends KnownErrorCode>(code: K): this is ApiErrorOf<K> {
    return (this.code as string) === code;
  }
}

/**
 * Whether `error` is an {@link ApiError}; with a code (a string), one with
 * that body `code`, narrowing its fields; with a status (a number), one with
 * that HTTP status, narrowing its `body` to the status's schema, of the
 * operation given as third argument or of any operation.
 */
export function isApiError(error: unknown): error is ApiError;
export function isApiError<K extends KnownErrorCode>(error: unknown, code: K): error is ApiErrorOf<K>;
export function isApiError<S extends number>(error: unknown, status: S): error is ApiStatusError<S>;
export function isApiError<S extends number, O extends keyof KnownOperationErrors & string>(error: unknown, status: S, operation: O): error is ApiStatusError<S, O>;
export function isApiError(error: unknown, codeOrStatus?: string | number, operation?: string): boolean {
  if (!(error instanceof ApiError)) return false;
  if (typeof codeOrStatus === 'number') return error.status === codeOrStatus && (operation === undefined || error.operation === operation);
  return codeOrStatus === undefined || error.code === codeOrStatus;
}

/**
 * `network`: no response; `timeout`, `aborted`; `invalid-body`: a body that
 * cannot be read as declared; `redirect`: an undocumented redirect the client
 * would not follow (to another origin, too many, or hidden by a browser).
 */
export type TransportErrorKind = 'network' | 'timeout' | 'aborted' | 'invalid-body' | 'redirect';

/** The request did not produce a usable answer: no response, a timeout, an abort, or a body that cannot be read as declared. */
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

// ---------------------------------------------------------------------------
// The operation table (data the generated client.ts writes)
// ---------------------------------------------------------------------------

export type ParamLocation = 'path' | 'query' | 'header' | 'cookie' | 'body';
export type ParamEncoding = 'plain' | 'json' | 'file';
/** OpenAPI `style`: path `simple`/`label`/`matrix`, query `form`/`spaceDelimited`/`pipeDelimited`/`deepObject`, header `simple`, cookie `form`. */
export type ParamStyle = 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
export type BodyKind = 'form' | 'multipart' | 'json' | 'text' | 'binary';
export type ResponseKind = 'json' | 'text' | 'binary';

export interface ParamSpec {
  /** Name on the wire, also the key in the parameters object unless `key` says otherwise. */
  readonly name: string;
  /** The key in the parameters object, when two parameters of the operation share a wire name (`query_id`, `header_id`). */
  readonly key?: string;
  readonly in: ParamLocation;
  readonly encoding: ParamEncoding;
  /**
   * `plain` parameters: absent means the location's default (path and header
   * `simple`, query and cookie `form`). Body fields: the style their Encoding
   * Object gives a list or object (spread as a query parameter's would be);
   * absent, a scalar's text, a list's elements as the field repeated.
   */
  readonly style?: ParamStyle;
  /** Absent means the style's default: true for `form`, false otherwise. A JSON body field: one JSON text per list element. */
  readonly explode?: boolean;
  /** Query and form fields: reserved characters (RFC 3986) are sent as they are. */
  readonly allowReserved?: boolean;
  /** Multipart fields: the part's media type (a file's default when the file names none; JSON parts default to `application/json`). */
  readonly contentType?: string;
  readonly featureLevel?: number;
}

/** A request body sent whole (JSON, text, bytes, or an object as a form), passed as the parameter `param`. */
export interface BodySpec {
  /** The key of the body in the parameters object. */
  readonly param: string;
  readonly required: boolean;
  /** Each declared media type, in document order; the first is the default. */
  readonly contents: readonly { readonly mediaType: string; readonly kind: BodyKind; readonly fields?: readonly ParamSpec[] }[];
}

/** A declared response body: its media type and how it is read. */
export type ResponseContentSpec = readonly [mediaType: string, kind: ResponseKind];

/** `[path, level]`: a response field (`linkifiers[].example_input`) and the newest feature level noted on it. */
export type LevelledPath = readonly [string, number];

export interface OperationSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'TRACE';
  /** Relative to the base path, with `{name}` placeholders. */
  readonly path: string;
  /**
   * Security alternatives (any one suffices), each the scheme names that
   * must all be sent; `[]` (or absent): none. An empty alternative makes
   * credentials optional.
   */
  readonly security?: readonly (readonly string[])[];
  /** How fields-mode body parameters travel: `none`, `form` or `multipart`; whole bodies are described by `requestBody`. */
  readonly body: 'none' | BodyKind;
  /** A body sent whole. */
  readonly requestBody?: BodySpec;
  /** The operation's own path prefix, when it differs from the document's. */
  readonly basePath?: string;
  /** The operation's own server (an absolute URL, its path included), when it differs from the document's. */
  readonly server?: string;
  readonly featureLevel?: number;
  readonly params: readonly ParamSpec[];
  /** The primary success status (the one `responseValidators` checks). */
  readonly success?: number;
  /**
   * Declared responses by status key (`'200'`, `'2XX'`, `'default'`): the
   * media types of each body (`[]`: no body). Statuses not listed are read
   * by their Content-Type.
   */
  readonly responses?: { readonly [status: string]: readonly ResponseContentSpec[] };
  /** Success-body fields a server below their level may leave out or send in an older shape. */
  readonly newerFields?: readonly LevelledPath[];
  /** The call resolves to the whole answer (status, headers, body), not the body: the operation documents a redirect. */
  readonly answer?: true;
}

/** One entry of the document's security schemes. */
export interface SchemeSpec {
  readonly kind: 'basic' | 'bearer' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'http' | 'mutualTLS';
  /** `apiKey`: where the key travels. */
  readonly in?: 'header' | 'query' | 'cookie';
  /** `apiKey`: the header, query parameter or cookie name. */
  readonly name?: string;
  /** `http`: the scheme word sent before the credentials (`Digest`). */
  readonly scheme?: string;
}

/** Conventions of our own API the document follows (see the generator's model). */
export interface ConventionsSpec {
  /** Success bodies are `{result: "success", msg, ...}`; `result: "error"` is an error whatever the status. */
  readonly successEnvelope: boolean;
  /** Error bodies carry a `code`; errors are read as such envelopes. */
  readonly bodyCodedErrors: boolean;
  /** Feature levels: `featureLevel` checks and the `X-Feature-Level` header. */
  readonly featureLevels: boolean;
}

const BODY_EXCERPT_LENGTH = 200;

/** A response check of the generated validators. */
export type ResponseCheck = (body: unknown, options?: { strict?: boolean; allErrors?: boolean }) => ResponseIssue[];

/** What the client needs of the generated validators module, loaded only when `validateResponses` is on. */
export interface ResponseValidators {
  /** The primary success body's check, per operation. */
  responseValidators: { readonly [operation: string]: ResponseCheck };
  /** Error bodies by their `code` (documents with body-coded errors). */
  validateErrorBody?: ResponseCheck;
  /**
   * Any declared response by status and media type; undefined for a status
   * the operation does not declare. Used for every status but the primary
   * success when the validators module has it.
   */
  validateResponse?(operation: string, status: number, mediaType: string | undefined, body: unknown, options?: { strict?: boolean; allErrors?: boolean }): ResponseIssue[] | undefined;
  /** The declared headers of the response a status selects: required ones present, each as its schema says. */
  validateResponseHeaders?(operation: string, status: number, headers: Headers, options?: { strict?: boolean; allErrors?: boolean }): ResponseIssue[] | undefined;
}

/** The API's shape, from the generated `client.ts`. */
export interface ClientDefinition<N extends string> {
  /** Path prefix of every operation (e.g. `/api/v1`). */
  basePath: string;
  operations: { readonly [K in N]: OperationSpec };
  /** The document's security schemes, by name. */
  schemes?: { readonly [name: string]: SchemeSpec };
  /** The scheme `email`/`apiKey` fill, for documents following our conventions. */
  basicShorthand?: string;
  /** Absent: all off. */
  conventions?: ConventionsSpec;
  /** Per error code, its extra fields newer than some level. */
  newerErrorFields?: { readonly [code: string]: readonly LevelledPath[] };
  loadValidators(): Promise<ResponseValidators>;
}

/** Sends operation `name` with its parameters. */
export interface Send<N extends string> {
  /** Resolves to the success body. */
  <T>(name: N, params: object | undefined, options: RequestOptions | undefined): Promise<T>;
  /** Resolves to the status, headers and body of the success response. */
  withResponse<T>(name: N, params: object | undefined, options: RequestOptions | undefined): Promise<T>;
  /** The level the client works with: given, or learned from the server; undefined until known. */
  featureLevel(): number | undefined;
}

/** The header every answer of our server carries its feature level in. */
export const FEATURE_LEVEL_HEADER = 'x-feature-level';

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']);
const RETRY_STATUSES = new Set([502, 503, 504]);
const NO_CONVENTIONS: ConventionsSpec = { successEnvelope: false, bodyCodedErrors: false, featureLevels: false };

export function createSender<N extends string>(definition: ClientDefinition<N>, options: SenderOptions): Send<N> {
  const root = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const validation = options.validateResponses ?? false;
  const conventions = definition.conventions ?? NO_CONVENTIONS;
  const credentials: { [scheme: string]: Credential | undefined } = { ...options.auth };
  if (definition.basicShorthand !== undefined && options.email !== undefined && options.apiKey !== undefined) {
    credentials[definition.basicShorthand] ??= { username: options.email, password: options.apiKey };
  }
  let validators: Promise<ResponseValidators> | undefined;
  let learned: number | undefined;
  const level = (): number | undefined =>
    !conventions.featureLevels ? undefined : typeof options.featureLevel === 'number' ? options.featureLevel : learned;

  const exchangeOperation = async (name: N, params: object | undefined, requestOptions: RequestOptions | undefined): Promise<ApiResponse> => {
    const spec: OperationSpec = definition.operations[name];
    const values = (params ?? {}) as Record<string, unknown>;
    if (conventions.featureLevels) checkFeatureLevel(name, spec, values, level());
    const built = buildRequest(name, spec, values, requestOptions?.contentType);
    await applySecurity(spec.security, definition.schemes ?? {}, credentials, built);
    const headers: Record<string, string> = { ...options.headers, ...requestOptions?.headers, ...built.headers };
    if (built.cookies.length > 0) headers['Cookie'] = [headers['Cookie'], ...built.cookies].filter((c) => c !== undefined && c !== '').join('; ');
    const query = built.query.join('&');
    const prefix = spec.server !== undefined && options.operationServers !== false ? spec.server.replace(/\/+$/, '') : root + (spec.basePath ?? definition.basePath);
    const url = prefix + built.path + (query === '' ? '' : `?${query}`);
    const request: RequestInit = { method: spec.method, headers };
    if (built.body !== undefined) request.body = built.body;
    const redirects: RedirectPolicy = {
      documented: (status) => declaredFor(spec, status) !== undefined && status >= 300 && status <= 399,
      crossOrigin: options.crossOriginRedirects ?? 'refuse',
      ...credentialNames(definition.schemes ?? {}),
    };
    const answer = await exchangeWithRetries(name, fetchImpl, url, request, options, requestOptions?.signal, redirects);
    if (conventions.featureLevels && options.featureLevel === 'server') learned = reportedLevel(answer.headers) ?? learned;
    return readAnswer(name, spec, answer, conventions, async (status, body, failed) => {
      if (validation === false || spec.method === 'HEAD') return;
      validators ??= definition.loadValidators();
      const loaded = await validators;
      const checkOptions = { strict: validation === 'strict', allErrors: true };
      let check: ResponseCheck | undefined;
      let newer: readonly LevelledPath[] | undefined;
      if (failed && conventions.bodyCodedErrors) {
        check = loaded.validateErrorBody;
        newer = definition.newerErrorFields?.[String((body as Record<string, unknown>)['code'])];
      } else if (!failed && status === (spec.success ?? 200)) {
        check = loaded.responseValidators[name];
        newer = spec.newerFields;
      } else if (loaded.validateResponse !== undefined) {
        // Any other declared status (and media type): the per-status validators; an undeclared one is not checked.
        const validateResponse = loaded.validateResponse.bind(loaded);
        check = (value, given) => validateResponse(name, status, answer.headers.get('content-type') ?? undefined, value, given) ?? [];
      }
      const issues = withoutNewerFields(check === undefined ? [] : check(body, checkOptions), newer, level());
      // Declared response headers (the validators module of an older generation has no such check).
      const headerIssues = loaded.validateResponseHeaders?.(name, status, answer.headers, checkOptions) ?? [];
      if (issues.length > 0 || headerIssues.length > 0) throw new ResponseValidationError(name, status, [...issues, ...headerIssues], body);
    });
  };

  const send = async <T>(name: N, params: object | undefined, requestOptions: RequestOptions | undefined): Promise<T> => {
    const answer = await exchangeOperation(name, params, requestOptions);
    return (definition.operations[name].answer === true ? answer : answer.body) as T;
  };
  const withResponse = async <T>(name: N, params: object | undefined, requestOptions: RequestOptions | undefined): Promise<T> =>
    (await exchangeOperation(name, params, requestOptions)) as T;
  return Object.assign(send, { withResponse, featureLevel: level });
}

const clientLevels = new WeakMap<object, () => number | undefined>();

/**
 * The client object: one method per operation (resolving to the body), and
 * the same methods under `withResponse` (resolving to status, headers and
 * body), not enumerable so that the client's own keys are its operations.
 */
export function bindClient<C extends object, N extends string>(names: readonly N[], send: Send<N>, withResponseKey = 'withResponse'): C {
  const client: Record<string, unknown> = {};
  const full: Record<string, unknown> = {};
  for (const name of names) {
    client[name] = (params: object | undefined, options: RequestOptions | undefined) => send(name, params, options);
    full[name] = (params: object | undefined, options: RequestOptions | undefined) => send.withResponse(name, params, options);
  }
  Object.defineProperty(client, withResponseKey, { value: full, enumerable: false });
  clientLevels.set(client, () => send.featureLevel());
  return client as C;
}

/** The feature level a client works with: the one it was given, or the one it learned from the server (`featureLevel: 'server'`). */
export function featureLevelOf(client: object): number | undefined {
  return clientLevels.get(client)?.();
}

/** Options of {@link detectLevel}. */
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
  const { headers } = await exchange('detectFeatureLevel', fetchImpl, url, { method: 'GET', headers: { Accept: 'application/json' } }, options.timeoutMs, options.timeoutMs, options.signal, {
    documented: () => false,
    crossOrigin: 'refuse',
    headers: [],
    query: [],
  });
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
  options: BaseClientOptions,
  signal: AbortSignal | undefined,
  redirects: RedirectPolicy,
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
      answer = await exchange(name, fetchImpl, url, request, remaining(), options.timeoutMs, signal, redirects);
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
    if (param.featureLevel !== undefined && param.featureLevel > serverLevel && values[param.key ?? param.name] !== undefined) {
      throw new UnsupportedFeatureError(name, param.name, param.featureLevel, serverLevel);
    }
  }
}

// ---------------------------------------------------------------------------
// Parameter serialisation (OpenAPI `style`/`explode`, RFC 6570 shapes)
// ---------------------------------------------------------------------------

/** Characters RFC 3986 reserves (gen-delims and sub-delims): sent as they are with `allowReserved`. */
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/**
 * Percent-encodes UTF-8 text, leaving only RFC 3986 unreserved characters
 * (`A-Z a-z 0-9 - . _ ~`), plus the reserved ones when `allowReserved`.
 * Percent signs are always encoded.
 */
export function encodeText(text: string, allowReserved = false): string {
  let out = '';
  for (const char of text) {
    if (/[A-Za-z0-9\-._~]/.test(char) || (allowReserved && RESERVED.test(char))) out += char;
    else out += encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

/** A scalar as text: numbers in decimal, booleans as `true`/`false`, null as empty; anything else as JSON. */
function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** Object entries with a value (undefined skipped), as text. */
function objectEntries(value: Record<string, unknown>): [string, string][] {
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, scalarText(v)]);
}

type Shape = { kind: 'empty' } | { kind: 'scalar'; text: string } | { kind: 'array'; items: string[] } | { kind: 'object'; entries: [string, string][] };

function shapeOf(value: unknown): Shape {
  if (value === null) return { kind: 'empty' };
  if (Array.isArray(value)) return { kind: 'array', items: value.filter((v) => v !== undefined).map(scalarText) };
  if (isRecord(value) && !(value instanceof Date)) return { kind: 'object', entries: objectEntries(value) };
  return { kind: 'scalar', text: scalarText(value) };
}

/**
 * A path parameter's text for its `{name}` placeholder: `simple`
 * (`blue,black`), `label` (`.blue.black` exploded, `.blue,black` not) or
 * `matrix` (`;color=blue;color=black` exploded, `;color=blue,black` not).
 * Values are percent-encoded; delimiters are not.
 */
export function serializePath(name: string, value: unknown, style: ParamStyle = 'simple', explode = false): string {
  const shape = shapeOf(value);
  const e = (text: string) => encodeText(text);
  const n = e(name);
  const prefix = style === 'label' ? '.' : style === 'matrix' ? ';' : '';
  switch (shape.kind) {
    case 'empty':
      return style === 'matrix' ? `;${n}` : prefix;
    case 'scalar':
      return style === 'matrix' ? `;${n}=${e(shape.text)}` : prefix + e(shape.text);
    case 'array': {
      if (style === 'matrix') return explode ? shape.items.map((item) => `;${n}=${e(item)}`).join('') : `;${n}=${shape.items.map(e).join(',')}`;
      return prefix + shape.items.map(e).join(explode && style === 'label' ? '.' : ',');
    }
    case 'object': {
      if (style === 'matrix') {
        return explode ? shape.entries.map(([k, v]) => `;${e(k)}=${e(v)}`).join('') : `;${n}=${shape.entries.map(([k, v]) => `${e(k)},${e(v)}`).join(',')}`;
      }
      const sep = explode && style === 'label' ? '.' : ',';
      return prefix + (explode ? shape.entries.map(([k, v]) => `${e(k)}=${e(v)}`).join(sep) : shape.entries.map(([k, v]) => `${e(k)},${e(v)}`).join(sep));
    }
  }
}

/**
 * A query parameter as `name=value` pairs (already encoded, to join with
 * `&`): `form` (`color=blue&color=black` exploded, `color=blue,black` not),
 * `spaceDelimited` (`color=blue%20black`), `pipeDelimited`
 * (`color=blue|black`), `deepObject` (`color[R]=100&color[G]=200`, nested
 * `items[0][price]=p`, lists `expand[0]=a`). An
 * exploded object under `form` spreads into its own keys (`R=100&G=200`).
 * With `allowReserved`, reserved characters in values go unencoded.
 */
export function serializeQuery(name: string, value: unknown, style: ParamStyle = 'form', explode: boolean = style === 'form', allowReserved = false): string[] {
  const shape = shapeOf(value);
  const n = encodeText(name);
  const v = (text: string) => encodeText(text, allowReserved);
  if (style === 'deepObject' && (shape.kind === 'array' || shape.kind === 'object')) return deepObjectPairs(n, value as Record<string, unknown>, v);
  switch (shape.kind) {
    case 'empty':
      return [`${n}=`];
    case 'scalar':
      return [`${n}=${v(shape.text)}`];
    case 'array': {
      if (explode) return shape.items.map((item) => `${n}=${v(item)}`);
      return [`${n}=${shape.items.map(v).join(delimiter(style))}`];
    }
    case 'object': {
      if (explode) return shape.entries.map(([k, text]) => `${encodeText(k)}=${v(text)}`);
      return [`${n}=${shape.entries.map(([k, text]) => `${v(k)}${delimiter(style)}${v(text)}`).join(delimiter(style))}`];
    }
  }
}

function delimiter(style: ParamStyle): string {
  return style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
}

/**
 * `deepObject` in bracket notation, nested to any depth: `name[key]=value`,
 * objects as `name[a][b]=value`, lists indexed `name[a][0]=x` (as Stripe's
 * libraries write them), `null` as empty text (`name[a]=`). An empty list or
 * object writes nothing (docs/decisions/0020-form-fields-by-encoding.md).
 */
function deepObjectPairs(prefix: string, value: Record<string, unknown> | readonly unknown[], encode: (text: string) => string, pairs: string[] = []): string[] {
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    const at = `${prefix}[${encodeText(key)}]`;
    if (Array.isArray(item) || (isRecord(item) && !(item instanceof Date))) deepObjectPairs(at, item as Record<string, unknown>, encode, pairs);
    else pairs.push(`${at}=${encode(scalarText(item))}`);
  }
  return pairs;
}

/** A header parameter's value (`simple`): `blue,black`; objects `R,100,G,200`, exploded `R=100,G=200`. Not percent-encoded. */
export function serializeHeader(value: unknown, explode = false): string {
  const shape = shapeOf(value);
  switch (shape.kind) {
    case 'empty':
      return '';
    case 'scalar':
      return shape.text;
    case 'array':
      return shape.items.join(',');
    case 'object':
      return shape.entries.map(([k, v]) => (explode ? `${k}=${v}` : `${k},${v}`)).join(',');
  }
}

/**
 * A cookie parameter as `name=value` pairs (to join with `; `), `form`
 * style: `color=blue,black`; exploded arrays repeat the cookie, exploded
 * objects spread into their own cookies. Values are percent-encoded.
 */
export function serializeCookie(name: string, value: unknown, explode = true): string[] {
  const shape = shapeOf(value);
  const n = encodeText(name);
  switch (shape.kind) {
    case 'empty':
      return [`${n}=`];
    case 'scalar':
      return [`${n}=${encodeText(shape.text)}`];
    case 'array':
      return explode ? shape.items.map((item) => `${n}=${encodeText(item)}`) : [`${n}=${shape.items.map((i) => encodeText(i)).join(',')}`];
    case 'object':
      return explode
        ? shape.entries.map(([k, v]) => `${encodeText(k)}=${encodeText(v)}`)
        : [`${n}=${shape.entries.map(([k, v]) => `${encodeText(k)},${encodeText(v)}`).join(',')}`];
  }
}

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

/** What fetch takes as a body (`BodyInit`, named through `RequestInit` so that Node's types without the DOM lib have it too). */
type RequestBody = NonNullable<RequestInit['body']>;

interface BuiltRequest {
  path: string;
  /** Encoded `name=value` pairs. */
  query: string[];
  headers: Record<string, string>;
  /** `name=value` pairs of the Cookie header. */
  cookies: string[];
  body: RequestBody | undefined;
}

/** The request of one call, credentials aside; exported for tests. */
export function buildRequest(name: string, spec: OperationSpec, values: Record<string, unknown>, contentType?: string): BuiltRequest {
  const headers: Record<string, string> = {};
  const accept = acceptHeader(spec);
  if (accept !== undefined) headers['Accept'] = accept;
  const query: string[] = [];
  const cookies: string[] = [];
  const form = new URLSearchParams();
  /** Form fields spread by their style, already encoded (`tags=a&tags=b`, `filter[kind]=x`). */
  const styledFields: string[] = [];
  let formFields = 0;
  const multipart: Part[] | undefined = spec.body === 'multipart' && spec.requestBody === undefined ? [] : undefined;
  let path = spec.path;

  for (const param of spec.params) {
    const value = values[param.key ?? param.name];
    if (param.in === 'path') {
      if (value === undefined) throw new TypeError(`${name}: missing path parameter "${param.name}"`);
      const text = param.encoding === 'json' ? encodeText(JSON.stringify(value)) : serializePath(param.name, value, param.style, param.explode ?? false);
      path = path.split(`{${param.name}}`).join(text);
    } else if (value === undefined) {
      continue;
    } else if (param.in === 'query') {
      if (param.encoding === 'json') query.push(`${encodeText(param.name)}=${encodeText(JSON.stringify(value), param.allowReserved)}`);
      else query.push(...serializeQuery(param.name, value, param.style ?? 'form', param.explode ?? (param.style ?? 'form') === 'form', param.allowReserved));
    } else if (param.in === 'header') {
      headers[param.name] = param.encoding === 'json' ? JSON.stringify(value) : serializeHeader(value, param.explode ?? false);
    } else if (param.in === 'cookie') {
      if (param.encoding === 'json') cookies.push(`${encodeText(param.name)}=${encodeText(JSON.stringify(value))}`);
      else cookies.push(...serializeCookie(param.name, value, param.explode ?? true));
    } else if (multipart) {
      appendPart(multipart, param, value);
    } else {
      appendFormField(form, styledFields, param, value);
      formFields += 1;
    }
  }

  let body: RequestBody | undefined;
  if (spec.requestBody !== undefined) {
    const whole = wholeBody(name, spec.requestBody, values[spec.requestBody.param], contentType);
    if (whole !== undefined) {
      body = whole.body;
      if (whole.contentType !== undefined) headers['Content-Type'] = whole.contentType;
    }
  } else if (multipart) {
    const encoded = multipartBody(multipart);
    body = encoded.body;
    // Without a Content-Type of ours, fetch writes FormData's own, boundary included.
    if (encoded.contentType !== undefined) headers['Content-Type'] = encoded.contentType;
  } else if (formFields > 0) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = [form.toString(), ...styledFields].filter((text) => text !== '').join('&');
  }
  return { path, query, headers, cookies, body };
}

/** `Accept`: every media type the operation's responses declare, in order; absent when none do. */
function acceptHeader(spec: OperationSpec): string | undefined {
  if (spec.responses === undefined) return 'application/json';
  const types = new Set<string>();
  for (const contents of Object.values(spec.responses)) for (const [mediaType] of contents) types.add(mediaType);
  return types.size === 0 ? undefined : [...types].join(', ');
}

/** A urlencoded field: spread by its style into `styled` (encoded pairs), else its texts into `form`. */
function appendFormField(form: URLSearchParams, styled: string[], param: ParamSpec, value: unknown): void {
  if (param.style !== undefined) styled.push(...serializeQuery(param.name, value, param.style, param.explode ?? param.style === 'form', param.allowReserved));
  else for (const text of fieldTexts(value, param.encoding, param.explode)) form.append(param.name, text);
}

/**
 * A form field's texts: JSON text (one per element for an exploded JSON
 * list), or the value as text (arrays: one field per item, objects as JSON).
 */
function fieldTexts(value: unknown, encoding: ParamEncoding, explode?: boolean): string[] {
  if (encoding === 'json') return explode === true && Array.isArray(value) ? value.filter((v) => v !== undefined).map((v) => JSON.stringify(v)) : [JSON.stringify(value)];
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(scalarText);
  return [value === null ? 'null' : scalarText(value)];
}

/** One part of a multipart body: a text field (with its media type, when declared), or a file. */
type Part = { readonly name: string; readonly text: string; readonly contentType?: string } | { readonly name: string; readonly file: Blob; readonly filename: string };

/**
 * A multipart field's parts (OpenAPI's Encoding Object): files; JSON text
 * typed `application/json` (or the declared part type), one part per element
 * when exploded; a value spread by its style, one part per field; else text,
 * one part per list element, typed when the document declares a type.
 */
function appendPart(parts: Part[], param: ParamSpec, value: unknown): void {
  if (param.encoding === 'file') {
    for (const file of Array.isArray(value) ? value : [value]) parts.push(filePart(param.name, file as UploadFile | Blob, param.contentType));
  } else if (param.encoding === 'plain' && param.style !== undefined) {
    for (const pair of serializeQuery(param.name, value, param.style, param.explode ?? param.style === 'form')) {
      const equals = pair.indexOf('=');
      parts.push({ name: decodeURIComponent(pair.slice(0, equals)), text: decodeURIComponent(pair.slice(equals + 1)) });
    }
  } else {
    const contentType = param.contentType ?? (param.encoding === 'json' ? 'application/json' : undefined);
    for (const text of fieldTexts(value, param.encoding, param.explode)) parts.push(contentType === undefined ? { name: param.name, text } : { name: param.name, text, contentType });
  }
}

function filePart(field: string, file: UploadFile | Blob, partType: string | undefined): Part {
  if (file instanceof Blob) return { name: field, file, filename: file instanceof File ? file.name : field };
  const type = file.contentType ?? partType ?? 'application/octet-stream';
  const blob =
    file.data instanceof Blob && file.contentType === undefined && (file.data.type !== '' || partType === undefined)
      ? file.data
      : new Blob([file.data] as unknown as ConstructorParameters<typeof Blob>[0], { type });
  return { name: field, file: blob, filename: file.filename };
}

/**
 * The parts as a body: FormData (fetch writes its Content-Type) unless a text
 * part has a media type of its own, which FormData cannot give without making
 * the part a file; then the body is written here, boundary and all.
 */
function multipartBody(parts: readonly Part[]): { body: RequestBody; contentType?: string } {
  if (!parts.some((part) => 'text' in part && part.contentType !== undefined)) {
    const form = new FormData();
    for (const part of parts) {
      if ('text' in part) form.append(part.name, part.text);
      else form.append(part.name, part.file, part.filename);
    }
    return { body: form };
  }
  const boundary = `----teamchat${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const quoted = (text: string): string => text.replace(/[\r\n"]/g, (c) => encodeURIComponent(c));
  const chunks: (string | Blob)[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${quoted(part.name)}"${'file' in part ? `; filename="${quoted(part.filename)}"` : ''}`;
    const type = 'file' in part ? part.file.type || 'application/octet-stream' : part.contentType;
    chunks.push(`--${boundary}\r\n${disposition}\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n`);
    chunks.push('file' in part ? part.file : part.text, '\r\n');
  }
  chunks.push(`--${boundary}--\r\n`);
  return { body: new Blob(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Whether `mediaType` (possibly a wildcard like `image/*`, possibly with parameters) covers `actual` (parameters aside). */
function mediaTypeMatches(mediaType: string, actual: string): boolean {
  if (mediaType === actual || mediaType === '*/*') return true;
  const semicolon = mediaType.indexOf(';');
  if (semicolon !== -1 && mediaType.slice(0, semicolon).trim() === (actual.split(';', 1)[0] ?? '').trim()) return true;
  return mediaType.endsWith('/*') && actual.startsWith(mediaType.slice(0, -1));
}

/** A whole body in the chosen (or first) media type, with its Content-Type; undefined for an absent optional body. */
function wholeBody(name: string, spec: BodySpec, value: unknown, contentType: string | undefined): { body: RequestBody; contentType: string | undefined } | undefined {
  if (value === undefined) {
    if (spec.required) throw new TypeError(`${name}: missing request body "${spec.param}"`);
    return undefined;
  }
  const chosen = contentType === undefined ? spec.contents[0] : spec.contents.find((c) => c.mediaType === contentType.toLowerCase()) ?? spec.contents.find((c) => mediaTypeMatches(c.mediaType, contentType.toLowerCase()));
  if (chosen === undefined) {
    throw new TypeError(`${name}: the request body cannot be sent as "${contentType}" (declared: ${spec.contents.map((c) => c.mediaType).join(', ')})`);
  }
  // A wildcard (`image/*`) is not a media type to send: the caller's choice, a Blob's own type, or bytes.
  const declared = contentType !== undefined && !contentType.includes('*') ? contentType : chosen.mediaType.includes('*') ? undefined : chosen.mediaType;
  switch (chosen.kind) {
    case 'json':
      return { body: JSON.stringify(value), contentType: declared ?? 'application/json' };
    case 'text':
      return { body: scalarText(value), contentType: declared ?? 'text/plain' };
    case 'form': {
      const form = new URLSearchParams();
      const styled: string[] = [];
      const record = isRecord(value) ? value : {};
      if (chosen.fields !== undefined) {
        // The fields as the Encoding Object says, as in a body of form fields.
        for (const field of chosen.fields) if (record[field.name] !== undefined) appendFormField(form, styled, field, record[field.name]);
      } else {
        for (const [key, item] of Object.entries(record)) {
          if (item === undefined) continue;
          for (const text of isRecord(item) ? [JSON.stringify(item)] : fieldTexts(item, 'plain')) form.append(key, text);
        }
      }
      const body = [form.toString(), ...styled].filter((text) => text !== '').join('&');
      return { body, contentType: declared ?? 'application/x-www-form-urlencoded' };
    }
    case 'multipart': {
      const parts: Part[] = [];
      const record = isRecord(value) ? value : {};
      if (chosen.fields !== undefined) {
        for (const field of chosen.fields) if (record[field.name] !== undefined) appendPart(parts, field, record[field.name]);
      }
      for (const [key, item] of Object.entries(chosen.fields === undefined ? record : {})) {
        if (item === undefined) continue;
        const items = Array.isArray(item) ? item : [item];
        for (const part of items) {
          if (part instanceof Blob || isUploadFile(part)) parts.push(filePart(key, part, undefined));
          else parts.push(isRecord(part) ? { name: key, text: JSON.stringify(part), contentType: 'application/json' } : { name: key, text: scalarText(part) });
        }
      }
      // Without a Content-Type here, fetch writes FormData's, boundary included.
      const encoded = multipartBody(parts);
      return { body: encoded.body, contentType: encoded.contentType };
    }
    case 'binary': {
      const bytes = value instanceof Blob || value instanceof ArrayBuffer ? value : value instanceof Uint8Array ? value : new TextEncoder().encode(scalarText(value));
      const own = value instanceof Blob && value.type !== '' ? value.type : undefined;
      return { body: bytes as RequestBody, contentType: declared ?? own ?? 'application/octet-stream' };
    }
  }
}

function isUploadFile(value: unknown): value is UploadFile {
  return isRecord(value) && typeof value['filename'] === 'string' && (value['data'] instanceof Blob || value['data'] instanceof Uint8Array);
}

// ---------------------------------------------------------------------------
// Credentials
// ---------------------------------------------------------------------------

/**
 * Adds the credentials of the first security alternative whose schemes all
 * have a credential configured (a `mutualTLS` scheme counts as configured:
 * it lives in the TLS set-up). When none has, nothing is sent and the server
 * decides (an empty alternative makes credentials optional).
 */
async function applySecurity(
  security: readonly (readonly string[])[] | undefined,
  schemes: { readonly [name: string]: SchemeSpec },
  credentials: { readonly [scheme: string]: Credential | undefined },
  request: BuiltRequest,
): Promise<void> {
  if (security === undefined) return;
  const chosen = security.find(
    (alternative) => alternative.length > 0 && alternative.every((scheme) => schemes[scheme]?.kind === 'mutualTLS' || credentials[scheme] !== undefined),
  );
  if (chosen === undefined) return;
  for (const name of chosen) {
    const scheme = schemes[name];
    const credential = credentials[name];
    if (scheme === undefined || credential === undefined || scheme.kind === 'mutualTLS') continue;
    if (scheme.kind === 'basic') {
      const basic = typeof credential === 'object' ? credential : { username: '', password: (await tokenOf(credential)) ?? '' };
      request.headers['Authorization'] = basicAuthorization(basic.username, basic.password);
      continue;
    }
    const token = typeof credential === 'object' ? `${credential.username}:${credential.password}` : await tokenOf(credential);
    if (token === undefined) continue;
    if (scheme.kind === 'apiKey') {
      const key = scheme.name ?? name;
      if (scheme.in === 'query') request.query.push(`${encodeText(key)}=${encodeText(token)}`);
      else if (scheme.in === 'cookie') request.cookies.push(`${encodeText(key)}=${encodeText(token)}`);
      else request.headers[key] = token;
    } else if (scheme.kind === 'http') {
      request.headers['Authorization'] = `${scheme.scheme ?? 'Bearer'} ${token}`;
    } else {
      request.headers['Authorization'] = `Bearer ${token}`;
    }
  }
}

async function tokenOf(source: TokenSource): Promise<string | undefined> {
  return typeof source === 'function' ? await source() : source;
}

/** `Basic base64(user:password)` over UTF-8 bytes; `btoa` exists in browsers and Node alike. */
function basicAuthorization(user: string, password: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${user}:${password}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

// ---------------------------------------------------------------------------
// Redirects (docs/decisions/0023-redirects.md)
// ---------------------------------------------------------------------------

/** How one call treats redirects. */
interface RedirectPolicy {
  /** Whether the operation documents this 3xx status: it is then the answer, never followed. */
  documented(status: number): boolean;
  crossOrigin: 'refuse' | 'follow-without-credentials';
  /** Lower-cased names of the headers that carry a credential of some scheme of the document. */
  headers: readonly string[];
  /** Names of the query parameters that carry an API key. */
  query: readonly string[];
}

/** The statuses fetch itself would follow. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** fetch's own limit. */
const MAX_REDIRECTS = 20;
/** Headers that describe a request body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-encoding', 'content-language', 'content-location', 'content-length']);

/** Where the document's schemes put credentials; `Authorization`, `Proxy-Authorization` and `Cookie` always count. */
function credentialNames(schemes: { readonly [name: string]: SchemeSpec }): Pick<RedirectPolicy, 'headers' | 'query'> {
  const headers = ['authorization', 'proxy-authorization', 'cookie'];
  const query: string[] = [];
  for (const [name, scheme] of Object.entries(schemes)) {
    if (scheme.kind !== 'apiKey') continue;
    const key = scheme.name ?? name;
    if (scheme.in === 'query') query.push(key);
    else if (scheme.in !== 'cookie') headers.push(key.toLowerCase());
  }
  return { headers, query };
}

/**
 * fetch with `redirect: 'manual'`, following redirects here so that no
 * credential reaches another origin: same-origin redirects are followed as
 * they are; a cross-origin one is refused, or followed with every credential
 * removed (`policy.crossOrigin`); a documented one is returned.
 */
async function fetchFollowing(name: string, fetchImpl: typeof globalThis.fetch, url: string, request: RequestInit, policy: RedirectPolicy): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  let init: RequestInit & { headers: Record<string, string> } = { ...request, headers: { ...(request.headers as Record<string, string> | undefined) }, redirect: 'manual' };
  let stripped = false;
  for (let hops = 0; ; hops++) {
    const response = await fetchImpl(current, init);
    if (response.type === 'opaqueredirect') return followHidden(name, fetchImpl, current, init, policy, origin, stripped);
    if (!REDIRECT_STATUSES.has(response.status) || policy.documented(response.status)) return response;
    const location = response.headers.get('location');
    if (location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hops === MAX_REDIRECTS) throw new TransportError(name, 'redirect', `more than ${MAX_REDIRECTS} redirects`, { status: response.status });
    const target = new URL(location, current);
    if (target.origin !== origin && !stripped) {
      if (policy.crossOrigin === 'refuse') {
        throw new TransportError(
          name,
          'redirect',
          `HTTP ${response.status} redirect to another origin (${target.origin}) not followed; set crossOriginRedirects: 'follow-without-credentials' to follow it without credentials`,
          { status: response.status },
        );
      }
      init = { ...init, headers: withoutCredentialHeaders(init.headers, policy) };
      stripped = true;
    }
    if (stripped) for (const key of policy.query) target.searchParams.delete(key);
    init = redirectedRequest(init, response.status);
    current = target.href;
  }
}

/** The request a redirect asks for: 303 (and 301/302 after a POST) become a GET without body, as fetch does. */
function redirectedRequest<R extends RequestInit & { headers: Record<string, string> }>(init: R, status: number): R {
  const method = (init.method ?? 'GET').toUpperCase();
  if (!((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST'))) return init;
  const headers = Object.fromEntries(Object.entries(init.headers).filter(([key]) => !BODY_HEADERS.has(key.toLowerCase())));
  const { body: _body, ...rest } = init;
  return { ...rest, method: 'GET', headers } as R;
}

function withoutCredentialHeaders(headers: Record<string, string>, policy: RedirectPolicy): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => !policy.headers.includes(key.toLowerCase())));
}

/**
 * A browser hides a manual redirect's status and target. Only a GET or HEAD
 * whose credentials fetch itself keeps from other origins (`Authorization`,
 * or none) is sent again with `redirect: 'follow'`; the final URL then must
 * be of the same origin unless the policy follows other origins.
 */
async function followHidden(
  name: string,
  fetchImpl: typeof globalThis.fetch,
  url: string,
  init: RequestInit & { headers: Record<string, string> },
  policy: RedirectPolicy,
  origin: string,
  stripped: boolean,
): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const portable = Object.keys(init.headers).some((key) => key.toLowerCase() !== 'authorization' && policy.headers.includes(key.toLowerCase()));
  const inQuery = policy.query.some((key) => new URL(url).searchParams.has(key));
  if ((method !== 'GET' && method !== 'HEAD') || portable || inQuery) {
    throw new TransportError(
      name,
      'redirect',
      'the server answered with a redirect whose target this fetch hides (a browser); not followed, since the request carries credentials or a body',
    );
  }
  const response = await fetchImpl(url, { ...init, redirect: 'follow' });
  if (!stripped && policy.crossOrigin === 'refuse' && response.redirected && response.url !== '' && new URL(response.url).origin !== origin) {
    await response.body?.cancel().catch(() => undefined);
    throw new TransportError(name, 'redirect', `redirected to another origin (${new URL(response.url).origin}); not used`, { status: response.status });
  }
  return response;
}

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Headers;
  /** The body's bytes (empty for none). */
  bytes: Uint8Array;
}

/**
 * One request and its body's bytes. `timeoutMs` is the time left for it,
 * `budgetMs` the call's whole budget (named in the timeout message).
 */
async function exchange(
  name: string,
  fetchImpl: typeof globalThis.fetch,
  url: string,
  request: RequestInit,
  timeoutMs: number | undefined,
  budgetMs: number | undefined,
  signal: AbortSignal | undefined,
  redirects: RedirectPolicy,
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

  try {
    // A signal that aborted before the request (while credentials resolved) stops it here.
    controller.signal.throwIfAborted();
    const response = await fetchFollowing(name, fetchImpl, url, { ...request, signal: controller.signal }, redirects);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, bytes };
  } catch (error) {
    if (error instanceof TransportError) throw error;
    if (timedOut) throw new TransportError(name, 'timeout', `no answer within ${budgetMs ?? timeoutMs} ms`, { cause: error });
    if (controller.signal.aborted) throw new TransportError(name, 'aborted', 'request aborted', { cause: error });
    throw new TransportError(name, 'network', `request failed: ${describe(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** How a body is read: by the declared media type its Content-Type matches, else by the Content-Type itself. */
export function responseKind(contentType: string | null, declared: readonly ResponseContentSpec[] | undefined): ResponseKind {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (declared !== undefined && declared.length > 0) {
    const match = declared.find(([mediaType]) => type !== '' && mediaTypeMatches(mediaType, type));
    if (match !== undefined) return match[1];
    const kinds = new Set(declared.map(([, kind]) => kind));
    if (kinds.size === 1) return declared[0]![1];
  }
  if (type === '') return 'json';
  if (type === 'application/json' || type.endsWith('+json') || /\/(.*[.-])?json$/.test(type)) return 'json';
  if (type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml') || type === 'application/x-www-form-urlencoded') return 'text';
  return 'binary';
}

/** The declared contents for a status: exact, else its range (`2XX`), else `default`. */
function declaredFor(spec: OperationSpec, status: number): readonly ResponseContentSpec[] | undefined {
  const responses = spec.responses;
  if (responses === undefined) return undefined;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses['default'];
}

/** Whether a status is a success: any 2xx, or a 1xx/3xx status the operation declares. */
function isSuccessStatus(spec: OperationSpec, status: number): boolean {
  if (status >= 200 && status <= 299) return true;
  if (status >= 400) return false;
  return spec.responses !== undefined && (spec.responses[String(status)] !== undefined || spec.responses[`${String(status)[0]}XX`] !== undefined);
}

type Validate = (status: number, body: unknown, failed: boolean) => Promise<void>;

/** The answer as the caller sees it: the decoded success body, or an error thrown. */
async function readAnswer(name: string, spec: OperationSpec, answer: Answer, conventions: ConventionsSpec, validate: Validate): Promise<ApiResponse> {
  const { status, headers, bytes } = answer;
  const excerpt = (): string => new TextDecoder().decode(bytes.subarray(0, BODY_EXCERPT_LENGTH * 4)).slice(0, BODY_EXCERPT_LENGTH);
  const invalid = (detail: string, cause?: unknown): TransportError =>
    new TransportError(name, 'invalid-body', `HTTP ${status} ${detail}`, { status, bodyExcerpt: excerpt(), ...(cause === undefined ? {} : { cause }) });
  let failed = !isSuccessStatus(spec, status);
  const declared = declaredFor(spec, status);

  // Our own conventions: every body is a JSON object envelope; `result: "error"` fails whatever the status.
  // (A status declaring only text or binary bodies, or a success declaring none, is read as declared.)
  const declaresJson = declared === undefined || declared.some(([, kind]) => kind === 'json');
  const envelope = failed ? conventions.bodyCodedErrors && (declaresJson || declared.length === 0) : conventions.successEnvelope && declaresJson;
  if (envelope) {
    if (bytes.length === 0 && spec.method === 'HEAD') return { status, headers, body: {} };
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      throw invalid('with a body that is not JSON', error);
    }
    if (!isRecord(body)) throw invalid('with a body that is not a JSON object');
    if (conventions.successEnvelope && body['result'] === 'error') failed = true;
    if (failed && conventions.bodyCodedErrors) {
      await validate(status, body, true);
      if (typeof body['code'] !== 'string' || typeof body['msg'] !== 'string') throw invalid('without an error code');
      throw new ApiError(name, status, body as unknown as UnknownErrorBody, headers);
    }
    if (!failed) {
      await validate(status, body, false);
      return { status, headers, body };
    }
    throw new ApiError(name, status, body, headers);
  }

  let body: unknown;
  if (bytes.length === 0 || spec.method === 'HEAD' || (declared !== undefined && declared.length === 0 && !failed)) {
    body = undefined;
  } else {
    const kind = responseKind(headers.get('content-type'), declared);
    if (kind === 'json') {
      try {
        body = JSON.parse(new TextDecoder().decode(bytes));
      } catch (error) {
        if (!failed) throw invalid('with a body that is not JSON', error);
        // An error page that is not the declared JSON (a proxy's HTML) is kept as text.
        body = new TextDecoder().decode(bytes);
      }
    } else if (kind === 'text') {
      body = new TextDecoder().decode(bytes);
    } else {
      body = new Blob([bytes as unknown as ArrayBuffer], { type: headers.get('content-type') ?? '' });
    }
    if (kind === 'json' && body !== undefined) await validate(status, body, failed);
  }
  if (failed) throw new ApiError(name, status, body, headers);
  return { status, headers, body };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Blob);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
