/**
 * One dialect downstream: the loader turns an OpenAPI 3.0 document into its
 * OpenAPI 3.1 equivalent, in place, so the model and every target see only
 * 3.1 (JSON Schema 2020-12) schemas. Objects keep their identity, and the few
 * objects this creates are tied to the node they came from, so file:line
 * locations stay right.
 *
 * 3.0 -> 3.1, for schemas:
 * - `nullable: true` adds `null` to `type` (and to `enum` when there is one);
 *   on a node without `type` (a `$ref`, a composition) it becomes
 *   `anyOf: [<the node>, {type: 'null'}]`; `nullable: false` goes;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric form
 *   (`minimum: 1, exclusiveMinimum: true` -> `exclusiveMinimum: 1`);
 * - `example` becomes `examples: [example]`;
 * - siblings of a `$ref`, which 3.0 ignores, are dropped except annotations.
 *
 * Also, for any version: Swagger 2.0 is refused with how to convert it;
 * `webhooks` and operation `callbacks` are removed with one note; a path
 * whose item refers to another path's item gets a copy of it; the fields of
 * a GET or HEAD form body become query parameters (get-forms.ts).
 */
import { formatLocation, SpecError } from './errors.js';
import type { SourceMap } from './source-map.js';
import { formBodiesToQuery } from './get-forms.js';
import { forEachSchema, isRecord, valueAtPointer } from './walk.js';
import { REF_SIBLINGS, repairNearMisses } from './near-miss.js';

type Node = Record<string, unknown>;


export interface Normalised {
  /** The document's OpenAPI version as written (`3.0.3`, `3.1.0`). */
  version: string;
  /** Notes worth one line each (`file:line: ...`). */
  warnings: string[];
}

/** Checks the version, then rewrites `document` to OpenAPI 3.1 in place. */
export function normalise(document: Node, sources: SourceMap): Normalised {
  const version = checkVersion(document, sources);
  const warnings = repairNearMisses(document, sources, version);
  const legacy = version.startsWith('3.0');
  if (legacy) {
    forEachSchema(document, (schema) => normaliseSchema(schema, sources));
    document.openapi = '3.1.0';
  } else {
    // Boolean exclusive bounds have no meaning in 2020-12; in a 3.1 document they are the draft-4 form.
    // `nullable` has none either, but its authors plainly mean that null is allowed.
    let nullable: { at: string; count: number } | undefined;
    forEachSchema(document, (schema) => {
      exclusiveBounds(schema);
      if (schema.nullable === undefined) return;
      nullable = { at: nullable?.at ?? formatLocation(sources.locate(schema, 'nullable')), count: (nullable?.count ?? 0) + 1 };
      const allowsNull = schema.nullable === true;
      delete schema.nullable;
      if (allowsNull) addNull(schema, sources);
    });
    if (nullable !== undefined) {
      const more = nullable.count > 1 ? ` (and ${nullable.count - 1} more place${nullable.count === 2 ? '' : 's'})` : '';
      warnings.push(`${nullable.at}: \`nullable\` is an OpenAPI 3.0 keyword that 3.1 does not have: read as in 3.0 (\`nullable: true\` allows null)${more}`);
    }
  }
  dropCallbacks(document, sources, warnings);
  expandPathItemRefs(document, sources, warnings);
  formBodiesToQuery(document, sources, warnings);
  return { version, warnings };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * A path whose item is a `$ref` to another path's item (`/support/ip: {$ref:
 * '#/paths/~1ip'}`, an alias) gets its own copy of that item, so that each
 * path's operations are objects of their own with their own names. An
 * `operationId` the copy would share with the original is dropped from the
 * copy (its name is then derived from its own path), with a note.
 */
function expandPathItemRefs(document: Node, sources: SourceMap, warnings: string[]): void {
  const paths = document.paths;
  if (!isRecord(paths)) return;
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item) || typeof item.$ref !== 'string' || !item.$ref.startsWith('#/paths/')) continue;
    let target: unknown = item;
    const seen = new Set<unknown>();
    while (isRecord(target) && typeof target.$ref === 'string' && target.$ref.startsWith('#/paths/') && !seen.has(target)) {
      seen.add(target);
      target = valueAtPointer(document, target.$ref);
    }
    if (!isRecord(target) || typeof target.$ref === 'string') continue;
    const copy = cloneTied(target, sources);
    const renamed = METHODS.filter((method) => isRecord(copy[method]) && (copy[method] as Node).operationId !== undefined);
    for (const method of renamed) delete (copy[method] as Node).operationId;
    if (renamed.length > 0) {
      const at = sources.locate(paths, path);
      warnings.push(
        `${formatLocation(at)}: path \`${path}\` refers to another path's item: its operations are named from their own path, since operationIds are unique`,
      );
    }
    // Keys written beside the `$ref` (3.1: `summary`, `description`) are this path's own.
    for (const [key, value] of Object.entries(item)) if (key !== '$ref') copy[key] = value;
    sources.alias(copy, item);
    paths[path] = copy;
  }
}

