/**
 * Routes: every operation registered on Fastify in one encapsulated scope
 * under the base path, with its body parsers, error handler and 404/405
 * answers; per operation, credentials checked, the request read and decoded,
 * the handler run and its result answered. Everything the API is (routes,
 * schemes, conventions, error style) arrives through `registerOperations`.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiSettings, HttpMethod, Route } from './api.js';
import { answerer, responseCheck, setApiHeaders, type Answer, type Respond, respond, type Responded } from './answers.js';
import { authenticateRequest, authPlan, basicChallenge, isPromise, kCookies, type AuthPlan, type Authenticate, type Credential } from './credentials.js';
import { frameworkError, sendError, toApiError, type ErrorScope } from './errors.js';
import { registerMultipart } from './multipart.js';
import { parseForm } from './parsing.js';
import {
  bodyPlan,
  OtherBody,
  readMultipartRequest,
  readPlainRequest,
  readRequest,
  readsPlainRequests,
  type BodyPlan,
  type FullRawRequest,
} from './requests.js';
import type { Decoded, Issue, RawRequest, ValidateOptions } from '../validators-runtime/index.js';

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

type Decode<Params> = (raw: RawRequest) => Decoded<Params>;
type Validate = (body: unknown, options?: ValidateOptions) => Issue[];

/** One operation ready to bind: its route, decoder, handler and response check. */
export interface Binding {
  route: Route;
  register(scope: FastifyInstance, settings: Settings): void;
}

/** Pairs an operation's decoder with its handler, checking that they agree on the parameters. */
export function operation<Params, Result, User, Responses>(
  route: Route,
  decode: Decode<Params>,
  handler: Handler<Params, Result, User, Responses>,
  validate: Validate,
): Binding {
  return {
    route,
    register: (scope, settings) => bind(scope, settings, route, decode, handler as unknown as Handler<Params, unknown, unknown, unknown>, validate),
  };
}

const DEFAULT_BODY_LIMIT = 25 * 1024 * 1024;

