/**
 * Reading a request into what its decoder takes (`FullRawRequest`): path,
 * query, form or multipart fields, files, headers, cookies, and a whole body
 * parsed by its declared media type; refusals of bodies the operation does
 * not take.
 */
import type { FastifyRequest } from 'fastify';
import type { MediaTypeRoute, Route } from './api.js';
import { matchMediaType } from './answers.js';
import { cookiesOf } from './credentials.js';
import { ApiError, frameworkError, messageOf } from './errors.js';
import { readMultipart } from './multipart.js';
import { NO_COOKIES, NO_FIELDS, type FormFields } from './parsing.js';
import type { RawRequest } from '../validators-runtime/index.js';

/** The decoder input with everything the bindings read (headers, cookies, a whole body). */
export type FullRawRequest = RawRequest & {
  headers?: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string | string[]>;
  content?: { mediaType: string; value: unknown };
};

/** A body of a type no parser of the scope handles: its bytes, read up to the body limit. */
export class OtherBody {
  constructor(
    readonly contentType: string | undefined,
    readonly data: Buffer,
  ) {}
}

/** The whole body an operation takes (its declared media types); found once per route. */
export interface BodyPlan {
  required: boolean;
  contents: readonly MediaTypeRoute[];
  form?: MediaTypeRoute;
  multipart?: MediaTypeRoute;
}

export function bodyPlan(route: Route): BodyPlan | undefined {
  if (route.body === undefined) return undefined;
  return {
    ...route.body,
    form: route.body.contents.find((content) => content.kind === 'form'),
    multipart: route.body.contents.find((content) => content.kind === 'multipart'),
  };
}

/** How a body no parser takes is refused at an operation without a whole body (`ApiSettings`). */
export interface RefusedBodyStyle {
  parametersInFields: boolean;
  refusedBodyStatus: 400 | 415;
}

/** The raw parameters of a request whose body (if any) Fastify has parsed already. */
export function readRequest(request: FastifyRequest, route: Route, body: BodyPlan | undefined, refused: RefusedBodyStyle): FullRawRequest {
  const raw: FullRawRequest = {
    path: pathOf(request, route),
    query: request.query as FormFields,
    body: NO_FIELDS,
    headers: request.headers,
    cookies: route.cookies === true ? cookiesOf(request) : NO_COOKIES,
  };
  const sent = request.body;
  if (sent instanceof OtherBody) {
    if (body === undefined) throw refusedBody(sent.contentType, route, refused);
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

/** Whether {@link readPlainRequest} reads this operation's requests: no whole body, renamed path parameters, cookies or single file. */
export function readsPlainRequests(route: Route): boolean {
  return route.body === undefined && route.pathNames === undefined && route.cookies !== true && route.file === undefined;
}

/** {@link readRequest} for an operation without a whole body, renamed path parameters, cookies or a single file. */
export function readPlainRequest(request: FastifyRequest, route: Route, refused: RefusedBodyStyle): FullRawRequest {
  const sent = request.body;
  if (sent instanceof OtherBody) throw refusedBody(sent.contentType, route, refused);
  return {
    path: request.params as Record<string, string>,
    query: request.query as FormFields,
    body: sent === undefined || sent === null ? NO_FIELDS : (sent as FormFields),
    headers: request.headers,
    cookies: NO_COOKIES,
  };
}

/** The raw parameters of a multipart request, reading its parts. */
export async function readMultipartRequest(request: FastifyRequest, route: Route, body: BodyPlan | undefined, bodyLimit: number): Promise<FullRawRequest> {
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
function refusedBody(contentType: string | undefined, route: Route, refused: RefusedBodyStyle): ApiError {
  const code = refused.refusedBodyStatus === 400 ? 'BAD_REQUEST' : 'UNSUPPORTED_MEDIA_TYPE';
  if (refused.parametersInFields) return frameworkError(code, fieldsOnlyMessage(contentType));
  const what = contentType === undefined ? 'a request body without a Content-Type' : `a Content-Type "${contentType}" body`;
  return frameworkError(code, `${route.operationId} does not take ${what}`);
}

function fieldsOnlyMessage(contentType: string | undefined): string {
  const send = 'send parameters as application/x-www-form-urlencoded or multipart/form-data fields';
  if (contentType === undefined) return `A request body needs a Content-Type header: ${send}`;
  if (/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    return `JSON request bodies are not accepted: ${send} (list and object values go JSON-encoded inside one field)`;
  }
  return `Unsupported Content-Type "${contentType}": ${send}`;
}
