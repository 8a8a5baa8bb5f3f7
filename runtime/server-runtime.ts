/**
 * The server bindings' runtime: body parsing, authentication, decoding,
 * answers (the success body, `respond(...)` values, the success envelope
 * when the document declares it), framework errors, 404/405 handling and
 * route registration on Fastify. The generated `server.ts` gives it the
 * API's shape (the route table, security schemes, the `Handlers` type, error
 * statuses or the document's error schema) and types its errors by
 * augmenting {@link ServerRuntimeTypes}.
 */
import multipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import type { Decoded, Issue, RawRequest, ValidateOptions } from './validators-runtime.js';

/**
 * Types the generated `server.ts` supplies through module augmentation:
 * `declare module './server-runtime.js' { interface ServerRuntimeTypes { errorBody: ErrorBody } }`.
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

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'TRACE';

/** How a request or response body is written (the model's `BodyKind`). */
export type BodyKind = 'form' | 'multipart' | 'json' | 'text' | 'binary';

/** One declared media type of a body: lower case, without parameters (`image/*` and `*\/*` match by prefix). */
export interface MediaTypeRoute {
  mediaType: string;
  kind: BodyKind;
}

export interface Route {
  /** Operation name: the key in `Handlers`. */
  operation: string;
  operationId: string;
  method: HttpMethod;
  /** Full path in Fastify syntax (`:param`), base path included. */
  path: string;
  /** Whether every alternative of `security` needs credentials. */
  auth: boolean;
  /**
   * The security requirement: alternatives (any one suffices), each the
   * names of the schemes (`securitySchemes`) that must all be sent; an
   * empty alternative makes credentials optional. Absent: HTTP Basic
   * (scheme `basic`) when `auth`, else none.
   */
  security?: readonly (readonly string[])[];
  /** Path parameters whose names Fastify cannot route by: route name (`p0`) -> wire name (`pet-id`). */
  pathNames?: Readonly<Record<string, string>>;
  /** Whether the operation reads cookies (it has cookie parameters): the Cookie header is parsed only then (and for cookie API keys). */
  cookies?: boolean;
  /** Wire name of the file parameter, for an operation that takes exactly one file (any part name is taken for it). */
  file?: string;
  /** A request body taken whole (the model's `mode: 'whole'`): each media type it may come as. */
  body?: { readonly required: boolean; readonly contents: readonly MediaTypeRoute[] };
  /** Status of the primary success response (200 when absent). */
  status?: number;
  /**
   * Media types of each declared response, by status key (`201`, `2XX`,
   * `default`); `[]` for a response without a body. Absent: JSON answers.
   */
  responses?: Readonly<Record<string, readonly MediaTypeRoute[]>>;
}

/** A security scheme of `components.securitySchemes`, as the bindings read its credential. */
export interface SecuritySchemeRoute {
  kind: 'basic' | 'bearer' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'http' | 'mutualTLS';
  /** `apiKey`: where the key travels, and its header, query parameter or cookie name. */
  in?: 'header' | 'query' | 'cookie';
  name?: string;
  /** `http`: the scheme word (`Digest`). */
  scheme?: string;
}

/** HTTP Basic credentials (`Authorization: Basic ...`). */
export interface BasicCredential<S extends string = string> {
  scheme: S;
  kind: 'basic';
  username: string;
  password: string;
}

/** A token sent as `Authorization: Bearer ...` (schemes `bearer`, `oauth2`, `openIdConnect`). */
export interface TokenCredential<S extends string = string, K extends 'bearer' | 'oauth2' | 'openIdConnect' = 'bearer' | 'oauth2' | 'openIdConnect'> {
  scheme: S;
  kind: K;
  token: string;
}

/** An API key from a header, query parameter or cookie. */
export interface ApiKeyCredential<S extends string = string> {
  scheme: S;
  kind: 'apiKey';
  in: 'header' | 'query' | 'cookie';
  /** The header, query parameter or cookie name. */
  name: string;
  value: string;
}

/** Another HTTP authentication scheme: `Authorization: <authScheme> <credentials>`. */
export interface HttpCredential<S extends string = string> {
  scheme: S;
  kind: 'http';
  authScheme: string;
  credentials: string;
}

/** A TLS client certificate the server accepted; inspect `request.raw.socket`. */
export interface MutualTlsCredential<S extends string = string> {
  scheme: S;
  kind: 'mutualTLS';
}

export type Credential = BasicCredential | TokenCredential | ApiKeyCredential | HttpCredential | MutualTlsCredential;

const errorStatus = new Map<string, number>();

/**
 * Errors the bindings raise themselves. A document that declares these codes
 * (error schemas with `x-error-code`) sets their status and schema;
 * otherwise they take these statuses, and their body is the document's own
 * error schema when the generator found one ({@link defineErrorFormat}),
 * else the default envelope `{ result: 'error', msg, code }`.
 */
export const FRAMEWORK_ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL_ERROR: 500,
} as const;

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

let errorFormat: ErrorFormat | undefined;

/** An INTERNAL_ERROR for an operation without an implementation, whatever error codes the document declares. */
export function notImplemented(msg: string): ApiError {
  return frameworkError('INTERNAL_ERROR', msg);
}

function frameworkError(code: FrameworkErrorCode, msg: string): ApiError {
  return new (ApiError as unknown as new (code: string, msg: string) => ApiError)(code, msg);
}

/** Records the HTTP status of every error code; the generated `server.ts` calls it once, as it loads. */
export function defineErrorStatus(statuses: Readonly<Record<string, number>>): void {
  for (const [code, status] of Object.entries(statuses)) errorStatus.set(code, status);
}

/** Makes every {@link ApiError} answer in the document's own error schema; the generated `server.ts` calls it when it has one. */
export function defineErrorFormat(format: ErrorFormat | undefined): void {
  errorFormat = format;
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
  readonly status: number;
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
    this.status = errorStatus.get(code) ?? (FRAMEWORK_ERROR_STATUS as Record<string, number>)[code] ?? 500;
    this.fields = fields[0] ?? ({} as ErrorFields<C>);
  }

  /** The error body sent as the response body. */
  toBody(): ApiErrorBody {
    if (errorFormat !== undefined) return formatError(errorFormat, this) as unknown as ApiErrorBody;
    return { result: 'error', msg: this.message, code: this.code, ...this.fields } as ApiErrorBody;
  }
}

