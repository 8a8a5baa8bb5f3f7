/**
 * An operation's parameters: path parameters (in path order), then query
 * parameters and the fields of its form or multipart body (`bodies.ts`), in
 * spec order, each with its wire encoding.
 */
import { isRecord } from '../load/walk.js';
import type { BuildContext, RawNode } from './context.js';
import { readExamples } from './examples.js';
import { deriveNames } from './names.js';
import { mergeNotes, versionNotes } from './notes.js';
import type { SchemaConverter } from './schema.js';
import { buildRequestBody } from './bodies.js';
import type { Example, Operation, Parameter, RequestBodyModel, Schema, WireEncoding } from './types.js';

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
  for (const name of placeholders) {
    const node = raw.find((p) => p.in === 'path' && p.name === name);
    if (!node) ctx.fail(operation, 'parameters', `path parameter \`${name}\` of \`${path}\` is not declared`);
    drafts.push(pathOrQuery(ctx, schemas, node));
  }
  for (const node of raw) {
    if (node.in === 'path' && !placeholders.includes(node.name as string)) {
      ctx.fail(node, 'name', `path parameter \`${String(node.name)}\` does not appear in \`${path}\``);
    }
    if (node.in === 'query') drafts.push(pathOrQuery(ctx, schemas, node));
  }
  const body = buildRequestBody(ctx, schemas, operation, drafts.map((d) => d.name));
  drafts.push(...body.fields);

  const seen = new Set<string>();
  for (const draft of drafts) {
    if (seen.has(draft.name)) ctx.fail(operation, undefined, `parameter \`${draft.name}\` is declared twice`);
    seen.add(draft.name);
  }
  const names = deriveNames(drafts.map((d) => d.name));
  const parameters = drafts.map((d) => ({ ...d, names: names.get(d.name)! }));
  return {
    parameters,
    body: body.kind,
    ...(body.requestBody ? { requestBody: body.requestBody } : {}),
    requestExamples: mergeParameterExamples(ctx, body.examples, raw),
  };
}

/** Path-item parameters, overridden by the operation's own (same name and location). */
function declaredParameters(ctx: BuildContext, operation: RawNode, pathItem: RawNode): RawNode[] {
  const list = (owner: RawNode): RawNode[] => {
    if (owner.parameters === undefined) return [];
    if (!Array.isArray(owner.parameters)) ctx.fail(owner, 'parameters', '`parameters` must be a list');
    return owner.parameters.map((p, i) => {
      const node = ctx.deref(p);
      if (!isRecord(node) || typeof node.name !== 'string') ctx.fail(owner.parameters, String(i), 'a parameter needs a `name`');
      if (node.in !== 'path' && node.in !== 'query') {
        ctx.fail(node, 'in', `parameter \`${node.name}\` is \`in: ${String(node.in)}\`; only path and query parameters (and form or multipart body properties) are supported`);
      }
      return node;
    });
  };
  const own = list(operation);
  const inherited = list(pathItem).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
  return [...inherited, ...own];
}

function pathOrQuery(ctx: BuildContext, schemas: SchemaConverter, node: RawNode): Draft {
  const name = node.name as string;
  const location = node.in as 'path' | 'query';
  if (location === 'path' && node.required !== true) ctx.fail(node, 'required', `path parameter \`${name}\` must be \`required: true\``);
  let schemaNode: unknown;
  let encoding: WireEncoding = 'plain';
  if (node.content !== undefined) {
    const content = ctx.record(node, 'content', 'a map of media types');
    const types = Object.keys(content);
    if (types.length !== 1 || types[0] !== JSON_TYPE) ctx.fail(node, 'content', `parameter \`${name}\` content must be exactly \`${JSON_TYPE}\``);
    schemaNode = ctx.record(content, JSON_TYPE, 'a media type object').schema;
    encoding = 'json';
  } else {
    schemaNode = node.schema;
  }
  if (schemaNode === undefined) ctx.fail(node, undefined, `parameter \`${name}\` needs a \`schema\``);
  const schema = schemas.convert(schemaNode, node, 'schema');
  if (encoding === 'plain' && needsJson(schemas, schema)) {
    ctx.fail(node, 'schema', `parameter \`${name}\` is a list, object, union or nullable value: describe it with \`content: {${JSON_TYPE}: {schema}}\` so it travels as JSON text`);
  }
  const rawSchema = ctx.deref(schemaNode) as RawNode;
  return compactDraft({
    name,
    location,
    encoding,
    required: node.required === true,
    schema,
    default: rawSchema.default,
    description: typeof node.description === 'string' ? node.description : (schema.description ?? ''),
    source: ctx.locate(node),
    ...mergeNotes(versionNotes(node), versionNotes(rawSchema)),
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
function mergeParameterExamples(ctx: BuildContext, body: Example[], parameters: RawNode[]): Example[] {
  const byName = new Map(body.map((e) => [e.name, { ...e, value: isRecord(e.value) ? { ...e.value } : e.value }]));
  const singles: [string, unknown][] = [];
  for (const node of parameters) {
    const name = node.name as string;
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
