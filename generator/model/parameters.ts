/**
 * An operation's parameters: path parameters (in path order), then query,
 * header and cookie parameters and the properties of its form or multipart
 * body, in spec order, each with its wire encoding and (for plain ones) the
 * style in force.
 *
 * Keys: a parameter is keyed by its wire name in the operation's params
 * object, unless another parameter of the operation has the same name (a
 * query `id` and a header `id`); then each of those is keyed
 * `<location>_<name>` (`Parameter.key`), numbered when that is taken too.
 */
import { isRecord } from '../load/walk.js';
import type { BuildContext, RawNode } from './context.js';
import { readExamples } from './examples.js';
import { deriveNames } from './names.js';
import { mergeNotes, versionNotes } from './notes.js';
import type { SchemaConverter } from './schema.js';
import { buildRequestBody } from './bodies.js';
import type { Example, Operation, Parameter, ParameterStyle, RequestBodyModel, Schema, WireEncoding } from './types.js';

const JSON_TYPE = 'application/json';

type Draft = Omit<Parameter, 'names'>;

export interface OperationInput {
  parameters: Parameter[];
  body: Operation['body'];
  requestBody?: RequestBodyModel;
  requestExamples: Example[];
}

export function buildParameters(
  ctx: BuildContext,
  schemas: SchemaConverter,
  operation: RawNode,
  pathItem: RawNode,
  path: string,
): OperationInput {
  const raw = declaredParameters(ctx, operation, pathItem);
  const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const drafts: Draft[] = [];
  const nodes = new Map<Draft, RawNode>();
  const add = (node: RawNode): void => {
    const draft = declaredParameter(ctx, schemas, node);
    nodes.set(draft, node);
    drafts.push(draft);
  };
  for (const name of placeholders) {
    const node = raw.find((p) => p.in === 'path' && p.name === name);
    if (!node) ctx.fail(operation, 'parameters', `path parameter \`${name}\` of \`${path}\` is not declared`);
    add(node);
  }
  for (const node of raw) {
    if (node.in === 'path') {
      if (!placeholders.includes(node.name as string)) ctx.fail(node, 'name', `path parameter \`${String(node.name)}\` does not appear in \`${path}\``);
    } else {
      add(node);
    }
  }
  const body = buildRequestBody(ctx, schemas, operation, drafts.map((d) => d.name));
  drafts.push(...body.fields);

  const keyed = assignKeys(drafts);
  const names = deriveNames(keyed.map(keyOf));
  const parameters = keyed.map((d) => ({ ...d, names: names.get(keyOf(d))! }));
  const keys = new Map<RawNode, string>();
  keyed.forEach((draft, i) => {
    const node = nodes.get(drafts[i]!);
    if (node) keys.set(node, keyOf(draft));
  });
  return {
    parameters,
    body: body.kind,
    ...(body.requestBody ? { requestBody: body.requestBody } : {}),
    requestExamples: mergeParameterExamples(ctx, body.examples, raw, keys),
  };
}

const keyOf = (parameter: Pick<Parameter, 'name' | 'key'>): string => parameter.key ?? parameter.name;

/**
 * Gives every parameter whose name another parameter of the operation shares
 * the key `<location>_<name>` (numbered if even that is taken); the others
 * keep their wire name as their key. Same name and location twice is an error
 * caught earlier (or, for a body field, here).
 */
function assignKeys(drafts: Draft[]): Draft[] {
  const count = new Map<string, number>();
  for (const draft of drafts) count.set(draft.name, (count.get(draft.name) ?? 0) + 1);
  const taken = new Set(drafts.filter((d) => count.get(d.name) === 1).map((d) => d.name));
  return drafts.map((draft) => {
    if (count.get(draft.name) === 1) return draft;
    const base = `${draft.location}_${draft.name}`;
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
    taken.add(key);
    return { ...draft, key };
  });
}

type Location = 'path' | 'query' | 'header' | 'cookie';
const LOCATIONS: readonly Location[] = ['path', 'query', 'header', 'cookie'];

/** The styles each location allows, the first being its default (OpenAPI 3.1, "Style Values"). */
const STYLES: Record<Location, readonly ParameterStyle[]> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
};