function formatError(format: ErrorFormat, error: ApiError): Record<string, unknown> {
  const body = structuredClone(format.template) as Record<string, unknown>;
  if (format.message !== undefined) setPath(body, format.message, error.message);
  if (format.status !== undefined) setPath(body, format.status, error.status);
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

/** Header values a handler may set on an answer. */
export type ResponseHeaders = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;

/**
 * An answer other than the primary success body: a status, a body (JSON
 * value, text, bytes; `undefined` for none) and headers. Made by
 * {@link respond} or, typed by the operation's declared responses, `ctx.respond`.
 */
export class Responded<S extends number = number, B = unknown, H = ResponseHeaders | undefined> {
  constructor(
    readonly status: S,
    readonly body: B,
    readonly headers: H,
  ) {}
}

/** An answer with `status`, an optional body (sent as the status's declared media type) and headers. */
export function respond<S extends number>(status: S): Responded<S, undefined, undefined>;
export function respond<S extends number, B>(status: S, body: B): Responded<S, B, undefined>;
export function respond<S extends number, B, H extends ResponseHeaders>(status: S, body: B, headers: H): Responded<S, B, H>;
export function respond(status: number, body?: unknown, headers?: ResponseHeaders): Responded {
  return new Responded(status, body, headers);
}

/** What the bindings sent for a {@link constantBody} value: its bytes, made at its first answer. */
interface ConstantBytes {
  /** The body in the success envelope (`result`, `msg`, then the body's fields). */
  enveloped?: Buffer;
  /** The body as it is. */
  json?: Buffer;
}

const constantBytes = new WeakMap<object, ConstantBytes>();

/**
 * Marks JSON data as a constant answer: deep-frozen here (plain objects,
 * arrays, strings, numbers, booleans, null, and undefined where
 * `JSON.stringify` leaves it out; anything else is a TypeError), so that the bindings serialise it once, at its first answer,
 * and send the stored bytes to every later request whose answer it is (as
 * the primary success body of a JSON operation, enveloped or not). The bytes
 * are those `JSON.stringify` gives, as for any other answer. For payloads
 * that change rarely and are kept whole (a cached settings document, a list
 * rebuilt on invalidation, a canned reply): make a new constant when the
 * data changes; the old one's bytes go with it. A string, number, boolean or
 * null is returned as it is (nothing to store).
 */
export function constantBody<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !constantBytes.has(value)) {
    freezeJson(value, '(body)', new Set());
    constantBytes.set(value, {});
  }
  return value;
}

/** A handler answering every request with one constant body ({@link constantBody}), from one settled promise. */
export function constantHandler<R>(body: R): () => Promise<R> {
  const answer = Promise.resolve(constantBody(body));
  return () => answer;
}

function freezeJson(value: unknown, path: string, open: Set<object>): void {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return;
  const kind = typeof value !== 'object' ? typeof value : Array.isArray(value) ? 'array' : 'object';
  const prototype = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  const plain = kind === 'array' ? prototype === Array.prototype : kind === 'object' && (prototype === Object.prototype || prototype === null);
  if (!plain) throw new TypeError(`constantBody takes JSON data only (plain objects, arrays, strings, numbers, booleans, null): ${path} is ${describe(value)}`);
  const object = value as object;
  if (open.has(object)) throw new TypeError(`constantBody takes JSON data only: ${path} refers back to an enclosing value`);
  open.add(object);
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(object))) {
    if (kind === 'array' && key === 'length') continue;
    if (!('value' in descriptor)) throw new TypeError(`constantBody takes JSON data only: ${path}.${key} is an accessor`);
    if (descriptor.enumerable === true) freezeJson(descriptor.value, `${path}.${key}`, open);
  }
  open.delete(object);
  Object.freeze(object);
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return `a ${typeof value}`;
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name === undefined || name === '' ? 'an object of another kind' : `a ${name}`;
}

/** The declared answers of `R` whose status may be `S` (an exact status, else a range or `default` typed `number`). */
export type ResponseFor<R, S extends number> = R extends Responded<infer RS, unknown, unknown> ? (S extends RS ? R : never) : never;

type RespondRest<R> =
  R extends Responded<number, infer B, infer H>
    ? undefined extends B
      ? undefined extends H
        ? [body?: B, headers?: H]
        : [body: B, headers: H]
      : undefined extends H
        ? [body: B, headers?: H]
        : [body: B, headers: H]
    : never;

/** `respond` typed by an operation's declared responses `R`: only their statuses, bodies and headers. */
export type Respond<R> = <S extends R extends Responded<infer RS, unknown, unknown> ? RS : never>(
  status: S,
  ...rest: RespondRest<ResponseFor<R, S>>
) => ResponseFor<R, S>;

type EnvelopeField = 'result' | 'msg' | 'ignored_parameters_unsupported';

/** What a handler returns under the success-envelope convention: the success body without the envelope fields the bindings add. */
export type HandlerResult<R> = R extends unknown ? Omit<R, EnvelopeField> : never;

export interface HandlerContext<User, Responses = Responded> {
  /** The authenticated caller (`undefined` for operations without authentication, or when credentials are optional and none came). */
  user: User;
  request: FastifyRequest;
  /** For handlers that answer themselves; once the reply is sent, the returned value is ignored. */
  reply: FastifyReply;
  log: FastifyBaseLogger;
  /** An answer with another declared status, response headers, or no body: `return ctx.respond(201, created, { location })`. */
  respond: Respond<Responses>;
}

/** A handler returns the primary success body, or a `respond(...)` value for any declared response. */
export type Handler<Params, Result, User, Responses = never> = (
  params: Params,
  ctx: HandlerContext<User, Responses>,
) => Promise<Result | Responses>;

/**
 * Checks a credential; returns the user, or nothing when it is wrong. Called
 * once per scheme of the security alternative the request satisfies.
 */
export type Authenticate<User, C = Credential> = (
  credential: C,
  request: FastifyRequest,
) => Promise<User | null | undefined> | User | null | undefined;

export interface RegisterOptions<User, C = Credential> {
  authenticate: Authenticate<User, C>;
  /** Largest accepted request body, and largest uploaded file, in bytes (default 25 MiB). */
  bodyLimit?: number;
  /** The realm of `WWW-Authenticate: Basic` challenges (default: the document's title). */
  realm?: string;
  /**
   * Check every JSON success body against the spec in strict mode (no
   * unlisted fields); a body that fails is logged and answered with
   * INTERNAL_ERROR. For tests and development.
   */
  validateResponses?: boolean;
  /**
   * Headers sent with every answer of the API's routes, errors and the
   * 404/405 answers under its base path included (a version header, for
   * example), ahead of the other headers. The bindings set them themselves:
   * unlike an application-wide onRequest hook this adds no hook to their
   * routes, and a route without hooks spares Fastify its hook runner.
   */
  headers?: Readonly<Record<string, string>>;
}

/** What the generated `server.ts` knows of the whole API. */
export interface ApiSettings {
  title: string;
  securitySchemes: Readonly<Record<string, SecuritySchemeRoute>>;
  /** Success bodies get `result`/`msg` and `ignored_parameters_unsupported` (the document's convention). */
  successEnvelope: boolean;
  /**
   * Parameters may come as form or multipart fields on every operation (this
   * project's own convention): another body type is a 400 that says so,
   * rather than a 415; Basic credentials are `email:api_key`.
   */
  formFields: boolean;
}

const DEFAULT_BODY_LIMIT = 25 * 1024 * 1024;
/** Multipart parts beyond this many are refused, so a body of tiny parts cannot pile up. */
const MAX_PARTS = 1000;

