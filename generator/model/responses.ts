/** An operation's success response (200) and its error responses with their codes. */
import { isRecord } from '../load/walk.js';
import type { BuildContext, RawNode } from './context.js';
import { readExamples } from './examples.js';
import type { SchemaConverter } from './schema.js';
import type { ErrorCode, OperationError, ResponseModel, Schema } from './types.js';

const JSON_TYPE = 'application/json';

export function buildResponses(
  ctx: BuildContext,
  schemas: SchemaConverter,
  operation: RawNode,
): { success: ResponseModel; errors: OperationError[] } {
  const responses = ctx.record(operation, 'responses', 'a map of responses');
  let success: ResponseModel | undefined;
  const errors: OperationError[] = [];
  for (const [status, raw] of Object.entries(responses)) {
    const response = ctx.deref(raw);
    if (!isRecord(response)) ctx.fail(responses, status, `response \`${status}\` must be a response object`);
    const range = /^[45]XX$/i.test(status) ? Number(status[0]) * 100 : NaN;
    const code = /^[1-5][0-9][0-9]$/.test(status) ? Number(status) : range;
    if (code === 200) {
      success = successResponse(ctx, schemas, responses, response);
    } else if (code >= 400 || status === 'default') {
      errors.push(errorResponse(ctx, schemas, responses, status, response));
    } else {
      ctx.warn(responses, status, `response \`${status}\` is not generated: the bindings answer 200, and the client reads 200 as the success body`);
    }
  }
  if (!success) ctx.fail(operation, 'responses', 'an operation needs a `200` response');
  // A `4XX`/`5XX` range after that hundred's exact statuses, `default` (status 0) last.
  const order = (error: OperationError) => (error.status === 0 ? 1000 : error.status + (error.statusText === undefined ? 0 : 99.5));
  errors.sort((a, b) => order(a) - order(b));
  return { success, errors };
}

function media(ctx: BuildContext, responses: RawNode, status: string, response: RawNode): RawNode {
  const content = response.content === undefined ? undefined : ctx.record(response, 'content', 'a map of media types');
  const types = Object.keys(content ?? {});
  if (!content || types.length !== 1 || types[0] !== JSON_TYPE) {
    ctx.fail(content ? response : responses, content ? 'content' : status, `response \`${status}\` must have exactly one media type, \`${JSON_TYPE}\``);
  }
  const mediaType = ctx.record(content, JSON_TYPE, 'a media type object');
  if (mediaType.schema === undefined) ctx.fail(content, JSON_TYPE, `response \`${status}\` needs a \`schema\``);
  return mediaType;
}

function successResponse(ctx: BuildContext, schemas: SchemaConverter, responses: RawNode, response: RawNode): ResponseModel {
  const mediaType = media(ctx, responses, '200', response);
  const schema = schemas.resolve(schemas.convert(mediaType.schema, mediaType, 'schema'));
  if (schema.kind !== 'object') ctx.fail(mediaType, 'schema', 'the `200` response body must be an object schema');
  const examples = readExamples(ctx, mediaType);
  return {
    status: 200,
    description: ctx.text(response, 'description'),
    schema,
    contents: [{ mediaType: JSON_TYPE, kind: 'json', schema, examples }],
    headers: [],
    examples,
  };
}

/**
 * An error response. One referencing error schemas with `x-error-code` lists
 * their codes; any other (plain schema, other media types, no body) is typed
 * by its status alone and lists none.
 */
function errorResponse(ctx: BuildContext, schemas: SchemaConverter, responses: RawNode, status: string, response: RawNode): OperationError {
  const numeric = /^[1-5][0-9][0-9]$/.test(status);
  const error: OperationError = {
    status: numeric ? Number(status) : /^[45]XX$/i.test(status) ? Number(status[0]) * 100 : 0,
    description: ctx.text(response, 'description'),
    codes: [],
    examples: [],
    contents: [],
    headers: [],
  };
  if (!numeric) error.statusText = status.toUpperCase() === status ? status : status.toUpperCase().replace('DEFAULT', 'default');
  const content = isRecord(response.content) ? response.content : undefined;
  const mediaType = content && Object.keys(content).length === 1 && isRecord(content[JSON_TYPE]) ? content[JSON_TYPE] : undefined;
  if (mediaType?.schema === undefined) return error;
  const schema = schemas.convert(mediaType.schema, mediaType, 'schema');
  const codes = errorCodes(schemas, schema, ctx);
  if (codes === undefined) return error;
  return { ...error, codes: [...new Set(codes)].sort(), examples: readExamples(ctx, mediaType) };
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