/** Header parameters OpenAPI says to ignore: the media types and credentials are described elsewhere. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Identity of a parameter: its location and name (header names compare case-insensitively). */
function identity(node: RawNode): string {
  const name = node.name as string;
  return `${String(node.in)}:${node.in === 'header' ? name.toLowerCase() : name}`;
}

/** Path-item parameters, overridden by the operation's own (same name and location). */
function declaredParameters(ctx: BuildContext, operation: RawNode, pathItem: RawNode): RawNode[] {
  const list = (owner: RawNode): RawNode[] => {
    if (owner.parameters === undefined) return [];
    if (!Array.isArray(owner.parameters)) ctx.fail(owner, 'parameters', '`parameters` must be a list');
    const seen = new Set<string>();
    return owner.parameters.flatMap((p, i) => {
      const node = ctx.deref(p);
      if (!isRecord(node) || typeof node.name !== 'string') ctx.fail(owner.parameters, String(i), 'a parameter needs a `name`');
      if (!LOCATIONS.includes(node.in as Location)) {
        ctx.fail(node, 'in', `parameter \`${node.name}\` is \`in: ${String(node.in)}\`; a parameter is in path, query, header or cookie (form and multipart fields are request body properties)`);
      }
      const id = identity(node);
      if (seen.has(id)) ctx.fail(node, 'name', `parameter \`${node.name}\` (${String(node.in)}) is declared twice`);
      seen.add(id);
      if (node.in === 'header' && IGNORED_HEADERS.has(node.name.toLowerCase())) {
        ctx.warn(node, 'name', `header parameter \`${node.name}\` is ignored, as OpenAPI says: media types and credentials are described by the body, responses and security schemes`);
        return [];
      }
      return [node];
    });
  };
  const own = list(operation);
  const ownIds = new Set(own.map(identity));
  const inherited = list(pathItem).filter((p) => !ownIds.has(identity(p)));
  return [...inherited, ...own];
}

/** A JSON media type: `application/json`, `application/<x>+json`, `text/json` and the like. */
export function isJsonMediaType(mediaType: string): boolean {
  const base = mediaType.split(';', 1)[0]!.trim().toLowerCase();
  return /^[a-z0-9.+-]+\/(?:[a-z0-9.+-]+\+)?json$/.test(base) || /^[a-z0-9.+-]+\/[a-z0-9.+-]*json$/.test(base);
}

/**
 * How a plain parameter's schema is laid out as text; undefined: it is not
 * (lists or objects inside lists or objects). `mixed`: a union of scalars and
 * one list or object of scalars (`5` or `created[gt]=5`), which only
 * `deepObject` tells apart.
 */
export type PlainShape = 'scalar' | 'array' | 'object' | 'mixed';

/**
 * Whether a schema can travel as plain text through a style: a scalar
 * (string, integer, number, boolean, `null` among other scalars, a union of
 * those, any value), a list of scalars, an object whose values are scalars,
 * or a union of scalars with one such list or object.
 */
export function plainShape(schemas: Pick<SchemaConverter, 'resolve'>, schema: Schema): PlainShape | undefined {
  const resolved = schemas.resolve(schema);
  if (isScalar(schemas, resolved)) return 'scalar';
  const shape = structuredShape(schemas, resolved);
  if (shape !== undefined || resolved.kind !== 'union') return shape;
  const structured = resolved.variants.filter((v) => !isScalar(schemas, v));
  return structured.length === 1 && structuredShape(schemas, schemas.resolve(structured[0]!)) !== undefined ? 'mixed' : undefined;
}

/** The list or object variant of a `mixed` union (the schema itself otherwise). */
export function structuredPart(schemas: Pick<SchemaConverter, 'resolve'>, schema: Schema): Schema {
  const resolved = schemas.resolve(schema);
  if (resolved.kind !== 'union') return resolved;
  const structured = resolved.variants.find((v) => !isScalar(schemas, v));
  return structured === undefined ? resolved : schemas.resolve(structured);
}

