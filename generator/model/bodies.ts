/**
 * An operation's request body (`RequestBodyModel`). When every media type is
 * a form or multipart body with an object schema, the body is in `fields`
 * mode: its properties become the operation's `body` parameters, as in our
 * own document. Anything else (JSON, text, binary, a form body whose schema
 * is not an object, several kinds at once) is in `whole` mode: one value,
 * passed under `parameterName`.
 */
import { isRecord } from '../load/walk.js';
import type { BuildContext, RawNode } from './context.js';
import { readExamples } from './examples.js';
import { versionNotes } from './notes.js';
import type { SchemaConverter } from './schema.js';
import type { BodyContent, BodyKind, Example, Operation, Parameter, RequestBodyModel, Schema, WireEncoding } from './types.js';

const JSON_TYPE = 'application/json';

type Draft = Omit<Parameter, 'names'>;

export interface BodyInput {
  requestBody?: RequestBodyModel;
  /** `Operation.body`: the first media type's kind, or `none`. */
  kind: Operation['body'];
  /** `fields` mode: each property of the body as a `body` parameter, in schema order. */
  fields: Draft[];
  /** Request examples of the first media type (`fields`: the body's own; `whole`: under `parameterName`). */
  examples: Example[];
}

/**
 * The kind of a media type (lower-cased, parameters dropped): form, multipart,
 * JSON (`application/json`, `+json`, `json` anywhere in the subtype), text
 * (`text/*` and textual application types), binary otherwise.
 */
export function bodyKind(mediaType: string): BodyKind {
  const type = mediaType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type.startsWith('multipart/')) return 'multipart';
  const [main = '', sub = ''] = type.split('/', 2);
  if (sub === 'json' || sub.endsWith('+json') || /(^|[.-])json($|[.-])/.test(sub)) return 'json';
  if (main === 'text') return 'text';
  if (main === 'application' && (sub === 'xml' || sub.endsWith('+xml') || sub === 'javascript' || sub === 'yaml' || sub === 'x-yaml' || sub === 'graphql' || sub === 'sql')) {
    return 'text';
  }
  return 'binary';
}

/**
 * @param otherNames names of the operation's other parameters; a `whole` body
 * is passed as `body`, or `requestBody` when a parameter is already named `body`.
 */
export function buildRequestBody(ctx: BuildContext, schemas: SchemaConverter, operation: RawNode, otherNames: readonly string[]): BodyInput {
  if (operation.requestBody === undefined) return { kind: 'none', fields: [], examples: [] };
  const requestBody = ctx.record(operation, 'requestBody', 'a request body');
  const content = ctx.record(requestBody, 'content', 'a map of media types');
  const entries = Object.entries(content);
  if (entries.length === 0) ctx.fail(requestBody, 'content', 'a request body needs at least one media type');
  const contents = entries.map(([mediaType, raw]): { content: BodyContent; media: RawNode } => {
    const media = ctx.deref(raw);
    if (!isRecord(media)) ctx.fail(content, mediaType, `media type \`${mediaType}\` must be a media type object`);
    const kind = bodyKind(mediaType);
    const schema: Schema = media.schema === undefined ? defaultSchema(kind) : schemas.convert(media.schema, media, 'schema');
    const body: BodyContent = { mediaType: mediaType.toLowerCase(), kind, schema, examples: readExamples(ctx, media) };
    const parts = partContentTypes(ctx, media);
    if (parts !== undefined) body.partContentTypes = parts;
    return { content: body, media };
  });

  const fieldsMode = contents.every(({ content }) => (content.kind === 'form' || content.kind === 'multipart') && schemas.resolve(content.schema).kind === 'object');
  const model: RequestBodyModel = {
    required: requestBody.required === true,
    description: ctx.text(requestBody, 'description'),
    mode: fieldsMode ? 'fields' : 'whole',
    contents: contents.map((c) => c.content),
    source: ctx.locate(requestBody),
  };
  const first = contents[0]!;
  if (!fieldsMode) {
    model.parameterName = otherNames.includes('body') ? 'requestBody' : 'body';
    const name = model.parameterName;
    const examples = first.content.examples.map((e) => ({ ...e, value: { [name]: e.value } }));
    return { requestBody: model, kind: first.content.kind, fields: [], examples };
  }
  // Fields mode: the first media type's properties are the parameters (the others list the same fields, written another way).
  const fields = bodyFields(ctx, schemas, first.media, first.content);
  return { requestBody: model, kind: first.content.kind, fields, examples: first.content.examples };
}