/** One operation ready to bind: its route, decoder, handler and response check. */
export interface Binding {
  route: Route;
  register(scope: FastifyInstance, settings: Settings): void;
}

/** Pairs an operation's decoder with its handler, checking that they agree on the parameters. */
export function operation<Params, Result, User, Responses>(
  route: Route,
  decode: (raw: RawRequest) => Decoded<Params>,
  handler: Handler<Params, Result, User, Responses>,
  validate: (body: unknown, options?: ValidateOptions) => Issue[],
): Binding {
  return {
    route,
    register: (scope, settings) =>
      bind(scope, settings, route, decode, handler as unknown as Handler<Params, unknown, User, unknown>, validate),
  };
}

/**
 * Registers every operation under `basePath` in an encapsulated plugin, with
 * its own body parsers, error handler and 404/405 handling, so routes the
 * application adds outside `basePath` keep their own behaviour.
 */
export async function registerOperations<User, C = Credential>(
  app: FastifyInstance,
  basePath: string,
  bindings: readonly Binding[],
  options: RegisterOptions<User, C>,
  api: ApiSettings = LEGACY_API,
): Promise<void> {
  // Operations served under another base path (their own `servers`) put the whole API scope at the root.
  const prefix = bindings.every(({ route }) => route.path.startsWith(basePath)) ? basePath : '';
  const settings: Settings = {
    basePath: prefix,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    validateResponses: options.validateResponses ?? false,
    authenticate: options.authenticate as Authenticate<unknown, Credential>,
    realm: options.realm ?? api.title,
    // Fastify keeps header names in lower case: a name stored so is not lower-cased again per request.
    headers: Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const),
    api,
    routePatterns: bindings.map(({ route }) => ({ method: route.method, path: route.path, pattern: pathPattern(route.path) })),
  };
  await app.register(
    async (scope) => {
      await configureScope(scope, settings);
      // Two operations on one method and path (path keys differing only by a fragment): the first is served.
      const seen = new Set<string>();
      for (const binding of bindings) {
        const key = `${binding.route.method} ${binding.route.path.replace(/:[^/]+/g, ':')}`;
        if (seen.has(key)) continue;
        seen.add(key);
        binding.register(scope, settings);
      }
    },
    { prefix },
  );
}

/** Settings of bindings generated before `ApiSettings` existed: this project's own conventions, HTTP Basic. */
const LEGACY_API: ApiSettings = {
  title: 'teamchat',
  securitySchemes: { basic: { kind: 'basic' } },
  successEnvelope: true,
  formFields: true,
};

interface Settings {
  basePath: string;
  bodyLimit: number;
  validateResponses: boolean;
  authenticate: Authenticate<unknown, Credential>;
  realm: string;
  /** RegisterOptions.headers, names in lower case. */
  headers: readonly (readonly [string, string])[];
  api: ApiSettings;
  routePatterns: { method: HttpMethod; path: string; pattern: RegExp }[];
}

type FormFields = Record<string, string | string[]>;
type RawFile = NonNullable<RawRequest['files']>[number];

/** The decoder input with everything the bindings read (headers, cookies, a whole body). */
export type FullRawRequest = RawRequest & {
  headers?: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string | string[]>;
  content?: { mediaType: string; value: unknown };
};

/** A body of a type no parser of the scope handles: its bytes, read up to the body limit. */
class OtherBody {
  constructor(
    readonly contentType: string | undefined,
    readonly data: Buffer,
  ) {}
}

/** Where the authentication hook leaves the caller for the handler: a request decoration, cheaper than a WeakMap. */
const kUser = Symbol('teamchat.user');
type UserSlot = FastifyRequest & { [kUser]?: unknown };
/** The parsed Cookie header, once per request (a decoration too). */
const kCookies = Symbol('teamchat.cookies');

