/**
 * An operation's responses: every non-error response (1xx-3xx, their `NXX`
 * ranges, and `default` when no 2xx is declared), the primary success among
 * them, and the error responses (4xx, 5xx, their ranges, and `default` beside
 * a 2xx) with their error codes. Bodies of any media type and schema, and
 * response headers.
 */
import { isRecord } from '../load/walk.js';
import { bodyKind, writtenKey } from './bodies.js';
import type { BuildContext, RawNode } from './context.js';
import { readExamples } from './examples.js';
import { deriveNames } from './names.js';
import { mergeNotes, versionNotes } from './notes.js';
import type { SchemaConverter } from './schema.js';
import type { ErrorCode, OperationError, ResponseContent, ResponseHeader, ResponseModel, Schema } from './types.js';

/**
 * The success of an operation that declares none (only error responses): a
 * response without body or headers, status 204. Servers answer it when a
 * handler returns; clients resolve to `undefined`.
 */
export const NO_SUCCESS_STATUS = 204;

interface Classified {
  key: string;
  status: number;
  statusText?: string;
  raw: RawNode;
}

export function buildResponses(
  ctx: BuildContext,
  schemas: SchemaConverter,
  operation: RawNode,
): { success: ResponseModel; successes: ResponseModel[]; errors: OperationError[] } {
  // OpenAPI 3.1 makes `responses` optional: without it, the operation has only the synthetic success.
  const responses = operation.responses === undefined ? {} : ctx.record(operation, 'responses', 'a map of responses');
  const found: Classified[] = [];
  for (const [key, raw] of Object.entries(responses)) {
    if (key.startsWith('x-')) continue;
    const response = ctx.deref(raw);
    if (!isRecord(response)) ctx.fail(responses, key, `response \`${key}\` must be a response object`);
    if (/^[1-5][0-9][0-9]$/.test(key)) found.push({ key, status: Number(key), raw: response });
    else if (/^[1-5]XX$/i.test(key)) found.push({ key, status: Number(key[0]) * 100, statusText: key.toUpperCase(), raw: response });
    else if (key === 'default') found.push({ key, status: 0, statusText: 'default', raw: response });
    else ctx.fail(responses, key, `response key \`${key}\` is not a status code, a \`1XX\`-\`5XX\` range or \`default\``);
  }
  const has2xx = found.some((r) => r.status >= 200 && r.status < 300);
  const isError = (r: Classified): boolean => r.status >= 400 || (r.status === 0 && has2xx);

  const successes = found
    .filter((r) => !isError(r))
    .sort((a, b) => order(a) - order(b))
    .map((r) => successResponse(ctx, schemas, r));
  const primary = [...successes].sort((a, b) => primaryOrder(a) - primaryOrder(b))[0];
  const success = primary ?? noSuccess();
  const errors = found
    .filter(isError)
    .sort((a, b) => order(a) - order(b))
    .map((r) => errorResponse(ctx, schemas, r));
  return { success, successes: primary ? successes : [success], errors };
}

/** Exact statuses in order, a range after its hundred's exact statuses, `default` (status 0) last. */
function order(r: { status: number; statusText?: string }): number {
  return r.status === 0 ? 1000 : r.status + (r.statusText === undefined ? 0 : 99.5);
}

/** The primary success: the lowest 2xx (a `2XX` range after exact ones), else the lowest 1xx/3xx, else `default`. */
function primaryOrder(r: ResponseModel): number {
  const base = order(r);
  return r.status >= 200 && r.status < 300 ? base : base === 1000 ? 3000 : base + 1000;
}

function noSuccess(): ResponseModel {
  return {
    status: NO_SUCCESS_STATUS,
    description: 'No success response is declared.',
    schema: { kind: 'any' },
    contents: [],
    headers: [],
    examples: [],
    synthetic: true,
  };
}

function successResponse(ctx: BuildContext, schemas: SchemaConverter, r: Classified): ResponseModel {
  const contents = responseContents(ctx, schemas, r);
  const json = contents.find((c) => c.kind === 'json');
  const model: ResponseModel = {
    status: r.status,
    description: ctx.text(r.raw, 'description'),
    // Resolved, as targets have always read it; `contents` keep references to named schemas.
    schema: json ? schemas.resolve(json.schema) : { kind: 'any' },
    contents,
    headers: responseHeaders(ctx, schemas, r),
    examples: json?.examples ?? [],
  };
  if (r.statusText !== undefined) model.statusText = r.statusText;
  return model;
}

/** Each media type of a response, in document order (none: no body). */
function responseContents(ctx: BuildContext, schemas: SchemaConverter, r: Classified): ResponseContent[] {
  if (r.raw.content === undefined) return [];
  const content = ctx.record(r.raw, 'content', 'a map of media types');
  return Object.entries(content).map(([mediaType, raw]): ResponseContent => {
    const media = ctx.deref(raw);
    if (!isRecord(media)) ctx.fail(content, mediaType, `media type \`${mediaType}\` must be a media type object`);
    const found = bodyKind(mediaType);
    // A form or multipart response body is read as bytes.
    const kind = found === 'form' || found === 'multipart' ? 'binary' : found;
    const schema: Schema =
      media.schema !== undefined
        ? schemas.convert(media.schema, media, 'schema')
        : kind === 'json'
          ? { kind: 'any' }
          : { kind: 'string', ...(kind === 'binary' ? { format: 'binary' } : {}) };
    return { mediaType: mediaType.toLowerCase(), ...writtenKey(mediaType), kind, schema, examples: readExamples(ctx, media) };
  });
}