/** The registration's options resolved once, shared by every route of the scope. */
interface Settings extends ErrorScope {
  basePath: string;
  bodyLimit: number;
  validateResponses: boolean;
  authenticate: Authenticate<unknown, Credential>;
  realm: string;
  api: ApiSettings;
  routePatterns: { method: HttpMethod; path: string; pattern: RegExp }[];
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
  api: ApiSettings,
): Promise<void> {
  // Operations served under another base path (their own `servers`) put the whole API scope at the root.
  const prefix = bindings.every(({ route }) => route.path.startsWith(basePath)) ? basePath : '';
  const realm = options.realm ?? api.title;
  const settings: Settings = {
    basePath: prefix,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    validateResponses: options.validateResponses ?? false,
    authenticate: options.authenticate as Authenticate<unknown, Credential>,
    realm,
    // Fastify keeps header names in lower case: a name stored so is not lower-cased again per request.
    headers: Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const),
    errors: api.errors,
    unauthorizedChallenge: api.unauthorized.basicChallenge ? basicChallenge(realm) : undefined,
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

/** Where the authentication leaves the caller for the handler: a request decoration, cheaper than a WeakMap. */
const kUser = Symbol('teamchat.user');
type UserSlot = FastifyRequest & { [kUser]?: unknown };

async function configureScope(scope: FastifyInstance, settings: Settings): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.decorateRequest(kUser, undefined);
  scope.decorateRequest(kCookies, undefined);
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: settings.bodyLimit }, (_request, body, done) => {
    try {
      done(null, parseForm(body as string));
    } catch (error) {
      done(error as Error);
    }
  });
  await registerMultipart(scope, settings.bodyLimit);
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
    if (allowed.length === 0) return sendError(reply, frameworkError('NOT_FOUND', `No operation at ${path}`), settings);
    reply.header('allow', allowed.join(', '));
    return sendError(reply, frameworkError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed on this path`), settings);
  });
}

/** Methods whose requests Fastify hands to the route without reading a body (its `bodyless` methods). */
const BODYLESS_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'TRACE']);

/** One operation as its route runs it, worked out once when it is registered. */
interface OperationPlan<Params> {
  route: Route;
  settings: Settings;
  decode: Decode<Params>;
  handler: Handler<Params, unknown, unknown, unknown>;
  /** The credentials it takes; undefined when it reads none. */
  auth: AuthPlan | undefined;
  body: BodyPlan | undefined;
  /** Whether its requests need none of readRequest's cases ({@link readsPlainRequests}). */
  plain: boolean;
  answer: Answer;
}

function bind<Params>(
  scope: FastifyInstance,
  settings: Settings,
  route: Route,
  decode: Decode<Params>,
  handler: Handler<Params, unknown, unknown, unknown>,
  validate: Validate,
): void {
  const plan: OperationPlan<Params> = {
    route,
    settings,
    decode,
    handler,
    auth: authPlan(route, { ...settings.api.unauthorized, securitySchemes: settings.api.securitySchemes, authenticate: settings.authenticate, realm: settings.realm }),
    body: bodyPlan(route),
    plain: readsPlainRequests(route),
    answer: answerer(route, settings.api.successEnvelope, responseCheck(route, validate, settings.validateResponses), settings.validateResponses),
  };
  // Credentials are checked before the body is read (bad credentials win over a bad body), in an onRequest
  // hook; for methods without a body the handler checks them first itself, as such routes then need no hook.
  const hookAuth = plan.auth !== undefined && !BODYLESS_METHODS.has(route.method) ? plan.auth : undefined;
  scope.route({
    method: route.method,
    // Fastify answers HEAD for every GET route unless the document declares its own HEAD operation there.
    ...(route.method === 'GET' && declaresHead(settings, route) && { exposeHeadRoute: false }),
    url: route.path.slice(settings.basePath.length),
    bodyLimit: settings.bodyLimit,
    ...(hookAuth !== undefined && { onRequest: authenticationHook(hookAuth) }),
    handler: hookAuth === undefined && plan.auth !== undefined ? authenticatingHandler(plan, plan.auth) : routeHandler(plan),
  });
}

function declaresHead(settings: Settings, route: Route): boolean {
  return settings.routePatterns.some((other) => other.method === 'HEAD' && other.path === route.path);
}

/**
 * The onRequest hook checking an operation's credentials. A callback hook,
 * so an authenticator that answers at once costs no promise.
 */
function authenticationHook(auth: AuthPlan) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    let user: unknown;
    try {
      user = authenticateRequest(request, auth);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (!isPromise(user)) {
      (request as UserSlot)[kUser] = user;
      done();
      return;
    }
    user.then(
      (found) => {
        (request as UserSlot)[kUser] = found;
        done();
      },
      (error: unknown) => done((error ?? new Error('authenticate rejected without a reason')) as Error),
    );
  };
}

/**
 * The route handler. Not an async function: Fastify catches what it throws,
 * and the answer is sent from the handler's own promise (no promise of ours
 * for Fastify to wait on). Multipart bodies are read asynchronously first.
 */
function routeHandler<Params>(plan: OperationPlan<Params>) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    setApiHeaders(reply, plan.settings.headers);
    readAndRun(plan, request, reply);
  };
}

/** {@link routeHandler} for a route without a body that takes credentials: they are checked first, here. */
function authenticatingHandler<Params>(plan: OperationPlan<Params>, auth: AuthPlan) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    setApiHeaders(reply, plan.settings.headers);
    const user = authenticateRequest(request, auth);
    if (!isPromise(user)) {
      (request as UserSlot)[kUser] = user;
      readAndRun(plan, request, reply);
      return;
    }
    user
      .then((found) => {
        (request as UserSlot)[kUser] = found;
        run(plan, request, reply, readParsed(plan, request));
      })
      .then(undefined, (error: unknown) => failed(reply, error ?? new Error('authenticate rejected without a reason')));
  };
}

function readAndRun<Params>(plan: OperationPlan<Params>, request: FastifyRequest, reply: FastifyReply): void {
  if (request.isMultipart()) {
    readMultipartRequest(request, plan.route, plan.body, plan.settings.bodyLimit)
      .then((raw) => run(plan, request, reply, raw))
      .then(undefined, (error: unknown) => failed(reply, error));
    return;
  }
  run(plan, request, reply, readParsed(plan, request));
}

/** The decoder input of a request whose body Fastify has parsed (anything but multipart). */
function readParsed<Params>(plan: OperationPlan<Params>, request: FastifyRequest): FullRawRequest {
  return plan.plain ? readPlainRequest(request, plan.route, plan.settings.api) : readRequest(request, plan.route, plan.body, plan.settings.api);
}

/** Decodes, runs the handler and answers; waits only when the handler gives a promise. */
function run<Params>(plan: OperationPlan<Params>, request: FastifyRequest, reply: FastifyReply, raw: RawRequest): void {
  const decoded = plan.decode(raw);
  if (!decoded.ok) throw frameworkError(decoded.error.rule === 'mediaType' ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', decoded.error.msg);
  const user = (request as UserSlot)[kUser];
  const result = plan.handler(decoded.value, { user, request, reply, log: request.log, respond: respond as unknown as Respond<unknown> });
  const unsupported = decoded.unsupported;
  if (!isPromise(result)) {
    plan.answer(reply, result, unsupported);
    return;
  }
  result.then(
    (value) => {
      try {
        plan.answer(reply, value, unsupported);
      } catch (error) {
        failed(reply, error);
      }
    },
    (error: unknown) => failed(reply, error),
  );
}

/** A handler's promise rejected, or answering its result failed: Fastify's error handling, as for a thrown error. */
function failed(reply: FastifyReply, error: unknown): void {
  if (reply.sent) {
    reply.log.error({ err: error }, 'error after the reply was sent');
    return;
  }
  reply.send(error instanceof Error ? error : Object.assign(new Error('The handler failed with a value that is not an Error'), { cause: error }));
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