async function configureScope(scope: FastifyInstance, settings: Settings): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.decorateRequest(kUser, undefined);
  scope.decorateRequest(kCookies, undefined);
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: settings.bodyLimit },
    (_request, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (error) {
        done(error as Error);
      }
    },
  );
  await scope.register(streamingMultipart, {
    limits: { fileSize: settings.bodyLimit, fieldSize: settings.bodyLimit, parts: MAX_PARTS },
    throwFileSizeLimit: true,
  });
  // Every other type arrives as bytes; the route decides what it takes (its declared media types).
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: settings.bodyLimit }, (request, body, done) => {
    done(null, new OtherBody(request.headers['content-type'], body as Buffer));
  });
  scope.setErrorHandler((error, request, reply) => {
    if (reply.sent) {
      request.log.error({ err: error }, 'error after the reply was sent');
      return;
    }
    return sendError(reply, toApiError(error, request), settings);
  });
  scope.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = allowedMethods(settings.routePatterns, path);
    if (allowed.length === 0) {
      return sendError(reply, frameworkError('NOT_FOUND', `No operation at ${path}`), settings);
    }
    reply.header('allow', allowed.join(', '));
    return sendError(reply, frameworkError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed on this path`), settings);
  });
}

/**
 * `@fastify/multipart` without the hooks it adds for its disk mode
 * (`saveRequestFiles`): an `onRequest` hook that listens for the response's
 * 'close' and an `onResponse` hook, both there to delete temporary files.
 * The bindings only read parts as streams into memory (`request.parts()`), so
 * there is never a file to delete, and those two async hooks would otherwise
 * run on every request of every operation (every operation accepts
 * multipart bodies). The parser and the request decorators are the plugin's own.
 */
const streamingMultipart: FastifyPluginCallback<FastifyMultipartOptions> = Object.assign(
  (instance: FastifyInstance, options: FastifyMultipartOptions, done: (error?: Error) => void) => {
    const withoutCleanupHooks = new Proxy(instance, {
      get(target, property, receiver) {
        if (property !== 'addHook') return Reflect.get(target, property, receiver) as unknown;
        return (name: string, hook: unknown) => {
          if (name === 'onRequest' || name === 'onResponse') return receiver;
          (target.addHook as (name: string, hook: unknown) => unknown)(name, hook);
          return receiver;
        };
      },
    });
    (multipart as unknown as FastifyPluginCallback<FastifyMultipartOptions>)(withoutCleanupHooks, options, done);
  },
  // Runs in the API scope itself, as the plugin does (fastify-plugin's marker).
  { [Symbol.for('skip-override')]: true },
);

/** Per operation, what its authentication hook tries: each alternative's schemes, and whether none is needed. */
interface AuthPlan {
  alternatives: { name: string; scheme: SecuritySchemeRoute }[][];
  optional: boolean;
  challenges: string[];
  /** The user `authenticate` gave, or 401: made once per operation, not per request. */
  check: (user: unknown) => unknown;
}

function authPlan(route: Route, settings: Settings): AuthPlan | undefined {
  const security = route.security ?? (route.auth ? [['basic']] : []);
  const alternatives = security.filter((alternative) => alternative.length > 0);
  if (alternatives.length === 0) return undefined;
  const schemes = route.security === undefined ? LEGACY_API.securitySchemes : settings.api.securitySchemes;
  const resolved = alternatives.map((alternative) =>
    alternative.map((name) => {
      const scheme = schemes[name];
      if (scheme === undefined) throw new Error(`${route.operationId}: unknown security scheme "${name}"`);
      return { name, scheme };
    }),
  );
  const challenges = [...new Set(resolved.flat().flatMap(({ scheme }) => challengeOf(scheme, settings.realm)))];
  const invalid = settings.api.formFields ? 'Invalid email or API key' : 'Invalid credentials';
  const plan: AuthPlan = {
    alternatives: resolved,
    optional: security.some((alternative) => alternative.length === 0),
    challenges,
    check: (user) => {
      if (user === undefined || user === null) throw unauthorized(invalid, plan);
      return user;
    },
  };
  return plan;
}

function challengeOf(scheme: SecuritySchemeRoute, realm: string): string[] {
  switch (scheme.kind) {
    case 'basic':
      return [`Basic realm=${JSON.stringify(realm)}`];
    case 'bearer':
    case 'oauth2':
    case 'openIdConnect':
      return ['Bearer'];
    case 'http':
      return scheme.scheme === undefined ? [] : [scheme.scheme];
    default:
      return [];
  }
}

/** A decoded whole body that is the route's; found once per route. */
interface BodyPlan {
  required: boolean;
  contents: readonly MediaTypeRoute[];
  form?: MediaTypeRoute;
  multipart?: MediaTypeRoute;
}

function bind<Params, User>(
  scope: FastifyInstance,
  settings: Settings,
  route: Route,
  decode: (raw: RawRequest) => Decoded<Params>,
  handler: Handler<Params, unknown, User, unknown>,
  validate: (body: unknown, options?: ValidateOptions) => Issue[],
): void {
  const auth = authPlan(route, settings);
  const body: BodyPlan | undefined =
    route.body === undefined
      ? undefined
      : {
          ...route.body,
          form: route.body.contents.find((content) => content.kind === 'form'),
          multipart: route.body.contents.find((content) => content.kind === 'multipart'),
        };
  const status = route.status ?? 200;
  const primary = route.responses === undefined ? undefined : responseContents(route.responses, status);
  // The convention wraps JSON success bodies only.
  const envelope = settings.api.successEnvelope && (primary === undefined || primary[0]?.kind === 'json');
  // An operation whose parameters come only from the path, the query and form fields needs none of
  // readRequest's cases (whole bodies, renamed path parameters, cookies, a single file): decided once, here.
  const plain = body === undefined && route.pathNames === undefined && route.cookies !== true && route.file === undefined;
  const respondHere = respond as unknown as Respond<unknown>;
  // Credentials checked by the handler itself rather than an onRequest hook (methods Fastify reads no body for).
  const handlerAuth = BODYLESS_METHODS.has(route.method) ? auth : undefined;
  const readPlainOrFull = (request: FastifyRequest): FullRawRequest =>
    plain ? readPlainRequest(request, route, settings) : readRequest(request, route, body, settings);
  // A constant body (constantBody) is sent as stored bytes where it would go out as JSON with Fastify's default type.
  const storedJson =
    envelope ||
    primary === undefined ||
    primary.length === 0 ||
    (primary[0]!.kind === 'json' && (primary[0]!.mediaType === 'application/json' || primary[0]!.mediaType.includes('*')));

  /** Sends what the handler answered; runs after the handler, at once or when its promise settles. */
  const answer = (reply: FastifyReply, result: unknown, unsupported: readonly string[]): void => {
    if (reply.sent) return;
    if (result instanceof Responded) {
      sendResponded(reply, route, result);
      return;
    }
    const constant = storedJson ? constantBytes.get(result as object) : undefined;
    if (constant !== undefined && unsupported.length === 0 && !reply.hasHeader('content-type')) {
      let bytes: Buffer;
      if (envelope) {
        if (settings.validateResponses || constant.enveloped === undefined) {
          const enveloped = { result: 'success', msg: '', ...(result as object) };
          checkResponse(settings, route, validate, enveloped);
          bytes = constant.enveloped ??= Buffer.from(JSON.stringify(enveloped));
        } else bytes = constant.enveloped;
      } else {
        if (primary === undefined || primary[0]?.kind === 'json') checkResponse(settings, route, validate, result);
        bytes = constant.json ??= Buffer.from(JSON.stringify(result));
      }
      reply.code(status).type(JSON_TYPE).send(bytes);
      return;
    }
    if (envelope) {
      const enveloped: Record<string, unknown> = { result: 'success', msg: '', ...(result as object) };
      if (unsupported.length > 0) enveloped.ignored_parameters_unsupported = unsupported;
      checkResponse(settings, route, validate, enveloped);
      reply.code(status).send(enveloped);
      return;
    }
    if (primary === undefined || primary[0]?.kind === 'json') checkResponse(settings, route, validate, result);
    sendBody(reply, status, primary, result);
  };

  /** Decodes, runs the handler and answers; a promise only when the handler gives one. */
  const run = (request: FastifyRequest, reply: FastifyReply, raw: RawRequest): void => {
    const decoded = decode(raw);
    if (!decoded.ok) throw frameworkError(decoded.error.rule === 'mediaType' ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', decoded.error.msg);
    const user = (request as UserSlot)[kUser] as User;
    const result = handler(decoded.value, { user, request, reply, log: request.log, respond: respondHere });
    const unsupported = decoded.unsupported;
    if (!isPromise(result)) {
      answer(reply, result, unsupported);
      return;
    }
    result.then(
      (value) => {
        try {
          answer(reply, value, unsupported);
        } catch (error) {
          failed(reply, error);
        }
      },
      (error: unknown) => failed(reply, error),
    );
  };

  scope.route({
    method: route.method,
    // Fastify answers HEAD for every GET route unless the document declares its own HEAD operation there.
    ...(route.method === 'GET' && settings.routePatterns.some((other) => other.method === 'HEAD' && other.path === route.path) && { exposeHeadRoute: false }),
    url: route.path.slice(settings.basePath.length),
    bodyLimit: settings.bodyLimit,
    // Before the body is read: bad credentials win over a bad body. A callback hook, so an authenticator
    // that answers at once costs no promise. Methods without a body (GET, HEAD, TRACE) go from the
    // onRequest hooks straight to the handler, so there the handler authenticates first itself: a route
    // without hooks spares Fastify its hook runner on every request.
    ...(auth !== undefined &&
      handlerAuth === undefined && {
        onRequest: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
          let user: unknown;
          try {
            user = authenticateRequest(request, auth, settings);
          } catch (error) {
            done(error as Error);
            return;
          }
          if (isPromise(user)) {
            user.then(
              (found) => {
                (request as UserSlot)[kUser] = found;
                done();
              },
              (error: unknown) => done((error ?? new Error('authenticate rejected without a reason')) as Error),
            );
          } else {
            (request as UserSlot)[kUser] = user;
            done();
          }
        },
      }),
    // Not an async function: Fastify catches what it throws, and the answer is sent from the handler's own
    // promise (no promise of ours for Fastify to wait on). Multipart bodies are read asynchronously first.
    handler: (request, reply) => {
      setApiHeaders(reply, settings);
      if (handlerAuth !== undefined) {
        const user = authenticateRequest(request, handlerAuth, settings);
        if (isPromise(user)) {
          user
            .then((found) => {
              (request as UserSlot)[kUser] = found;
              run(request, reply, readPlainOrFull(request));
            })
            .then(undefined, (error: unknown) => failed(reply, error ?? new Error('authenticate rejected without a reason')));
          return;
        }
        (request as UserSlot)[kUser] = user;
      }
      if (request.isMultipart()) {
        readMultipartRequest(request, route, body, settings.bodyLimit)
          .then((raw) => run(request, reply, raw))
          .then(undefined, (error: unknown) => failed(reply, error));
        return;
      }
      run(request, reply, readPlainOrFull(request));
    },
  });
}

/** Methods whose requests Fastify hands to the route without reading a body (its `bodyless` methods). */
const BODYLESS_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'TRACE']);

/** The Content-Type Fastify gives the JSON text it serialises. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** A handler's promise rejected, or answering its result failed: Fastify's error handling, as for a thrown error. */
function failed(reply: FastifyReply, error: unknown): void {
  if (reply.sent) {
    reply.log.error({ err: error }, 'error after the reply was sent');
    return;
  }
  reply.send(error instanceof Error ? error : Object.assign(new Error('The handler failed with a value that is not an Error'), { cause: error }));
}

function checkResponse(settings: Settings, route: Route, validate: (body: unknown, options?: ValidateOptions) => Issue[], body: unknown): void {
  if (!settings.validateResponses) return;
  const issues = validate(body, { strict: true });
  if (issues.length > 0) {
    const found = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
    throw new Error(`${route.operationId}: the handler's result does not match the spec: ${found}`);
  }
}

