/**
 * Errors: the `ApiError` handlers throw, the errors the bindings raise
 * themselves (framework errors), and how an error is answered: its status
 * and body from the API's {@link ErrorStyle}, which the generated
 * `server.ts` passes when it registers the routes (nothing is set at import).
 */
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { apiHeadersFirst } from './answers.js';

/**
 * Types the generated `server.ts` supplies through module augmentation:
 * `declare module './server-runtime/errors.js' { interface ServerRuntimeTypes { errorBody: ErrorBody } }`.
 */
export interface ServerRuntimeTypes {}

/** An error envelope: `result`, `msg`, `code` and the code's extra fields. */
export interface ErrorEnvelope {
  result: 'error';
  msg: string;
  code: string;
}

/** Every error body the API defines (the union of its error schemas). */
export type ApiErrorBody = ServerRuntimeTypes extends { errorBody: infer B extends ErrorEnvelope }
  ? [B] extends [never]
    ? ErrorEnvelope
    : B
  : ErrorEnvelope;

/** Every error code the API defines. */
export type ApiErrorCode = ApiErrorBody['code'];

/**
 * Errors the bindings raise themselves. A document that declares these codes
 * (error schemas with `x-error-code`) sets their status and schema;
 * otherwise they take these statuses, and their body is the document's own
 * error schema when the generator found one ({@link ErrorFormat}), else the
 * default envelope `{ result: 'error', msg, code }`.
 */
export const FRAMEWORK_ERROR_STATUS = Object.freeze({
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL_ERROR: 500,
} as const);

export type FrameworkErrorCode = keyof typeof FRAMEWORK_ERROR_STATUS;

/**
 * The document's own error schema, as the generator read it
 * (docs/decisions/0015-framework-errors.md): a body with every required
 * field (`template`), and where the message, the HTTP status and the error
 * code go (property paths).
 */
export interface ErrorFormat {
  mediaType: string;
  template: Readonly<Record<string, unknown>>;
  message?: readonly string[];
  status?: readonly string[];
  code?: readonly string[];
}

/** How the API answers errors: given by the generated `server.ts` with its routes. */
export interface ErrorStyle {
  /** The HTTP status of each error code the document declares. */
  status: Readonly<Record<string, number>>;
  /** The document's own error schema; undefined: the default envelope. */
  format: ErrorFormat | undefined;
}

/** The extra fields an error code carries beyond `result`, `msg` and `code`. */
export type ErrorFields<C extends ApiErrorCode> = Omit<Extract<ApiErrorBody, { code: C }>, 'result' | 'msg' | 'code'>;

/**
 * An error a handler throws to answer with that code's envelope and status,
 * e.g. `throw new ApiError('STREAM_DOES_NOT_EXIST', 'Channel does not exist', { stream_id: 9 })`.
 * In a document without body-coded errors, the framework codes
 * ({@link FRAMEWORK_ERROR_STATUS}) answer in the document's error schema;
 * answer other errors with `ctx.respond(status, body)`.
 */
export class ApiError<C extends ApiErrorCode = ApiErrorCode> extends Error {
  readonly code: C;
  readonly fields: ErrorFields<C>;
  /** `WWW-Authenticate` challenges sent with a 401. */
  challenges?: string[];

  constructor(
    code: C,
    msg: string,
    ...fields: {} extends ErrorFields<C> ? [fields?: ErrorFields<C>] : [fields: ErrorFields<C>]
  ) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.fields = fields[0] ?? ({} as ErrorFields<C>);
  }
}

/** An INTERNAL_ERROR for an operation without an implementation, whatever error codes the document declares. */
export function notImplemented(msg: string): ApiError {
  return frameworkError('INTERNAL_ERROR', msg);
}

/** An error the bindings raise, typed by a framework code whether or not the document declares it. */
export function frameworkError(code: FrameworkErrorCode, msg: string): ApiError {
  return new (ApiError as unknown as new (code: string, msg: string) => ApiError)(code, msg);
}

