/**
 * The errors a call throws: `ApiError` (the server refused, typed by body
 * `code` or by status), `TransportError` (no usable answer),
 * and `UnsupportedFeatureError` (refused before sending);
 * `ResponseValidationError` lives with the response checks (`checks.ts`).
 */
import { isRecord } from './serialize.js';

/**
 * Types the generated `client.ts` supplies through module augmentation:
 * `declare module './client-runtime/errors.js' { interface ClientTypes { errorBody: ErrorBody } }`
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