/** The declared media types of a status: the exact status, then its range (`2XX`), then `default`. */
function responseContents(responses: Readonly<Record<string, readonly MediaTypeRoute[]>>, status: number): readonly MediaTypeRoute[] | undefined {
  return responses[status] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
}

function sendResponded(reply: FastifyReply, route: Route, answer: Responded): FastifyReply {
  if (answer.headers !== undefined && answer.headers !== null) {
    for (const [name, value] of Object.entries(answer.headers as ResponseHeaders)) {
      if (value !== undefined) reply.header(name, Array.isArray(value) ? value : String(value));
    }
  }
  const contents = route.responses === undefined ? undefined : responseContents(route.responses, answer.status);
  return sendBody(reply, answer.status, contents, answer.body);
}

/** Sends `body` as the declared media type (the one named by a Content-Type the handler set, else the first). */
function sendBody(reply: FastifyReply, status: number, contents: readonly MediaTypeRoute[] | undefined, body: unknown): FastifyReply {
  reply.code(status);
  if (body === undefined) return reply.send();
  if (contents === undefined || contents.length === 0) return sendJson(reply, undefined, body);
  const set = reply.getHeader('content-type');
  const content = (typeof set === 'string' && matchMediaType(contents, set)) || contents[0]!;
  switch (content.kind) {
    case 'text':
      if (set === undefined) reply.type(`${concrete(content.mediaType, 'text/plain')}; charset=utf-8`);
      return reply.send(typeof body === 'string' ? body : String(body));
    case 'binary':
    case 'form':
    case 'multipart':
      if (set === undefined) reply.type(concrete(content.mediaType, 'application/octet-stream'));
      if (body instanceof Uint8Array && !Buffer.isBuffer(body)) return reply.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
      return reply.send(body);
    default:
      return sendJson(reply, set === undefined ? content.mediaType : undefined, body);
  }
}

function sendJson(reply: FastifyReply, mediaType: string | undefined, body: unknown): FastifyReply {
  const type = mediaType === undefined || mediaType === 'application/json' || mediaType.includes('*') ? undefined : mediaType;
  // Fastify sends a string as it is; a JSON string (or another scalar) is serialized here.
  if (typeof body !== 'object' || body === null || type !== undefined) {
    return reply.type(type ?? 'application/json; charset=utf-8').send(JSON.stringify(body));
  }
  return reply.send(body);
}

/** A wildcard media type (`image/*`) cannot be sent as is: the fallback then. */
function concrete(mediaType: string, fallback: string): string {
  return mediaType.includes('*') ? fallback : mediaType;
}

