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
import { deriveNames } from './names.js';
import { deepExpressible, plainShape, structuredPart } from './parameters.js';
import type { BodyContent, BodyKind, Example, Operation, Parameter, ParameterStyle, RequestBodyModel, Schema, WireEncoding } from './types.js';

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
  if (entries.length === 0) {
    // Valid (the map may be empty), but it says nothing a client could send.
    ctx.warn(requestBody, 'content', 'the request body lists no media type: the operation is generated without a body');
    return { kind: 'none', fields: [], examples: [] };
  }
  const contents = entries.map(([mediaType, raw]): { content: BodyContent; media: RawNode } => {
    const media = ctx.deref(raw);
    if (!isRecord(media)) ctx.fail(content, mediaType, `media type \`${mediaType}\` must be a media type object`);
    const kind = bodyKind(mediaType);
    const schema: Schema = media.schema === undefined ? defaultSchema(kind) : schemas.convert(media.schema, media, 'schema');
    const body: BodyContent = { mediaType: mediaType.toLowerCase(), ...writtenKey(mediaType), kind, schema, examples: readExamples(ctx, media) };
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
    // A form or multipart media type beside others: its fields, so that clients and decoders write and read them alike.
    for (const { content, media } of contents) {
      if ((content.kind !== 'form' && content.kind !== 'multipart') || schemas.resolve(content.schema).kind !== 'object') continue;
      const drafts = bodyFields(ctx, schemas, media, content);
      const names = deriveNames(drafts.map((d) => d.name));
      content.fields = drafts.map((d) => ({ ...d, names: names.get(d.name)! }));
    }
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
    const wire = fieldWire(ctx, schemas, property.name, property.schema, encodings, multipart);
    const notes = rawProperty ? versionNotes(rawProperty) : versionNotes({});
    const target = rawProperty ? ctx.deref(rawProperty) : undefined;
    const draft: Draft = {
      name: property.name,
      location: 'body',
      encoding: wire.encoding,
      ...(wire.style !== undefined ? { style: wire.style, explode: wire.explode } : wire.explode === true ? { explode: true } : {}),
      ...(wire.allowReserved === true ? { allowReserved: true } : {}),
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

/** Styles a form field may be written in (those of a query parameter). */
const FIELD_STYLES: readonly ParameterStyle[] = ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'];

interface FieldWire {
  encoding: WireEncoding;
  style?: ParameterStyle;
  explode?: boolean;
  allowReserved?: boolean;
}

/**
 * How one field of a form or multipart body travels, by its Encoding Object
 * (docs/decisions/0020-form-fields-by-encoding.md):
 * - a multipart file: a binary string or a list of them, or a part whose
 *   `contentType` is a binary type;
 * - `style`/`explode`/`allowReserved` written: the value spread as a query
 *   parameter of that style would be (also in multipart, as OpenAPI 3.1.1 has it);
 * - else a JSON `contentType` written: JSON text in one field (our own
 *   document's JSON-in-form fields);
 * - else OpenAPI's defaults: scalars as text; lists and objects of scalars
 *   spread as `form`, exploded (`tags=a&tags=b`, an object's properties as
 *   fields of their own) in a form body; in a multipart body a list is one
 *   part per element and an object one `application/json` part, a list of
 *   objects one JSON part per element.
 * A value no style spells out (lists or objects inside a list or object, in
 * a form body) travels as JSON text, with a warning.
 */
function fieldWire(ctx: BuildContext, schemas: SchemaConverter, name: string, schema: Schema, encodings: RawNode, multipart: boolean): FieldWire {
  if (multipart && isFile(schemas, schema)) return { encoding: 'file' };
  const encoding = ctx.deref(encodings[name]);
  const written = isRecord(encoding) ? encoding : {};
  const contentType = typeof written.contentType === 'string' ? written.contentType.toLowerCase() : undefined;
  if (written.style !== undefined && !FIELD_STYLES.includes(written.style as ParameterStyle)) {
    ctx.fail(encoding, 'style', `encoding of field \`${name}\` has style ${FIELD_STYLES.map((s) => `\`${s}\``).join(', ')} (found \`${String(written.style)}\`)`);
  }
  for (const key of ['explode', 'allowReserved'] as const) {
    if (written[key] !== undefined && typeof written[key] !== 'boolean') ctx.fail(encoding, key, `\`${key}\` must be true or false`);
  }
  const styled = written.style !== undefined || written.explode !== undefined || written.allowReserved !== undefined;
  if (!styled && contentType !== undefined) {
    if (bodyKind(contentType) === 'json') return { encoding: 'json' };
    if (multipart && bodyKind(contentType) === 'binary') return { encoding: 'file' };
  }
  const shape = plainShape(schemas, schema);
  const resolved = schemas.resolve(schema);
  if (!styled && multipart) {
    // Multipart defaults: a part per list element; an object (or anything deeper) as JSON.
    if (shape === 'scalar') return { encoding: 'plain' };
    if (shape === 'array') return { encoding: 'plain', style: 'form', explode: true };
    if (resolved.kind === 'array' && resolved.prefixItems === undefined) return { encoding: 'json', explode: true };
    return { encoding: 'json' };
  }
  const style = (written.style as ParameterStyle | undefined) ?? 'form';
  const explode = (written.explode as boolean | undefined) ?? style === 'form';
  const reserved = written.allowReserved === true ? { allowReserved: true } : {};
  if (shape === 'scalar') return { encoding: 'plain', ...reserved };
  const mixedReadable = style === 'deepObject' || (style === 'form' && explode && structuredPart(schemas, schema).kind === 'array');
  // Nested bracket fields (`items[0][price]=p`), as form-encoded APIs such as Stripe's write them.
  if (shape === undefined && style === 'deepObject' && deepExpressible(schemas, schema)) return { encoding: 'plain', style, explode: true, ...reserved };
  if (shape === undefined || (shape === 'mixed' && !mixedReadable)) {
    ctx.warn(isRecord(encoding) ? encoding : schemas.raw.get(schema) ?? encodings, undefined, shape === undefined
      ? `field \`${name}\` holds lists or objects inside a list or object, which only \`deepObject\` spells out (and not a schema that contains itself): it is sent as JSON text`
      : `field \`${name}\` is a scalar or a list or object, which only \`deepObject\` (or exploded \`form\`, for a list) tells apart: it is sent as JSON text`);
    return { encoding: 'json' };
  }
  return { encoding: 'plain', style, explode, ...reserved };
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

/** `written` when the document's key is not already lower-case (openapi-typescript keeps it as written). */
export function writtenKey(mediaType: string): { written?: string } {
  return mediaType === mediaType.toLowerCase() ? {} : { written: mediaType };
}