/** A body without a schema: any JSON value, any text, any bytes. */
function defaultSchema(kind: BodyKind): Schema {
  return kind === 'text' || kind === 'binary' ? { kind: 'string', ...(kind === 'binary' ? { format: 'binary' } : {}) } : { kind: 'any' };
}

/** A multipart body's `encoding.<part>.contentType`, when any is written. */
function partContentTypes(ctx: BuildContext, media: RawNode): Record<string, string> | undefined {
  if (media.encoding === undefined) return undefined;
  const encodings = ctx.record(media, 'encoding', 'a map of property encodings');
  const types: Record<string, string> = {};
  for (const [name, raw] of Object.entries(encodings)) {
    const encoding = ctx.deref(raw);
    if (!isRecord(encoding)) ctx.fail(encodings, name, `encoding \`${name}\` must be an encoding object`);
    if (encoding.contentType === undefined) continue;
    if (typeof encoding.contentType !== 'string') ctx.fail(encoding, 'contentType', '`contentType` must be text');
    types[name] = encoding.contentType.toLowerCase();
  }
  return Object.keys(types).length > 0 ? types : undefined;
}

function bodyFields(ctx: BuildContext, schemas: SchemaConverter, media: RawNode, content: BodyContent): Draft[] {
  const schema = schemas.resolve(content.schema);
  if (schema.kind !== 'object') return [];
  const encodings = media.encoding === undefined ? {} : ctx.record(media, 'encoding', 'a map of property encodings');
  for (const name of Object.keys(encodings)) {
    if (!schema.properties.some((p) => p.name === name)) ctx.warn(encodings, name, `encoding names unknown property \`${name}\`; it is ignored`);
  }
  const multipart = content.kind === 'multipart';
  return schema.properties.map((property): Draft => {
    const rawProperty = schemas.raw.get(property.schema);
    const encoding = fieldEncoding(ctx, schemas, property.name, property.schema, encodings, multipart);
    const notes = rawProperty ? versionNotes(rawProperty) : versionNotes({});
    const target = rawProperty ? ctx.deref(rawProperty) : undefined;
    const draft: Draft = {
      name: property.name,
      location: 'body',
      encoding,
      required: property.required,
      schema: property.schema,
      default: rawProperty?.default ?? (isRecord(target) ? target.default : undefined),
      description: property.schema.description ?? '',
      source: rawProperty ? ctx.locate(rawProperty) : ctx.locate(media, 'schema'),
      ...notes,
    };
    if (draft.default === undefined) delete draft.default;
    return draft;
  });
}

/**
 * How one field of a form or multipart body travels: a multipart file (a
 * binary string, or a list of them), JSON text (`encoding.contentType`
 * `application/json`, or a value that plain text cannot carry), or plain text.
 */
function fieldEncoding(ctx: BuildContext, schemas: SchemaConverter, name: string, schema: Schema, encodings: RawNode, multipart: boolean): WireEncoding {
  if (multipart && isFile(schemas, schema)) return 'file';
  const encoding = ctx.deref(encodings[name]);
  const contentType = isRecord(encoding) && typeof encoding.contentType === 'string' ? encoding.contentType.toLowerCase() : undefined;
  if (contentType !== undefined && bodyKind(contentType) === 'json') return 'json';
  if (multipart && contentType !== undefined && bodyKind(contentType) === 'binary') return 'file';
  if (needsJson(schemas, schema)) {
    if (contentType !== undefined && bodyKind(contentType) !== 'json') {
      ctx.warn(encoding, 'contentType', `field \`${name}\` is a list, object or union sent as \`${contentType}\`; it is sent as JSON text`);
    }
    return 'json';
  }
  return 'plain';
}

/** A file part: a binary string (`format: binary`/`base64` or a `contentMediaType`), or a list of them. */
export function isFile(schemas: SchemaConverter, schema: Schema): boolean {
  const resolved = schemas.resolve(schema);
  if (resolved.kind === 'array') return resolved.items !== undefined && isBinaryString(schemas, resolved.items);
  return isBinaryString(schemas, resolved);
}

function isBinaryString(schemas: SchemaConverter, schema: Schema): boolean {
  const resolved = schemas.resolve(schema);
  return resolved.kind === 'string' && (resolved.format === 'binary' || schemas.raw.get(resolved)?.contentMediaType !== undefined);
}

/** Values that cannot travel as plain text: lists, objects, unions (nullable included), anything. */
function needsJson(schemas: SchemaConverter, schema: Schema): boolean {
  const resolved = schemas.resolve(schema);
  return resolved.kind === 'array' || resolved.kind === 'object' || resolved.kind === 'union' || resolved.kind === 'any';
}