function unauthorized(msg: string, plan: AuthPlan): ApiError {
  const error = frameworkError('UNAUTHORIZED', msg);
  if (plan.challenges.length > 0) error.challenges = plan.challenges;
  return error;
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** A credential of the wrong form: the message for the 401 if no alternative fits. */
class Malformed {
  constructor(readonly message: string) {}
}

/**
 * The user the request's credentials name, at once or as a promise, as
 * `authenticate` answers: the first alternative whose credentials are all
 * present is checked; none present is 401 unless credentials are optional.
 */
function authenticateRequest(request: FastifyRequest, plan: AuthPlan, settings: Settings): unknown {
  const alternatives = plan.alternatives;
  // The common case, one scheme required: no arrays, no loops.
  if (alternatives.length === 1 && alternatives[0]!.length === 1 && !plan.optional) {
    const { name, scheme } = alternatives[0]![0]!;
    const found = credentialOf(request, name, scheme, settings);
    if (found === undefined) throw unauthorized(missingMessage(plan), plan);
    if (found instanceof Malformed) throw unauthorized(found.message, plan);
    const user = settings.authenticate(found, request);
    return isPromise(user) ? Promise.resolve(user).then(plan.check) : plan.check(user);
  }
  let problem: string | undefined;
  for (const alternative of plan.alternatives) {
    const credentials: Credential[] = [];
    for (const { name, scheme } of alternative) {
      const found = credentialOf(request, name, scheme, settings);
      if (found instanceof Malformed) problem ??= found.message;
      if (found === undefined || found instanceof Malformed) break;
      credentials.push(found);
    }
    if (credentials.length < alternative.length) continue;
    const check = plan.check;
    if (credentials.length === 1) {
      const user = settings.authenticate(credentials[0]!, request);
      return isPromise(user) ? Promise.resolve(user).then(check) : check(user);
    }
    return Promise.all(credentials.map((credential) => settings.authenticate(credential, request))).then((users) => users.map(check)[0]);
  }
  if (plan.optional) return undefined;
  throw unauthorized(problem ?? missingMessage(plan), plan);
}

function missingMessage(plan: AuthPlan): string {
  const only = plan.alternatives.length === 1 && plan.alternatives[0]!.length === 1 ? plan.alternatives[0]![0]!.scheme : undefined;
  if (only?.kind === 'basic') return 'Missing HTTP Basic credentials';
  const names = plan.alternatives.map((alternative) => alternative.map(({ name }) => name).join(' + ')).join(' or ');
  return `Missing credentials: this operation needs ${names}`;
}

/** The credential of one scheme in the request: undefined when absent, Malformed when present in the wrong form. */
function credentialOf(request: FastifyRequest, name: string, scheme: SecuritySchemeRoute, settings: Settings): Credential | Malformed | undefined {
  switch (scheme.kind) {
    case 'basic': {
      const header = request.headers.authorization;
      if (header === undefined || header === '') return undefined;
      // The connection's previous request sent the same header (a keep-alive client sends its credentials
      // with every request): its decoding again. Only the decoding is kept; `authenticate` still checks them.
      // HTTP/1 only: an HTTP/2 request's socket is a proxy that throws once its stream is gone.
      const socket = request.raw.httpVersionMajor === 1 ? (request.raw.socket as BasicSocket | null | undefined) : undefined;
      const kept = socket?.[kBasic];
      if (kept !== undefined && sameText(kept.header, header)) return { scheme: name, kind: 'basic', username: kept.username, password: kept.password };
      const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
      if (match?.[1] === undefined) return new Malformed('Malformed Authorization header: expected HTTP Basic credentials');
      const credentials = base64Text(match[1]);
      const colon = credentials.indexOf(':');
      if (colon <= 0) {
        return new Malformed(`Malformed HTTP Basic credentials: expected ${settings.api.formFields ? 'email:api_key' : 'username:password'}`);
      }
      const username = credentials.slice(0, colon);
      const password = credentials.slice(colon + 1);
      if (socket !== null && socket !== undefined) socket[kBasic] = { header, username, password };
      return { scheme: name, kind: 'basic', username, password };
    }
    case 'bearer':
    case 'oauth2':
    case 'openIdConnect': {
      const token = authorization(request, 'Bearer');
      if (token === undefined) return undefined;
      if (token instanceof Malformed) return new Malformed('Malformed Authorization header: expected a Bearer token');
      return { scheme: name, kind: scheme.kind, token };
    }
    case 'http': {
      const word = scheme.scheme ?? '';
      const credentials = authorization(request, word);
      if (credentials === undefined) return undefined;
      if (credentials instanceof Malformed) return new Malformed(`Malformed Authorization header: expected ${word} credentials`);
      return { scheme: name, kind: 'http', authScheme: word, credentials };
    }
    case 'apiKey': {
      const key = scheme.name ?? '';
      const where = scheme.in ?? 'header';
      const found =
        where === 'header'
          ? request.headers[key.toLowerCase()]
          : where === 'query'
            ? (request.query as FormFields | undefined)?.[key]
            : cookiesOf(request)[key];
      const value = Array.isArray(found) ? found[0] : found;
      if (value === undefined || value === '') return undefined;
      return { scheme: name, kind: 'apiKey', in: where, name: key, value };
    }
    case 'mutualTLS':
      return (request.raw.socket as { authorized?: boolean }).authorized === true ? { scheme: name, kind: 'mutualTLS' } : undefined;
  }
}

/**
 * The last well-formed HTTP Basic header a connection sent, decoded (see
 * credentialOf): one entry per connection, gone with it, compared with the
 * next request's header on the same connection only.
 */
const kBasic = Symbol('teamchat.basic');
type BasicSocket = { [kBasic]?: { header: string; username: string; password: string } };

/**
 * Whether `kept` and `sent` are the same text, in a time that depends on the
 * length of `sent` only (no early exit at the first difference): how much of
 * a header matches the one kept for its connection does not show in the
 * time. Exported for tests.
 */
export function sameText(kept: string, sent: string): boolean {
  let difference = kept.length ^ sent.length;
  // Past the end of `kept`, charCodeAt is NaN, which `^` reads as 0; the lengths differ then anyway.
  for (let i = 0; i < sent.length; i++) difference |= kept.charCodeAt(i) ^ sent.charCodeAt(i);
  return difference === 0;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Base64 text decoded as UTF-8, as `Buffer.from(data, 'base64').toString('utf8')`
 * gives it. `atob` first (about 50 ns against 140 in a tight loop on Node 20):
 * where it accepts the text and the bytes are ASCII, its answer is the same;
 * otherwise (other bytes, padding it refuses) the Buffer decodes.
 */
function base64Text(data: string): string {
  let text: string | undefined;
  try {
    text = atob(data);
  } catch {
    text = undefined;
  }
  if (text !== undefined && !NON_ASCII.test(text)) return text;
  return Buffer.from(data, 'base64').toString('utf8');
}

/** The credentials after `<word> ` in the Authorization header; Malformed for another scheme or none after the word. */
function authorization(request: FastifyRequest, word: string): string | Malformed | undefined {
  const header = request.headers.authorization;
  if (header === undefined || header === '') return undefined;
  const text = header.trim();
  const space = text.indexOf(' ');
  if (space <= 0 || text.slice(0, space).toLowerCase() !== word.toLowerCase()) return new Malformed('');
  const rest = text.slice(space + 1).trim();
  return rest === '' ? new Malformed('') : rest;
}

const NO_COOKIES: Record<string, string | string[]> = Object.freeze(Object.create(null) as Record<string, string | string[]>);

/**
 * The Cookie header as name -> value (`name=value; other=x`): values
 * percent-decoded where that works, surrounding quotes removed, a name sent
 * more than once an array. A few lines rather than a package: the `cookie`
 * package's current major needs Node 22.
 */
export function parseCookies(header: string | undefined): Record<string, string | string[]> {
  if (header === undefined || header === '') return NO_COOKIES;
  const cookies: Record<string, string | string[]> = Object.create(null);
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    if (name === '') continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        // Kept as sent.
      }
    }
    appendField(cookies, name, value);
  }
  return cookies;
}

function cookiesOf(request: FastifyRequest): Record<string, string | string[]> {
  const slot = request as FastifyRequest & { [kCookies]?: Record<string, string | string[]> };
  return (slot[kCookies] ??= parseCookies(request.headers.cookie));
}

/** The raw parameters of a request whose body (if any) Fastify has parsed already. */
function readRequest(request: FastifyRequest, route: Route, body: BodyPlan | undefined, settings: Settings): FullRawRequest {
  const raw: FullRawRequest = {
    path: pathOf(request, route),
    query: request.query as FormFields,
    body: NO_FIELDS,
    headers: request.headers,
    cookies: route.cookies === true ? cookiesOf(request) : NO_COOKIES,
  };
  const sent = request.body;
  if (sent instanceof OtherBody) {
    if (body === undefined) throw refusedBody(sent.contentType, route, settings);
    const content = matchMediaType(body.contents, sent.contentType ?? '');
    if (content === undefined || content.kind === 'form' || content.kind === 'multipart') throw unsupportedMediaType(sent.contentType, body);
    raw.content = { mediaType: content.mediaType, value: parseContent(content, sent.data) };
  } else if (sent !== undefined && sent !== null) {
    if (body === undefined) raw.body = sent as FormFields;
    else if (body.form !== undefined) raw.content = { mediaType: body.form.mediaType, value: sent };
    else throw unsupportedMediaType(request.headers['content-type'], body);
  } else if (body?.required === true) {
    throw frameworkError('BAD_REQUEST', `A request body is required (${body.contents.map((content) => content.mediaType).join(', ')})`);
  }
  return withFile(raw, route);
}

