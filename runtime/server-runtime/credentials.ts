/**
 * Credentials: each security scheme's credential read from a request, the
 * alternatives of an operation's security requirement tried in order, and
 * the application's `authenticate` called with what was found.
 */
import type { FastifyRequest } from 'fastify';
import type { Route, SecuritySchemeRoute } from './api.js';
import { ApiError, frameworkError } from './errors.js';
import { parseCookies, type FormFields } from './parsing.js';

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

/**
 * Checks a credential; returns the user, or nothing when it is wrong. Called
 * once per scheme of the security alternative the request satisfies.
 */
export type Authenticate<User, C = Credential> = (
  credential: C,
  request: FastifyRequest,
) => Promise<User | null | undefined> | User | null | undefined;

/** What an operation's credentials are checked with: made once per operation by {@link authPlan}. */
export interface AuthPlan {
  alternatives: { name: string; scheme: SecuritySchemeRoute }[][];
  optional: boolean;
  challenges: string[];
  authenticate: Authenticate<unknown, Credential>;
  /** What a Basic pair holds, for the message about one without a colon. */
  basicPair: string;
  /** The user `authenticate` gave, or 401. */
  check: (user: unknown) => unknown;
}

/** How credentials are read and worded for the whole API. */
export interface CredentialSettings {
  securitySchemes: Readonly<Record<string, SecuritySchemeRoute>>;
  authenticate: Authenticate<unknown, Credential>;
  /** The realm of `WWW-Authenticate: Basic` challenges. */
  realm: string;
  basicPair: string;
  /** The message when `authenticate` finds no user. */
  invalid: string;
}

/** The credentials an operation takes, or undefined when it reads none. */
export function authPlan(route: Route, settings: CredentialSettings): AuthPlan | undefined {
  const alternatives = route.security.filter((alternative) => alternative.length > 0);
  if (alternatives.length === 0) return undefined;
  const resolved = alternatives.map((alternative) =>
    alternative.map((name) => {
      const scheme = settings.securitySchemes[name];
      if (scheme === undefined) throw new Error(`${route.operationId}: unknown security scheme "${name}"`);
      return { name, scheme };
    }),
  );
  const plan: AuthPlan = {
    alternatives: resolved,
    optional: route.security.some((alternative) => alternative.length === 0),
    challenges: [...new Set(resolved.flat().flatMap(({ scheme }) => challengeOf(scheme, settings.realm)))],
    authenticate: settings.authenticate,
    basicPair: settings.basicPair,
    check: (user) => {
      if (user === undefined || user === null) throw unauthorized(settings.invalid, plan);
      return user;
    },
  };
  return plan;
}

/** The `WWW-Authenticate` challenge of a Basic realm. */
export function basicChallenge(realm: string): string {
  return `Basic realm=${JSON.stringify(realm)}`;
}