export function tooLarge(): ApiError {
  return frameworkError('REQUEST_TOO_LARGE', 'The request body or uploaded file is too large');
}

/** The HTTP status of an error: the document's, else the framework code's, else 500. */
export function errorStatus(error: ApiError, style: ErrorStyle): number {
  return style.status[error.code] ?? (FRAMEWORK_ERROR_STATUS as Record<string, number>)[error.code] ?? 500;
}

/** The body answering an error: the document's error schema filled in, else the default envelope. */
export function errorBody(error: ApiError, style: ErrorStyle): ApiErrorBody {
  if (style.format !== undefined) return formatError(style.format, error, errorStatus(error, style)) as unknown as ApiErrorBody;
  return { result: 'error', msg: error.message, code: error.code, ...error.fields } as ApiErrorBody;
}

function formatError(format: ErrorFormat, error: ApiError, status: number): Record<string, unknown> {
  const body = structuredClone(format.template) as Record<string, unknown>;
  if (format.message !== undefined) setPath(body, format.message, error.message);
  if (format.status !== undefined) setPath(body, format.status, status);
  if (format.code !== undefined) setPath(body, format.code, error.code);
  Object.assign(body, error.fields);
  return body;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

/** What answering an error needs beyond the error: the API's style and the headers of its scope. */
export interface ErrorScope {
  errors: ErrorStyle;
  /** `RegisterOptions.headers`, names in lower case. */
  headers: readonly (readonly [string, string])[];
  /** The `WWW-Authenticate` challenge of an UNAUTHORIZED that brings none of its own (a handler's), or undefined for none. */
  unauthorizedChallenge: string | undefined;
}

export function sendError(reply: FastifyReply, error: ApiError, scope: ErrorScope): FastifyReply {
  apiHeadersFirst(reply, scope.headers);
  if (error.challenges !== undefined) reply.header('www-authenticate', error.challenges.join(', '));
  else if ((error.code as string) === 'UNAUTHORIZED' && scope.unauthorizedChallenge !== undefined) reply.header('www-authenticate', scope.unauthorizedChallenge);
  reply.code(errorStatus(error, scope.errors));
  const format = scope.errors.format;
  if (format !== undefined && format.mediaType !== 'application/json') {
    return reply.type(format.mediaType).send(JSON.stringify(errorBody(error, scope.errors)));
  }
  return reply.send(errorBody(error, scope.errors));
}

/**
 * For `Fastify({ frameworkErrors })`: errors Fastify raises before any route
 * runs (a malformed escape in the path, an over-long path parameter)
 * answered as a BAD_REQUEST in the API's error body. The generated
 * `server.ts` exports the one for its document.
 */
export function frameworkErrorsOf(errors: ErrorStyle): NonNullable<FastifyServerOptions['frameworkErrors']> {
  const scope: ErrorScope = { errors, headers: [], unauthorizedChallenge: undefined };
  return (error, _request, reply) => {
    void sendError(reply as FastifyReply, frameworkError('BAD_REQUEST', error.message), scope);
  };
}

/**
 * Client errors Fastify and its plugins raise (codes `FST_*`: bad content
 * length, oversize body, ...) become BAD_REQUEST or REQUEST_TOO_LARGE;
 * anything else unexpected is logged and answered with INTERNAL_ERROR.
 */
export function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const status = statusOf(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('FST_') && status >= 400 && status < 500) {
    if (status === 413) return tooLarge();
    if (status === 415) return frameworkError('UNSUPPORTED_MEDIA_TYPE', messageOf(error));
    return frameworkError('BAD_REQUEST', messageOf(error));
  }
  request.log.error({ err: error }, 'unexpected error while handling the request');
  return frameworkError('INTERNAL_ERROR', 'Internal server error');
}

/** The `statusCode` a thrown error carries (Fastify's and its plugins'), else 500. */
export function statusOf(error: unknown): number {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : 500;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