/** {@link readRequest} for an operation without a whole body, renamed path parameters, cookies or a single file. */
function readPlainRequest(request: FastifyRequest, route: Route, settings: Settings): FullRawRequest {
  const sent = request.body;
  if (sent instanceof OtherBody) throw refusedBody(sent.contentType, route, settings);
  return {
    path: request.params as Record<string, string>,
    query: request.query as FormFields,
    body: sent === undefined || sent === null ? NO_FIELDS : (sent as FormFields),
    headers: request.headers,
    cookies: NO_COOKIES,
  };
}

/** The raw parameters of a multipart request, reading its parts. */
async function readMultipartRequest(request: FastifyRequest, route: Route, body: BodyPlan | undefined, bodyLimit: number): Promise<FullRawRequest> {
  if (body !== undefined && body.multipart === undefined) throw unsupportedMediaType(request.headers['content-type'], body);
  const { fields, files } = await readMultipart(request, bodyLimit);
  const raw: FullRawRequest = {
    path: pathOf(request, route),
    query: request.query as FormFields,
    body: fields,
    files,
    headers: request.headers,
    cookies: route.cookies === true ? cookiesOf(request) : NO_COOKIES,
  };
  if (body?.multipart !== undefined) raw.content = { mediaType: body.multipart.mediaType, value: fields };
  return withFile(raw, route);
}

function pathOf(request: FastifyRequest, route: Route): Record<string, string> {
  const params = request.params as Record<string, string>;
  if (route.pathNames === undefined) return params;
  const renamed: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) renamed[route.pathNames[name] ?? name] = value;
  return renamed;
}

/** An operation with exactly one file parameter takes its single file part whatever the part is called. */
function withFile(raw: FullRawRequest, route: Route): FullRawRequest {
  if (route.file !== undefined) {
    const files = raw.files ?? [];
    if (files.length !== 1) {
      throw frameworkError('BAD_REQUEST', `Expected exactly one file in a multipart/form-data body, got ${files.length}`);
    }
    raw.files = files.map((file) => ({ ...file, field: route.file as string }));
  }
  return raw;
}

/**
 * The declared media type a Content-Type matches: the same type, else a
 * declared `type/*`, else `*\/*`. Parameters (`; charset=utf-8`) are ignored,
 * on both sides.
 */
export function matchMediaType(contents: readonly MediaTypeRoute[], contentType: string): MediaTypeRoute | undefined {
  const essence = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  const slash = essence.indexOf('/');
  const family = slash === -1 ? '' : `${essence.slice(0, slash)}/*`;
  let wildcard: MediaTypeRoute | undefined;
  let any: MediaTypeRoute | undefined;
  let parameters: MediaTypeRoute | undefined;
  for (const content of contents) {
    if (content.mediaType === essence) return content;
    if (content.mediaType === family) wildcard ??= content;
    else if (content.mediaType === '*/*') any ??= content;
    // A declared type with parameters (`application/json;charset=utf-8`) takes the same type without them.
    else if (content.mediaType.includes(';') && (content.mediaType.split(';', 1)[0] ?? '').trim() === essence) parameters ??= content;
  }
  return parameters ?? wildcard ?? any;
}

function parseContent(content: MediaTypeRoute, data: Buffer): unknown {
  switch (content.kind) {
    case 'json': {
      const text = data.toString('utf8');
      try {
        return JSON.parse(text);
      } catch (error) {
        throw frameworkError('BAD_REQUEST', `Malformed JSON request body: ${messageOf(error)}`);
      }
    }
    case 'text':
      return data.toString('utf8');
    default:
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
}

function unsupportedMediaType(contentType: string | undefined, body: BodyPlan): ApiError {
  const accepted = body.contents.map((content) => content.mediaType).join(', ');
  const sent = contentType === undefined ? 'A request body without a Content-Type' : `Content-Type "${contentType}"`;
  return frameworkError('UNSUPPORTED_MEDIA_TYPE', `${sent} is not accepted here: send ${accepted}`);
}

/** A body of a type no parser took, at an operation without a whole body. */
function refusedBody(contentType: string | undefined, route: Route, settings: Settings): ApiError {
  if (settings.api.formFields) return frameworkError('BAD_REQUEST', unsupportedBodyMessage(contentType));
  const what = contentType === undefined ? 'a request body without a Content-Type' : `a Content-Type "${contentType}" body`;
  return frameworkError('UNSUPPORTED_MEDIA_TYPE', `${route.operationId} does not take ${what}`);
}

function unsupportedBodyMessage(contentType: string | undefined): string {
  const send = 'send parameters as application/x-www-form-urlencoded or multipart/form-data fields';
  if (contentType === undefined) return `A request body needs a Content-Type header: ${send}`;
  if (/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    return `JSON request bodies are not accepted: ${send} (list and object values go JSON-encoded inside one field)`;
  }
  return `Unsupported Content-Type "${contentType}": ${send}`;
}

async function readMultipart(request: FastifyRequest, bodyLimit: number): Promise<{ fields: FormFields; files: RawFile[] }> {
  if (Number(request.headers['content-length'] ?? 0) > bodyLimit) throw tooLarge();
  const fields = new Fields();
  const files: RawFile[] = [];
  let total = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        total += data.byteLength;
        files.push({ field: part.fieldname, filename: part.filename, contentType: part.mimetype, data });
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge();
        // A part declared application/json arrives parsed; decoders expect the field's text.
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        total += value.length;
        appendField(fields, part.fieldname, value);
      }
      if (total > bodyLimit) throw tooLarge();
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (statusOf(error) === 413) throw tooLarge();
    throw frameworkError('BAD_REQUEST', `Malformed multipart/form-data body: ${messageOf(error)}`);
  }
  return { fields, files };
}

function tooLarge(): ApiError {
  return frameworkError('REQUEST_TOO_LARGE', 'The request body or uploaded file is too large');
}

/**
 * Form and multipart fields by name. Objects made by `new Fields()` have no
 * prototype properties (`constructor`, `__proto__` are plain names), like
 * `Object.create(null)`, but V8 keeps them in fast mode, so the decoders'
 * lookups by name stay cheap (Fastify's query parser does the same).
 */
const Fields = function Fields() {} as unknown as new () => FormFields;
Fields.prototype = Object.create(null) as object;

/** The fields of a request without a body: shared, never written. */
const NO_FIELDS: FormFields = Object.freeze(new Fields());

