/**
 * A GET or HEAD operation whose request body is an
 * `application/x-www-form-urlencoded` object: its fields become query
 * parameters, because a form submitted with GET travels in the URL (HTML's
 * form submission), and because fetch and most HTTP stacks refuse or drop a
 * GET body. Documents of form-encoded APIs write their GET parameters this
 * way (one request-body schema for every method), and the servers read them
 * from the query string.
 *
 * The rewrite is in place, on the bundled document, so that every target
 * (openapi-typescript's types, the docs, the model) sees the same query
 * parameters. Each parameter keeps what the field said:
 * - required when the body schema lists it;
 * - the field's description, `deprecated` and `x-` extensions;
 * - the field's Encoding Object: a JSON `contentType` makes it a
 *   `content: {application/json}` parameter (JSON text in one field),
 *   `style`/`explode`/`allowReserved` carry over;
 * - its value in the media type's `example`, as the parameter's example.
 * The new objects are tied to the field they came from, so notes about them
 * point at the field.
 *
 * Bodies of any other shape (JSON, multipart, a composed schema, several
 * media types) are left alone; the model ignores them with a note.
 */
import { formatLocation } from './errors.js';
import type { SourceMap } from './source-map.js';
import { isRecord, valueAtPointer } from './walk.js';

type Node = Record<string, unknown>;

const METHODS = ['get', 'head'] as const;
const COMPOSITION = ['allOf', 'anyOf', 'oneOf', 'not', 'if', '$ref', 'patternProperties'];

export function formBodiesToQuery(document: Node, sources: SourceMap, warnings: string[]): void {
  const paths = document.paths;
  if (!isRecord(paths)) return;
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation) || operation.requestBody === undefined) continue;
      const form = formOf(document, operation.requestBody);
      if (form === undefined) continue;
      const taken = queryNames(document, [item.parameters, operation.parameters]);
      const added: Node[] = [];
      for (const [name, property] of Object.entries(form.properties)) {
        if (taken.has(name)) {
          const at = sources.locate(form.properties, name);
          warnings.push(`${formatLocation(at)}: field \`${name}\` of the ${method.toUpperCase()} form body of \`${path}\` has the name of a query parameter, which is kept`);
          continue;
        }
        added.push(queryParameter(document, sources, name, property, form));
      }
      for (const name of Object.keys(form.encoding)) {
        if (!Object.hasOwn(form.properties, name)) warnings.push(`${formatLocation(sources.locate(form.encoding, name))}: encoding names unknown property \`${name}\`; it is ignored`);
      }
      const at = sources.locate(operation, 'requestBody');
      warnings.push(`${formatLocation(at)}: the fields of a ${method.toUpperCase()} form body are read as query parameters (a form sent with ${method.toUpperCase()} travels in the URL)`);
      operation.parameters = [...(Array.isArray(operation.parameters) ? operation.parameters : []), ...added];
      delete operation.requestBody;
    }
  }
}

interface Form {
  properties: Node;
  required: ReadonlySet<string>;
  encoding: Node;
  example: Node | undefined;
}

/** The body's fields, when it is one urlencoded media type with a plain object schema. */
function formOf(document: Node, requestBody: unknown): Form | undefined {
  const body = follow(document, requestBody);
  if (!isRecord(body) || !isRecord(body.content)) return undefined;
  const entries = Object.entries(body.content);
  if (entries.length !== 1) return undefined;
  const [mediaType, rawMedia] = entries[0]!;
  if (mediaType.split(';', 1)[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return undefined;
  const media = follow(document, rawMedia);
  if (!isRecord(media)) return undefined;
  const schema = follow(document, media.schema);
  if (!isRecord(schema) || !isRecord(schema.properties) || COMPOSITION.some((key) => schema[key] !== undefined)) return undefined;
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? ['object'] : [schema.type];
  if (!types.includes('object')) return undefined;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
  return {
    properties: schema.properties,
    required,
    encoding: isRecord(media.encoding) ? media.encoding : {},
    example: isRecord(media.example) ? media.example : undefined,
  };
}

function queryParameter(document: Node, sources: SourceMap, name: string, property: unknown, form: Form): Node {
  const target = follow(document, property);
  const parameter: Node = { name, in: 'query' };
  if (form.required.has(name)) parameter.required = true;
  if (isRecord(target)) {
    if (typeof target.description === 'string') parameter.description = target.description;
    if (target.deprecated === true) parameter.deprecated = true;
  }
  if (isRecord(property)) {
    for (const [key, value] of Object.entries(property)) if (key.startsWith('x-')) parameter[key] = value;
  }
  const encoding = follow(document, form.encoding[name]);
  const written = isRecord(encoding) ? encoding : {};
  const styled = written.style !== undefined || written.explode !== undefined || written.allowReserved !== undefined;
  const contentType = typeof written.contentType === 'string' ? written.contentType : undefined;
  if (!styled && contentType !== undefined && /json/i.test(contentType)) {
    const media = { schema: property };
    parameter.content = { [contentType]: media };
    if (isRecord(property)) sources.alias(media, property);
  } else {
    parameter.schema = property;
    for (const key of ['style', 'explode', 'allowReserved']) if (written[key] !== undefined) parameter[key] = written[key];
  }
  if (form.example !== undefined && Object.hasOwn(form.example, name)) parameter.example = form.example[name];
  if (isRecord(property)) sources.alias(parameter, property);
  return parameter;
}

/** Names of the query parameters the path item and the operation declare. */
function queryNames(document: Node, lists: unknown[]): Set<string> {
  const names = new Set<string>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const parameter = follow(document, entry);
      if (isRecord(parameter) && parameter.in === 'query' && typeof parameter.name === 'string') names.add(parameter.name);
    }
  }
  return names;
}

/** A node after its local `$ref`s (`#/...`); undefined where one leads nowhere or round in a loop. */
function follow(document: Node, node: unknown): unknown {
  const seen = new Set<unknown>();
  let current = node;
  while (isRecord(current) && typeof current.$ref === 'string') {
    if (seen.has(current) || !current.$ref.startsWith('#/')) return undefined;
    seen.add(current);
    current = valueAtPointer(document, current.$ref);
  }
  return current;
}