/** A response's headers in document order (`Content-Type` is not a header of its own, OpenAPI says). */
function responseHeaders(ctx: BuildContext, schemas: SchemaConverter, r: Classified): ResponseHeader[] {
  if (r.raw.headers === undefined) return [];
  const headers = ctx.record(r.raw, 'headers', 'a map of headers');
  const entries = Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type');
  const names = deriveNames(entries.map(([name]) => name));
  return entries.map(([name, raw]): ResponseHeader => {
    const header = ctx.deref(raw);
    if (!isRecord(header)) ctx.fail(headers, name, `header \`${name}\` must be a header object`);
    let schemaNode: unknown = header.schema;
    let parent: RawNode = header;
    if (schemaNode === undefined && isRecord(header.content)) {
      const first = Object.values(header.content)[0];
      const media = ctx.deref(first);
      if (isRecord(media)) {
        schemaNode = media.schema;
        parent = media;
      }
    }
    const schema: Schema = schemaNode === undefined ? { kind: 'string' } : schemas.convert(schemaNode, parent, 'schema');
    const rawSchema = ctx.deref(schemaNode);
    return {
      name,
      names: names.get(name)!,
      required: header.required === true,
      schema,
      description: typeof header.description === 'string' ? header.description : (schema.description ?? ''),
      source: ctx.locate(header),
      ...mergeNotes(versionNotes(header), versionNotes(isRecord(rawSchema) ? rawSchema : {})),
    };
  });
}

/**
 * An error response. One referencing error schemas with `x-error-code` lists
 * their codes; any other (plain schema, other media types, no body) is typed
 * by its status alone and lists none.
 */
function errorResponse(ctx: BuildContext, schemas: SchemaConverter, r: Classified): OperationError {
  const contents = responseContents(ctx, schemas, r);
  const error: OperationError = {
    status: r.status,
    description: ctx.text(r.raw, 'description'),
    codes: [],
    examples: [],
    contents,
    headers: responseHeaders(ctx, schemas, r),
  };
  if (r.statusText !== undefined) error.statusText = r.statusText === 'DEFAULT' ? 'default' : r.statusText;
  const json = contents.length === 1 && contents[0]!.kind === 'json' ? contents[0] : undefined;
  if (json === undefined || r.raw.content === undefined) return error;
  const codes = errorCodes(schemas, json.schema, ctx);
  if (codes === undefined) return error;
  return { ...error, codes: [...new Set(codes)].sort(), examples: json.examples };
}

/** The `x-error-code` of each error schema a response references (directly or through `oneOf`); undefined when it is not such a response. */
function errorCodes(schemas: SchemaConverter, schema: Schema, ctx: BuildContext): string[] | undefined {
  if (schema.kind === 'union') {
    const lists = schema.variants.map((v) => errorCodes(schemas, v, ctx));
    return lists.every((list) => list !== undefined) ? lists.flat() : undefined;
  }
  const code = schema.kind === 'ref' ? errorSchema(ctx, schema.name)?.['x-error-code'] : undefined;
  return typeof code === 'string' ? [code] : undefined;
}

function errorSchema(ctx: BuildContext, name: string): RawNode | undefined {
  const components = ctx.document.components;
  const node = isRecord(components) && isRecord(components.schemas) ? components.schemas[name] : undefined;
  return isRecord(node) ? node : undefined;
}

/** Every component schema carrying `x-error-code`, sorted by code. */
export function buildErrorCodes(ctx: BuildContext, schemas: SchemaConverter): ErrorCode[] {
  const components = ctx.document.components;
  const all = isRecord(components) && isRecord(components.schemas) ? components.schemas : {};
  const codes = new Map<string, ErrorCode>();
  for (const [name, node] of Object.entries(all)) {
    if (!isRecord(node) || node['x-error-code'] === undefined) continue;
    const code = node['x-error-code'] as string;
    if (codes.has(code)) ctx.fail(node, 'x-error-code', `error code \`${code}\` is also used by \`${codes.get(code)!.schemaName}\``);
    if (node['x-http-status'] === undefined) ctx.fail(node, 'x-error-code', `error schema \`${name}\` needs \`x-http-status\``);
    const schema = schemas.resolve(schemas.namedSchema(name));
    if (schema.kind !== 'object') ctx.fail(node, undefined, `error schema \`${name}\` must be an object`);
    const codeProperty = schema.properties.find((p) => p.name === 'code');
    const codeSchema = codeProperty && schemas.resolve(codeProperty.schema);
    if (codeSchema?.kind !== 'string' || codeSchema.const !== code || !codeProperty?.required) {
      ctx.fail(node, 'x-error-code', `error schema \`${name}\` needs a required \`code\` property with \`const: ${code}\``);
    }
    codes.set(code, {
      code,
      status: node['x-http-status'] as number,
      schemaName: name,
      description: ctx.text(node, 'description'),
      extraFields: schema.properties.filter((p) => !['result', 'msg', 'code'].includes(p.name)),
    });
  }
  return [...codes.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
