/**
 * Answers: what a handler returns (the primary success body, a `respond(...)`
 * value, a constant body) sent with its status, media type and headers; the
 * success envelope under its convention. Bodies go through `JSON.stringify`
 * (docs/decisions/0018-json-stringify-for-responses.md).
 */
import type { FastifyReply } from 'fastify';
import type { MediaTypeRoute, Route } from './api.js';
import type { Issue, ValidateOptions } from '../validators-runtime/index.js';

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

/** What the bindings sent for a {@link constantBody} value: its bytes, made at its first answer. */
interface ConstantBytes {
  /** The body in the success envelope (`result`, `msg`, then the body's fields). */
  enveloped?: Buffer;
  /** The body as it is. */
  json?: Buffer;
}

/** Where a constant value keeps its bytes: a property of its own, not enumerable, so JSON, keys and spreads never see it. */
const kBytes = Symbol('teamchat.constantBytes');

/** The bytes holder of a value marked by {@link constantBody}, or undefined for any other value. */
function constantBytes(value: unknown): ConstantBytes | undefined {
  return typeof value === 'object' && value !== null ? (value as { [kBytes]?: ConstantBytes })[kBytes] : undefined;
}

/**
 * Marks JSON data as a constant answer: deep-frozen here (plain objects,
 * arrays, strings, numbers, booleans, null, and undefined where
 * `JSON.stringify` leaves it out; anything else is a TypeError), so that the
 * bindings serialise it once, at its first answer, and send the stored bytes
 * to every later request whose answer it is (as the primary success body of
 * a JSON operation, enveloped or not). The bytes are those `JSON.stringify`
 * gives, as for any other answer. For payloads that change rarely and are
 * kept whole (a cached settings document, a list rebuilt on invalidation, a
 * canned reply): make a new constant when the data changes; the old one's
 * bytes go with it. A string, number, boolean or null is returned as it is
 * (nothing to store). A value frozen before the call is returned as a frozen
 * copy, which is the one to answer with.
 */
export function constantBody<T>(value: T): T {
  if (typeof value !== 'object' || value === null || constantBytes(value) !== undefined) return value;
  // A value frozen already cannot take the holder: its copy is marked instead (checked first, so what is not JSON still fails).
  const marked = Object.isExtensible(value) ? value : (freezeJson(value, '(body)', new Set()), structuredClone(value));
  // The holder is added before the freeze, and stays writable for the bytes made later.
  freezeJson(marked, '(body)', new Set(), () => Object.defineProperty(marked, kBytes, { value: {} satisfies ConstantBytes }));
  return marked;
}

/** A handler answering every request with one constant body ({@link constantBody}), from one settled promise. */
export function constantHandler<R>(body: R): () => Promise<R> {
  const answer = Promise.resolve(constantBody(body));
  return () => answer;
}

function freezeJson(value: unknown, path: string, open: Set<object>, beforeFreeze?: () => void): void {
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
  beforeFreeze?.();
  Object.freeze(object);
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return `a ${typeof value}`;
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name === undefined || name === '' ? 'an object of another kind' : `a ${name}`;
}

/** The Content-Type Fastify gives the JSON text it serialises. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Checks a success body against the spec; for `RegisterOptions.validateResponses`. */
export type ResponseCheck = (body: unknown) => void;

/** A check that finds nothing: response validation is off. */
const noCheck: ResponseCheck = () => undefined;

/** The strict check of one operation's success bodies, or none when response validation is off. */
export function responseCheck(route: Route, validate: (body: unknown, options?: ValidateOptions) => Issue[], enabled: boolean): ResponseCheck {
  if (!enabled) return noCheck;
  return (body) => {
    const issues = validate(body, { strict: true });
    if (issues.length > 0) {
      const found = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
      throw new Error(`${route.operationId}: the handler's result does not match the spec: ${found}`);
    }
  };
}

/** Sends what a handler returned, with the ignored parameter names; made once per operation by {@link answerer}. */
export type Answer = (reply: FastifyReply, result: unknown, unsupported: readonly string[]) => void;

