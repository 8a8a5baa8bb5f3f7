/**
 * The server bindings' runtime: body parsing, authentication, decoding,
 * the error envelope, 404/405 handling and route registration on Fastify.
 * The generated `server.ts` gives it the API's shape (the route table, the
 * `Handlers` type, error statuses) and types its errors by augmenting
 * {@link ServerRuntimeTypes}.
 */
import multipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
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

export interface Route {
  /** Operation name: the key in `Handlers`. */
  operation: string;
  operationId: string;
  method: HttpMethod;
  /** Full path in Fastify syntax (`:param`), base path included. */
  path: string;
  /** Whether HTTP Basic credentials are required. */
  auth: boolean;
  /** Wire name of the file parameter, for the upload operation. */
  file?: string;
}

const errorStatus = new Map<string, number>();

/**
 * Errors the bindings raise themselves. A document that declares these codes
 * (error schemas with `x-error-code`) sets their status and schema; otherwise
 * they answer with the default envelope `{ result: 'error', msg, code }` and
 * these statuses.
 */
export const FRAMEWORK_ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TOO_LARGE: 413,
  INTERNAL_ERROR: 500,
} as const;

export type FrameworkErrorCode = keyof typeof FRAMEWORK_ERROR_STATUS;

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

/** The extra fields an error code carries beyond `result`, `msg` and `code`. */
export type ErrorFields<C extends ApiErrorCode> = Omit<Extract<ApiErrorBody, { code: C }>, 'result' | 'msg' | 'code'>;

/**
 * An error a handler throws to answer with that code's envelope and status,
 * e.g. `throw new ApiError('STREAM_DOES_NOT_EXIST', 'Channel does not exist', { stream_id: 9 })`.
 */
export class ApiError<C extends ApiErrorCode = ApiErrorCode> extends Error {
  readonly code: C;
  readonly status: number;
  readonly fields: ErrorFields<C>;

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

  /** The error envelope sent as the response body. */
  toBody(): ApiErrorBody {
    return { result: 'error', msg: this.message, code: this.code, ...this.fields } as ApiErrorBody;
  }
}

type EnvelopeField = 'result' | 'msg' | 'ignored_parameters_unsupported';

/** What a handler returns: the success body without the envelope fields the bindings add. */
export type HandlerResult<R> = R extends unknown ? Omit<R, EnvelopeField> : never;

export interface HandlerContext<User> {
  /** The authenticated caller (`undefined` for operations without authentication). */
  user: User;
  request: FastifyRequest;
  /** For handlers that answer themselves; once the reply is sent, the returned value is ignored. */
  reply: FastifyReply;
  log: FastifyBaseLogger;
}

export type Handler<Params, Result, User> = (params: Params, ctx: HandlerContext<User>) => Promise<HandlerResult<Result>>;

/** Checks HTTP Basic credentials; returns the user, or nothing when they are wrong. */
export type Authenticate<User> = (
  email: string,
  apiKey: string,
  request: FastifyRequest,
) => Promise<User | null | undefined> | User | null | undefined;

export interface RegisterOptions<User> {
  authenticate: Authenticate<User>;
  /** Largest accepted request body, and largest uploaded file, in bytes (default 25 MiB). */
  bodyLimit?: number;
  /**
   * Check every success body against the spec in strict mode (no unlisted
   * fields); a body that fails is logged and answered with INTERNAL_ERROR.
   * For tests and development.
   */
  validateResponses?: boolean;
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
export function operation<Params, Result, User>(
  route: Route,
  decode: (raw: RawRequest) => Decoded<Params>,
  handler: Handler<Params, Result, User>,
  validate: (body: unknown, options?: ValidateOptions) => Issue[],
): Binding {
  return { route, register: (scope, settings) => bind(scope, settings, route, decode, handler, validate) };
}

/**
 * Registers every operation under `basePath` in an encapsulated plugin, with
 * its own body parsers, error handler and 404/405 handling, so routes the
 * application adds outside `basePath` keep their own behaviour.
 */
export async function registerOperations<User>(
  app: FastifyInstance,
  basePath: string,
  bindings: readonly Binding[],
  options: RegisterOptions<User>,
): Promise<void> {
  const settings: Settings = {
    basePath,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    validateResponses: options.validateResponses ?? false,
    authenticate: options.authenticate as Authenticate<unknown>,
    routePatterns: bindings.map(({ route }) => ({ method: route.method, path: route.path, pattern: pathPattern(route.path) })),
  };
  await app.register(
    async (scope) => {
      await configureScope(scope, settings);
      for (const binding of bindings) binding.register(scope, settings);
    },
    { prefix: basePath },
  );
}

interface Settings {
  basePath: string;
  bodyLimit: number;
  validateResponses: boolean;
  authenticate: Authenticate<unknown>;
  routePatterns: { method: HttpMethod; path: string; pattern: RegExp }[];
}

type FormFields = Record<string, string | string[]>;
type RawFile = NonNullable<RawRequest['files']>[number];

/** A body whose content type the API does not take; refused once the route is known, so 404/405 win. */
class UnsupportedBody {
  constructor(readonly contentType: string | undefined) {}
}

/** Where the authentication hook leaves the caller for the handler: a request decoration, cheaper than a WeakMap. */
const kUser = Symbol('teamchat.user');
type UserSlot = FastifyRequest & { [kUser]?: unknown };

async function configureScope(scope: FastifyInstance, settings: Settings): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.decorateRequest(kUser, undefined);
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
  scope.addContentTypeParser('*', (request, _payload, done) => {
    done(null, new UnsupportedBody(request.headers['content-type']));
  });
  scope.setErrorHandler((error, request, reply) => {
    if (reply.sent) {
      request.log.error({ err: error }, 'error after the reply was sent');
      return;
    }
    return sendError(reply, toApiError(error, request));
  });
  scope.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = allowedMethods(settings.routePatterns, path);
    if (allowed.length === 0) {
      return sendError(reply, frameworkError('NOT_FOUND', `No operation at ${path}`));
    }
    reply.header('allow', allowed.join(', '));
    return sendError(reply, frameworkError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed on this path`));
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

function bind<Params, Result, User>(
  scope: FastifyInstance,
  settings: Settings,
  route: Route,
  decode: (raw: RawRequest) => Decoded<Params>,
  handler: Handler<Params, Result, User>,
  validate: (body: unknown, options?: ValidateOptions) => Issue[],
): void {
  scope.route({
    method: route.method,
    // Fastify answers HEAD for every GET route unless the document declares its own HEAD operation there.
    ...(route.method === 'GET' && settings.routePatterns.some((other) => other.method === 'HEAD' && other.path === route.path) && { exposeHeadRoute: false }),
    url: route.path.slice(settings.basePath.length),
    bodyLimit: settings.bodyLimit,
    // Before the body is read, as before: bad credentials win over a bad body.
    // A callback hook, so an authenticator that answers at once costs no promise.
    ...(route.auth && {
      onRequest: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        let user: unknown;
        try {
          user = authenticateRequest(request, settings.authenticate);
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
    handler: async (request, reply) => {
      const raw = request.isMultipart() ? await readMultipartRequest(request, route, settings.bodyLimit) : readRequest(request, route);
      const decoded = decode(raw);
      if (!decoded.ok) throw frameworkError('BAD_REQUEST', decoded.error.msg);
      const user = (request as UserSlot)[kUser] as User;
      const result = await handler(decoded.value, { user, request, reply, log: request.log });
      if (reply.sent) return reply;
      const body: Record<string, unknown> = { result: 'success', msg: '', ...(result as object) };
      if (decoded.unsupported.length > 0) body.ignored_parameters_unsupported = decoded.unsupported;
      if (settings.validateResponses) {
        const issues = validate(body, { strict: true });
        if (issues.length > 0) {
          const found = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
          throw new Error(`${route.operationId}: the handler's result does not match the spec: ${found}`);
        }
      }
      return reply.code(200).send(body);
    },
  });
}