/** A deep copy of a structure whose objects each point back to their original in the source map. */
function cloneTied<T>(node: T, sources: SourceMap): T {
  if (node === null || typeof node !== 'object') return node;
  const copy = (Array.isArray(node) ? node.map((child) => cloneTied(child, sources)) : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, cloneTied(v, sources)]))) as T & object;
  sources.alias(copy, node);
  return copy;
}

function checkVersion(document: Node, sources: SourceMap): string {
  if (document.swagger !== undefined) {
    const at = sources.locate(document, 'swagger');
    throw new SpecError(
      at.file,
      at.line,
      `Swagger ${String(document.swagger)} is not supported: convert it to OpenAPI 3 first, e.g. \`npx swagger2openapi ${at.file} -o openapi.yaml\`, and generate from that`,
    );
  }
  const version = document.openapi;
  if (typeof version !== 'string' || !/^3\.[01](\.\d+)?(-.*)?$/.test(version)) {
    const at = sources.locate(document, version === undefined ? undefined : 'openapi');
    const found = version === undefined ? 'no `openapi` version' : `\`openapi: ${String(version)}\``;
    throw new SpecError(at.file, at.line ?? 1, `not an OpenAPI 3.0 or 3.1 document (${found})`);
  }
  return version;
}

function normaliseSchema(node: Node, sources: SourceMap): void {
  if (typeof node.$ref === 'string') {
    for (const key of Object.keys(node)) if (!REF_SIBLINGS.has(key) && !key.startsWith('x-')) delete node[key];
  }
  exclusiveBounds(node);
  if (node.example !== undefined && node.examples === undefined) node.examples = [node.example];
  delete node.example;
  const nullable = node.nullable;
  delete node.nullable;
  if (nullable === true) addNull(node, sources);
}

/** Each exclusive bound and the bound it once qualified. */
const EXCLUSIVE_BOUNDS = [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const;

function exclusiveBounds(node: Node): void {
  // Run for every schema node: no list made per call.
  for (let i = 0; i < EXCLUSIVE_BOUNDS.length; i++) {
    const bound = EXCLUSIVE_BOUNDS[i]![0];
    const limit = EXCLUSIVE_BOUNDS[i]![1];
    if (node[bound] === true && typeof node[limit] === 'number') {
      node[bound] = node[limit];
      delete node[limit];
    } else if (typeof node[bound] === 'boolean') {
      delete node[bound];
    }
  }
}

/** Annotations stay on the outer node when a nullable node is wrapped in `anyOf`. */
const OUTER = new Set(['description', 'title', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'default', 'externalDocs', 'xml']);

function addNull(node: Node, sources: SourceMap): void {
  const type = node.type;
  if (typeof type === 'string' || Array.isArray(type)) {
    const list = Array.isArray(type) ? type : [type];
    if (!list.includes('null')) node.type = [...list, 'null'];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
    return;
  }
  const constraining = Object.keys(node).filter((key) => !OUTER.has(key) && !key.startsWith('x-'));
  // Nothing constrains the node: null is already allowed.
  if (constraining.length === 0) return;
  const inner: Node = {};
  for (const key of constraining) {
    inner[key] = node[key];
    delete node[key];
  }
  const only: Node = { type: 'null' };
  sources.alias(inner, node);
  sources.alias(only, node);
  node.anyOf = [inner, only];
}

function dropCallbacks(document: Node, sources: SourceMap, warnings: string[]): void {
  const dropped: string[] = [];
  let first: { node: object; key: string } | undefined;
  if (document.webhooks !== undefined) {
    first = { node: document, key: 'webhooks' };
    dropped.push('`webhooks`');
    delete document.webhooks;
  }
  let callbacks = 0;
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const item of Object.values(paths)) {
    if (!isRecord(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isRecord(operation) || operation.callbacks === undefined) continue;
      if (callbacks === 0 && first === undefined) first = { node: operation, key: 'callbacks' };
      callbacks += 1;
      delete operation.callbacks;
    }
  }
  if (callbacks > 0) dropped.push(`\`callbacks\` of ${callbacks} operation${callbacks === 1 ? '' : 's'}`);
  if (first === undefined) return;
  const at = sources.locate(first.node, first.key);
  warnings.push(`${formatLocation(at)}: ignored ${dropped.join(' and ')}: the generator covers requests the API receives, not ones it sends`);
}