/** How an operation answers its handler's results: worked out once, when its route is registered. */
export function answerer(route: Route, successEnvelope: boolean, check: ResponseCheck, validating: boolean): Answer {
  const status = route.status ?? 200;
  const primary = route.responses === undefined ? undefined : responseContents(route.responses, status);
  const json = primary === undefined || primary[0]?.kind === 'json';
  // The convention wraps JSON success bodies only.
  const envelope = successEnvelope && json;
  // A constant body is sent as stored bytes where it would go out as JSON with Fastify's default type.
  const storedJson = envelope || primary === undefined || primary.length === 0 || (primary[0]!.kind === 'json' && jsonAsFastifySendsIt(primary[0]!.mediaType));
  return (reply, result, unsupported) => {
    if (reply.sent) return;
    if (result instanceof Responded) {
      sendResponded(reply, route, result);
      return;
    }
    const constant = storedJson ? constantBytes(result) : undefined;
    if (constant !== undefined && unsupported.length === 0 && !reply.hasHeader('content-type')) {
      const bytes = envelope ? envelopedBytes(constant, result as object, check, validating) : plainBytes(constant, result, json ? check : noCheck);
      reply.code(status).type(JSON_TYPE).send(bytes);
      return;
    }
    if (envelope) {
      const enveloped: Record<string, unknown> = { result: 'success', msg: '', ...(result as object) };
      if (unsupported.length > 0) enveloped.ignored_parameters_unsupported = unsupported;
      check(enveloped);
      reply.code(status).send(enveloped);
      return;
    }
    if (json) check(result);
    sendBody(reply, status, primary, result);
  };
}

/** Whether a JSON media type goes out as Fastify's own `application/json` type. */
function jsonAsFastifySendsIt(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.includes('*');
}

/** A constant's bytes in the success envelope, made (and checked) at its first answer; checked again each time while validating. */
function envelopedBytes(constant: ConstantBytes, result: object, check: ResponseCheck, validating: boolean): Buffer {
  if (constant.enveloped !== undefined && !validating) return constant.enveloped;
  const enveloped = { result: 'success', msg: '', ...result };
  check(enveloped);
  return (constant.enveloped ??= Buffer.from(JSON.stringify(enveloped)));
}

function plainBytes(constant: ConstantBytes, result: unknown, check: ResponseCheck): Buffer {
  check(result);
  return (constant.json ??= Buffer.from(JSON.stringify(result)));
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
  const type = mediaType === undefined || jsonAsFastifySendsIt(mediaType) ? undefined : mediaType;
  // Fastify sends a string as it is; a JSON string (or another scalar) is serialized here.
  if (typeof body !== 'object' || body === null || type !== undefined) {
    return reply.type(type ?? JSON_TYPE).send(JSON.stringify(body));
  }
  return reply.send(body);
}

/** A wildcard media type (`image/*`) cannot be sent as is: the fallback then. */
function concrete(mediaType: string, fallback: string): string {
  return mediaType.includes('*') ? fallback : mediaType;
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

/** Sets `RegisterOptions.headers` (names in lower case) on an answer. */
export function setApiHeaders(reply: FastifyReply, headers: readonly (readonly [string, string])[]): void {
  for (let i = 0; i < headers.length; i++) reply.header(headers[i]![0], headers[i]![1]);
}

/**
 * `RegisterOptions.headers` ahead of any header set before them, for errors
 * raised before the route's handler ran (credentials, body parsing,
 * 404/405), where Fastify may have set one (`connection: close` after a
 * body it could not read).
 */
export function apiHeadersFirst(reply: FastifyReply, headers: readonly (readonly [string, string])[]): void {
  if (headers.length === 0 || reply.hasHeader(headers[0]![0])) return;
  const earlier = reply.getHeaders();
  for (const name of Object.keys(earlier)) reply.removeHeader(name);
  setApiHeaders(reply, headers);
  for (const [name, value] of Object.entries(earlier)) if (value !== undefined) reply.header(name, value);
}