function unauthorized(msg: string): ApiError {
  return frameworkError('UNAUTHORIZED', msg);
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The user the credentials name, at once or as a promise, as `authenticate` answers; throws UNAUTHORIZED. */
function authenticateRequest(request: FastifyRequest, authenticate: Authenticate<unknown>): unknown {
  const header = request.headers.authorization;
  if (header === undefined || header === '') throw unauthorized('Missing HTTP Basic credentials');
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (match?.[1] === undefined) throw unauthorized('Malformed Authorization header: expected HTTP Basic credentials');
  const credentials = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  if (colon <= 0) throw unauthorized('Malformed HTTP Basic credentials: expected email:api_key');
  const user = authenticate(credentials.slice(0, colon), credentials.slice(colon + 1), request);
  return isPromise(user) ? Promise.resolve(user).then(checkUser) : checkUser(user);
}

function checkUser(user: unknown): unknown {
  if (user === undefined || user === null) throw unauthorized('Invalid email or API key');
  return user;
}

/** The raw parameters of a request whose body (if any) Fastify has parsed already. */
function readRequest(request: FastifyRequest, route: Route): RawRequest {
  const raw: RawRequest = {
    path: request.params as Record<string, string>,
    query: request.query as FormFields,
    body: {},
  };
  if (request.body instanceof UnsupportedBody) {
    throw frameworkError('BAD_REQUEST', unsupportedBodyMessage(request.body.contentType));
  } else if (request.body !== undefined && request.body !== null) {
    raw.body = request.body as FormFields;
  }
  return withFile(raw, route);
}

/** The raw parameters of a multipart request, reading its parts. */
async function readMultipartRequest(request: FastifyRequest, route: Route, bodyLimit: number): Promise<RawRequest> {
  const { fields, files } = await readMultipart(request, bodyLimit);
  return withFile(
    { path: request.params as Record<string, string>, query: request.query as FormFields, body: fields, files },
    route,
  );
}

/** The upload operation takes exactly one file part. */
function withFile(raw: RawRequest, route: Route): RawRequest {
  if (route.file !== undefined) {
    const files = raw.files ?? [];
    if (files.length !== 1) {
      throw frameworkError('BAD_REQUEST', `Expected exactly one file in a multipart/form-data body, got ${files.length}`);
    }
    // The upload takes its single file part whatever the part is called.
    raw.files = files.map((file) => ({ ...file, field: route.file as string }));
  }
  return raw;
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
  const fields: FormFields = Object.create(null);
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

/** Strict `application/x-www-form-urlencoded` parsing: a broken percent-escape is a client error. */
function parseForm(text: string): FormFields {
  const fields: FormFields = Object.create(null);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodeFormComponent(equals === -1 ? pair : pair.slice(0, equals));
    appendField(fields, name, equals === -1 ? '' : decodeFormComponent(pair.slice(equals + 1)));
  }
  return fields;
}

function decodeFormComponent(text: string): string {
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

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if ((error.code as string) === 'UNAUTHORIZED') reply.header('www-authenticate', 'Basic realm="teamchat"');
  return reply.code(error.status).send(error.toBody());
}

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
    return status === 413 ? tooLarge() : frameworkError('BAD_REQUEST', messageOf(error));
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