function challengeOf(scheme: SecuritySchemeRoute, realm: string): string[] {
  switch (scheme.kind) {
    case 'basic':
      return [basicChallenge(realm)];
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

function unauthorized(msg: string, plan: AuthPlan): ApiError {
  const error = frameworkError('UNAUTHORIZED', msg);
  if (plan.challenges.length > 0) error.challenges = plan.challenges;
  return error;
}

export function isPromise(value: unknown): value is PromiseLike<unknown> {
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
export function authenticateRequest(request: FastifyRequest, plan: AuthPlan): unknown {
  const alternatives = plan.alternatives;
  if (alternatives.length === 1 && alternatives[0]!.length === 1 && !plan.optional) return authenticateOne(request, plan, alternatives[0]![0]!);
  let problem: string | undefined;
  for (const alternative of alternatives) {
    const credentials: Credential[] = [];
    for (const { name, scheme } of alternative) {
      const found = credentialOf(request, name, scheme, plan.basicPair);
      if (found instanceof Malformed) problem ??= found.message;
      if (found === undefined || found instanceof Malformed) break;
      credentials.push(found);
    }
    if (credentials.length < alternative.length) continue;
    if (credentials.length === 1) return checked(plan, plan.authenticate(credentials[0]!, request));
    return Promise.all(credentials.map((credential) => plan.authenticate(credential, request))).then((users) => users.map(plan.check)[0]);
  }
  if (plan.optional) return undefined;
  throw unauthorized(problem ?? missingMessage(plan), plan);
}

/** The common case, one scheme required: no arrays, no loops. */
function authenticateOne(request: FastifyRequest, plan: AuthPlan, only: { name: string; scheme: SecuritySchemeRoute }): unknown {
  const found = credentialOf(request, only.name, only.scheme, plan.basicPair);
  if (found === undefined) throw unauthorized(missingMessage(plan), plan);
  if (found instanceof Malformed) throw unauthorized(found.message, plan);
  return checked(plan, plan.authenticate(found, request));
}

function checked(plan: AuthPlan, user: unknown): unknown {
  return isPromise(user) ? Promise.resolve(user).then(plan.check) : plan.check(user);
}

function missingMessage(plan: AuthPlan): string {
  const only = plan.alternatives.length === 1 && plan.alternatives[0]!.length === 1 ? plan.alternatives[0]![0]!.scheme : undefined;
  if (only?.kind === 'basic') return 'Missing HTTP Basic credentials';
  const names = plan.alternatives.map((alternative) => alternative.map(({ name }) => name).join(' + ')).join(' or ');
  return `Missing credentials: this operation needs ${names}`;
}

/** The credential of one scheme in the request: undefined when absent, Malformed when present in the wrong form. */
function credentialOf(request: FastifyRequest, name: string, scheme: SecuritySchemeRoute, basicPair: string): Credential | Malformed | undefined {
  switch (scheme.kind) {
    case 'basic':
      return basicCredential(request, name, basicPair);
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
    case 'apiKey':
      return apiKeyCredential(request, name, scheme);
    case 'mutualTLS':
      return (request.raw.socket as { authorized?: boolean }).authorized === true ? { scheme: name, kind: 'mutualTLS' } : undefined;
  }
}

function basicCredential(request: FastifyRequest, name: string, basicPair: string): BasicCredential | Malformed | undefined {
  const header = request.headers.authorization;
  if (header === undefined || header === '') return undefined;
  const connection = connectionOf(request);
  const kept = keptBasic(connection, header);
  if (kept !== undefined) return { scheme: name, kind: 'basic', username: kept.username, password: kept.password };
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (match?.[1] === undefined) return new Malformed('Malformed Authorization header: expected HTTP Basic credentials');
  const credentials = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  if (colon <= 0) return new Malformed(`Malformed HTTP Basic credentials: expected ${basicPair}`);
  const decoded = { header, username: credentials.slice(0, colon), password: credentials.slice(colon + 1) };
  if (connection !== undefined) connection[kBasic] = decoded;
  return { scheme: name, kind: 'basic', username: decoded.username, password: decoded.password };
}

/**
 * The last well-formed Basic header a connection sent, decoded, kept on its
 * socket: a keep-alive client sends the same header with every request, and
 * finding it here saves the pattern match and the base64 decoding of every
 * request after the first, on every authenticated operation. Only the
 * decoding is kept (`authenticate` still checks the credentials each time);
 * it goes with its connection and is compared with that connection's next
 * header only, in constant time.
 */
const kBasic = Symbol('teamchat.basic');
type BasicConnection = { [kBasic]?: { header: string; username: string; password: string } };

/** The request's socket, where the kept header lives: HTTP/1 only (an HTTP/2 request's socket is a proxy that throws once its stream is gone). */
function connectionOf(request: FastifyRequest): BasicConnection | undefined {
  if (request.raw.httpVersionMajor !== 1) return undefined;
  return (request.raw.socket as BasicConnection | null | undefined) ?? undefined;
}

function keptBasic(connection: BasicConnection | undefined, header: string): { username: string; password: string } | undefined {
  const kept = connection?.[kBasic];
  return kept !== undefined && sameText(kept.header, header) ? kept : undefined;
}

/**
 * Whether `kept` and `sent` are the same text, in a time that depends on the
 * length of `sent` only (no early exit at the first difference): how much of
 * a header matches the one kept for its connection does not show in the time.
 */
export function sameText(kept: string, sent: string): boolean {
  let difference = kept.length ^ sent.length;
  // Past the end of `kept`, charCodeAt is NaN, which `^` reads as 0; the lengths differ then anyway.
  for (let i = 0; i < sent.length; i++) difference |= kept.charCodeAt(i) ^ sent.charCodeAt(i);
  return difference === 0;
}

function apiKeyCredential(request: FastifyRequest, name: string, scheme: SecuritySchemeRoute): ApiKeyCredential | undefined {
  const key = scheme.name ?? '';
  const where = scheme.in ?? 'header';
  const found =
    where === 'header' ? request.headers[key.toLowerCase()] : where === 'query' ? (request.query as FormFields | undefined)?.[key] : cookiesOf(request)[key];
  const value = Array.isArray(found) ? found[0] : found;
  if (value === undefined || value === '') return undefined;
  return { scheme: name, kind: 'apiKey', in: where, name: key, value };
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

/** The parsed Cookie header, once per request (a request decoration, registered by the routes' scope). */
export const kCookies = Symbol('teamchat.cookies');

/** The request's cookies, parsed at the first need. */
export function cookiesOf(request: FastifyRequest): FormFields {
  const slot = request as FastifyRequest & { [kCookies]?: FormFields };
  return (slot[kCookies] ??= parseCookies(request.headers.cookie));
}