function structuredShape(schemas: Pick<SchemaConverter, 'resolve'>, resolved: Schema): 'array' | 'object' | undefined {
  if (resolved.kind === 'array') {
    if (resolved.prefixItems !== undefined || resolved.contains !== undefined) return undefined;
    return resolved.items === undefined || isScalar(schemas, resolved.items) ? 'array' : undefined;
  }
  if (resolved.kind === 'object') {
    if (resolved.patternProperties !== undefined || resolved.propertyNames !== undefined) return undefined;
    if (!resolved.properties.every((p) => isScalar(schemas, p.schema))) return undefined;
    const rest = resolved.additionalProperties;
    return typeof rest === 'boolean' || isScalar(schemas, rest) ? 'object' : undefined;
  }
  return undefined;
}

/**
 * Whether `deepObject` bracket notation spells a value of this schema out
 * (`items[0][price]=p`, docs/decisions/0020-form-fields-by-encoding.md): a
 * finite tree of objects, lists (no tuples) and scalars, unions merged. A
 * schema that contains itself, or nests deeper than a dozen levels, does not.
 */
export function deepExpressible(schemas: Pick<SchemaConverter, 'resolve'>, schema: Schema, path: Set<Schema> = new Set(), depth = 0): boolean {
  const resolved = schemas.resolve(schema);
  if (isScalar(schemas, resolved)) return true;
  if (path.has(resolved) || depth > 12) return false;
  path.add(resolved);
  try {
    switch (resolved.kind) {
      case 'array':
        if (resolved.prefixItems !== undefined || resolved.contains !== undefined) return false;
        return resolved.items === undefined || deepExpressible(schemas, resolved.items, path, depth + 1);
      case 'object': {
        if (resolved.patternProperties !== undefined || resolved.propertyNames !== undefined) return false;
        if (!resolved.properties.every((p) => deepExpressible(schemas, p.schema, path, depth + 1))) return false;
        const rest = resolved.additionalProperties;
        return typeof rest === 'boolean' || deepExpressible(schemas, rest, path, depth + 1);
      }
      case 'union':
        return resolved.variants.every((v) => deepExpressible(schemas, v, path, depth + 1));
      case 'never':
        return true;
      default:
        return false;
    }
  } finally {
    path.delete(resolved);
  }
}

function isScalar(schemas: Pick<SchemaConverter, 'resolve'>, schema: Schema, depth = 0): boolean {
  const resolved = schemas.resolve(schema);
  switch (resolved.kind) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'null':
      return true;
    case 'any':
      return resolved.enum === undefined || resolved.enum.every((v) => v === null || typeof v !== 'object');
    case 'union':
      return depth < 4 && resolved.variants.every((v) => isScalar(schemas, v, depth + 1));
    default:
      return false;
  }
}