/**
 * Strict `application/x-www-form-urlencoded` parsing: a broken percent-escape
 * is a client error. One pass over the text, without splitting it first.
 * Exported for tests.
 */
export function parseForm(text: string): FormFields {
  const fields = new Fields();
  const length = text.length;
  // The next `=` at or after `start`; searched again only once passed, so the whole body is scanned once.
  let equals = text.indexOf('=');
  let start = 0;
  while (start < length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = length;
    if (end > start) {
      if (equals !== -1 && equals < start) equals = text.indexOf('=', start);
      if (equals === -1 || equals > end) appendField(fields, fieldName(text, start, end), '');
      else appendField(fields, fieldName(text, start, equals), decodeFormValue(text.slice(equals + 1, end)));
    }
    start = end + 1;
  }
  return fields;
}

/**
 * Field names seen before (without `%` or `+`, so sent as they read), by
 * length: a name found here is neither cut out of the body nor looked up
 * in V8's string table again when stored, which a fresh name would be (in
 * a tight loop, the narrow request's six fields: about 520 -> 350-430 ns
 * per body). Bounded, so that bodies of ever new names cannot grow it:
 * past the bounds a name is read as before.
 */
const knownNames: string[][] = [];
let knownNameCount = 0;
const KNOWN_NAME_LENGTH = 64;
const KNOWN_NAMES_PER_LENGTH = 16;
const KNOWN_NAMES = 512;

function fieldName(text: string, start: number, end: number): string {
  const length = end - start;
  const known = length <= KNOWN_NAME_LENGTH ? knownNames[length] : undefined;
  if (known !== undefined) {
    for (let i = 0; i < known.length; i++) {
      const name = known[i]!;
      // Same length: a match is the whole name.
      if (text.startsWith(name, start)) return name;
    }
  }
  const sent = text.slice(start, end);
  const name = decodeFormComponent(sent);
  if (name === sent && length > 0 && length <= KNOWN_NAME_LENGTH && knownNameCount < KNOWN_NAMES) {
    const list = (knownNames[length] ??= []);
    if (list.length < KNOWN_NAMES_PER_LENGTH) {
      list.push(propertyKey(name));
      knownNameCount++;
    }
  }
  return name;
}

/** `name` as V8 keeps property keys (internalized): what a for-in over an object with that key gives. */
function propertyKey(name: string): string {
  for (const key in { [name]: 0 }) return key;
  return name;
}

/**
 * {@link decodeFormComponent} with escapes of ASCII characters (`%5B`)
 * decoded here rather than by `decodeURIComponent` (a call into the
 * runtime); a value with `+`, a broken escape or the escape of a byte above
 * 0x7F goes to {@link decodeFormComponent}, which decodes or refuses it.
 */
function decodeFormValue(text: string): string {
  let percent = text.indexOf('%');
  const plus = text.indexOf('+');
  if (percent === -1) return plus === -1 ? text : decodeFormComponent(text);
  if (plus !== -1) return decodeFormComponent(text);
  let decoded = '';
  let copied = 0;
  while (percent !== -1) {
    const high = hexDigit(text.charCodeAt(percent + 1));
    const low = hexDigit(text.charCodeAt(percent + 2));
    if (high < 0 || low < 0 || high > 7) return decodeFormComponent(text);
    decoded += text.slice(copied, percent) + String.fromCharCode(high * 16 + low);
    copied = percent + 3;
    percent = text.indexOf('%', copied);
  }
  return decoded + text.slice(copied);
}

/** The value of a hexadecimal digit's character code, -1 for another (NaN past the end of the text included). */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

function decodeFormComponent(text: string): string {
  // Most names and many values have nothing to decode.
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    throw frameworkError('BAD_REQUEST', 'Malformed application/x-www-form-urlencoded body: invalid percent-encoding');
  }
}

function appendField(fields: FormFields, name: string, value: string): void {
  const existing = fields[name];
  if (existing === undefined) fields[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else fields[name] = [existing, value];
}

function sendError(reply: FastifyReply, error: ApiError, settings: Settings | undefined): FastifyReply {
  if (settings !== undefined) apiHeadersFirst(reply, settings);
  if (error.challenges !== undefined) reply.header('www-authenticate', error.challenges.join(', '));
  else if ((error.code as string) === 'UNAUTHORIZED' && settings?.api.formFields !== false) {
    reply.header('www-authenticate', `Basic realm=${JSON.stringify(settings?.realm ?? 'teamchat')}`);
  }
  reply.code(error.status);
  const format = errorFormat;
  if (format !== undefined && format.mediaType !== 'application/json') {
    return reply.type(format.mediaType).send(JSON.stringify(error.toBody()));
  }
  return reply.send(error.toBody());
}

/** Sets RegisterOptions.headers on an answer. */
function setApiHeaders(reply: FastifyReply, settings: Settings): void {
  const headers = settings.headers;
  for (let i = 0; i < headers.length; i++) reply.header(headers[i]![0], headers[i]![1]);
}

/**
 * RegisterOptions.headers ahead of any header set before them, for errors
 * raised before the route's handler ran (credentials, body parsing,
 * 404/405), where Fastify may have set one (`connection: close` after a
 * body it could not read).
 */
function apiHeadersFirst(reply: FastifyReply, settings: Settings): void {
  const headers = settings.headers;
  if (headers.length === 0 || reply.hasHeader(headers[0]![0])) return;
  const earlier = reply.getHeaders();
  for (const name of Object.keys(earlier)) reply.removeHeader(name);
  setApiHeaders(reply, settings);
  for (const [name, value] of Object.entries(earlier)) if (value !== undefined) reply.header(name, value);
}

/**
 * For `Fastify({ frameworkErrors })`: errors Fastify raises before any route
 * runs (a malformed escape in the path, an over-long path parameter) answered
 * as a BAD_REQUEST in the API's error body.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, _request, reply) => {
  void sendError(reply as FastifyReply, frameworkError('BAD_REQUEST', error.message), undefined);
};

/**
 * Client errors Fastify and its plugins raise (codes `FST_*`: bad content
 * length, oversize body, ...) become BAD_REQUEST or REQUEST_TOO_LARGE;
 * anything else unexpected is logged and answered with INTERNAL_ERROR.
 */
function toApiError(error: unknown, request: FastifyRequest): ApiError {
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

function statusOf(error: unknown): number {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : 500;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A Fastify path as a regular expression over request paths (optional trailing slash). */
function pathPattern(path: string): RegExp {
  const segments = path.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)));
  return new RegExp(`^${segments.join('/')}/?$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
}

/** Methods of the operations at `path` (HEAD along with GET, as Fastify serves it). */
function allowedMethods(routePatterns: readonly { method: HttpMethod; pattern: RegExp }[], path: string): string[] {
  const methods = new Set<string>();
  for (const { method, pattern } of routePatterns) {
    if (!pattern.test(path)) continue;
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
  }
  return [...methods];
}