function declaredParameter(ctx: BuildContext, schemas: SchemaConverter, node: RawNode): Draft {
  const name = node.name as string;
  const location = node.in as Location;
  if (location === 'path' && node.required !== true) ctx.fail(node, 'required', `path parameter \`${name}\` must be \`required: true\``);
  let schemaNode: unknown;
  let encoding: WireEncoding = 'plain';
  if (node.content !== undefined) {
    const content = ctx.record(node, 'content', 'a map of media types');
    const types = Object.keys(content);
    if (types.length !== 1) ctx.fail(node, 'content', `parameter \`${name}\` content must name exactly one media type (found ${types.length})`);
    const mediaType = types[0]!;
    schemaNode = ctx.record(content, mediaType, 'a media type object').schema ?? {};
    if (isJsonMediaType(mediaType)) {
      encoding = 'json';
    } else {
      ctx.warn(node, 'content', `parameter \`${name}\` is \`${mediaType}\`: it is read as plain text`);
    }
  } else {
    schemaNode = node.schema;
  }
  if (schemaNode === undefined) ctx.fail(node, undefined, `parameter \`${name}\` needs a \`schema\` or \`content\``);
  const schema = schemas.convert(schemaNode, node, node.content === undefined ? 'schema' : 'content');

  let style: ParameterStyle | undefined;
  let explode: boolean | undefined;
  if (encoding === 'plain') {
    const allowed = STYLES[location];
    if (node.style !== undefined && !allowed.includes(node.style as ParameterStyle)) {
      ctx.fail(node, 'style', `parameter \`${name}\` is \`in: ${location}\`, whose style is ${allowed.map((s) => `\`${s}\``).join(', ')} (found \`${String(node.style)}\`)`);
    }
    if (node.explode !== undefined && typeof node.explode !== 'boolean') ctx.fail(node, 'explode', '`explode` must be true or false');
    style = (node.style as ParameterStyle | undefined) ?? allowed[0]!;
    explode = (node.explode as boolean | undefined) ?? style === 'form';
    const shape = plainShape(schemas, schema);
    const where = node.content === undefined ? 'schema' : 'content';
    // A scalar or a list also tells itself apart as exploded form fields: one field is the scalar, a repeated one the list.
    const repeated = (location === 'query' || location === 'cookie') && style === 'form' && explode;
    const mixedReadable = style === 'deepObject' || (repeated && structuredPart(schemas, schema).kind === 'array');
    if (shape === undefined && style === 'deepObject' && deepExpressible(schemas, schema)) {
      // Nested bracket fields (`filter[items][0][id]=5`).
      explode = true;
    } else if (shape === undefined || (shape === 'mixed' && !mixedReadable)) {
      ctx.warn(node, where, shape === undefined
        ? `parameter \`${name}\` holds lists or objects inside a list or object, which only \`deepObject\` spells out (and not a schema that contains itself): it is read as JSON text`
        : `parameter \`${name}\` is a scalar or a list or object, which only \`deepObject\` (or exploded \`form\`, for a list) tells apart: it is read as JSON text`);
      encoding = 'json';
      style = undefined;
      explode = undefined;
    } else if (style === 'deepObject' && shape === 'scalar') {
      // A scalar has no fields: `name=value`, as `form` writes it.
      style = 'form';
      explode = (node.explode as boolean | undefined) ?? true;
    }
  }
  if (node.allowReserved !== undefined && typeof node.allowReserved !== 'boolean') ctx.fail(node, 'allowReserved', '`allowReserved` must be true or false');
  const rawSchema = ctx.deref(schemaNode);
  return compactDraft({
    name,
    location,
    encoding,
    required: node.required === true,
    schema,
    default: isRecord(rawSchema) ? rawSchema.default : undefined,
    ...(style === undefined ? {} : { style, explode }),
    ...(location === 'query' && node.allowReserved === true ? { allowReserved: true } : {}),
    description: typeof node.description === 'string' ? node.description : (schema.description ?? ''),
    source: ctx.locate(node),
    ...mergeNotes(versionNotes(node), versionNotes(isRecord(rawSchema) ? rawSchema : {})),
  });
}

/** Values that cannot travel as plain text: lists, objects, unions (nullable included). */
function needsJson(schemas: SchemaConverter, schema: Schema): boolean {
  const resolved = schemas.resolve(schema);
  return resolved.kind === 'array' || resolved.kind === 'object' || resolved.kind === 'union' || resolved.kind === 'any';
}

/**
 * Adds path and query parameters' own examples to the request examples: a
 * named one joins the request example of that name, a single `example` joins
 * every request example (or becomes `default` when there is none).
 */
function mergeParameterExamples(ctx: BuildContext, body: Example[], parameters: RawNode[], keys: Map<RawNode, string>): Example[] {
  const byName = new Map(body.map((e) => [e.name, { ...e, value: isRecord(e.value) ? { ...e.value } : e.value }]));
  const singles: [string, unknown][] = [];
  for (const node of parameters) {
    const name = keys.get(node) ?? (node.name as string);
    const examples = readExamples(ctx, node);
    if (examples.length === 1 && examples[0]!.name === 'default' && !isRecord(node.examples)) {
      singles.push([name, examples[0]!.value]);
      continue;
    }
    for (const example of examples) {
      const target = byName.get(example.name) ?? { name: example.name, summary: example.summary, value: {} };
      if (isRecord(target.value)) target.value[name] = example.value;
      byName.set(example.name, target);
    }
  }
  if (singles.length > 0 && byName.size === 0) byName.set('default', { name: 'default', summary: '', value: {} });
  for (const example of byName.values()) {
    if (!isRecord(example.value)) continue;
    for (const [name, value] of singles) if (!(name in example.value)) example.value[name] = value;
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function compactDraft(draft: Draft): Draft {
  if (draft.default === undefined) delete draft.default;
  return draft;
}
