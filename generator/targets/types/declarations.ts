/**
 * openapi-typescript's declarations of the bundled document, as the `types`
 * target writes them: the document copied, adjusted where openapi-typescript's
 * output would not match the spec, then transformed and printed. It reads the
 * document and the operations' ids only, so it runs the same on the main
 * thread or in the target's worker thread (`thread.ts`).
 */
import type { OpenAPI3 } from 'openapi-typescript';
import { walkDocument } from '../../load/walk.js';
import type { HttpMethod } from '../../model/types.js';
import { hasReadWrite } from '../shared/read-write.js';
import { breakEagerCycles } from './refs.js';
import { declarations as openapiDeclarations } from './transform.js';

/** Where the model found an operation and the id it gave it. */
export interface OperationId {
  path: string;
  method: HttpMethod;
  id: string;
}

export interface DocumentDeclarations {
  /** openapi-typescript's declarations, trailing blank lines trimmed. */
  text: string;
  /** Whether the document marks schemas `readOnly`/`writeOnly` (the declarations then carry the markers). */
  markers: boolean;
  /** Named schemas whose loop was typed `unknown` (`refs.ts`), in the order found. */
  cycles: string[];
}

/**
 * The declarations of `openapi`, which is left untouched unless `owned` (a
 * copy nobody else reads, as the worker thread's is).
 */
export function documentDeclarations(openapi: Record<string, unknown>, operations: readonly OperationId[], owned = false): DocumentDeclarations {
  // openapi-typescript mutates what it is given; hand it a copy. An owned document needs one
  // only as the untouched source deep refs are copied from. Without deep refs, inlining finds
  // nothing to replace, so its walk is skipped too.
  const deep = hasDeepRef(openapi);
  const document = owned && !deep ? openapi : structuredClone(openapi);
  if (deep) inlineDeepRefs(document, openapi);
  useModelOperationIds(document, operations);
  const marked = prepare(document);
  const cycles: string[] = [];
  breakEagerCycles(document, (name) => cycles.push(name));
  // `readOnly`/`writeOnly` become markers that `Readable`/`Writable` strip from response and request types.
  // Breaking cycles only takes nodes away, so a document `prepare` found unmarked needs no second look.
  const markers = marked && hasReadWrite(document);
  const text = openapiDeclarations(document as unknown as OpenAPI3, { defaultNonNullable: false, ...(markers ? { readWriteMarkers: true } : {}) });
  return { text: text.trimEnd(), markers, cycles };
}

/**
 * Adjusts the copy handed to openapi-typescript where its output would not
 * match the spec:
 * - Without a `mapping`, it adds the schema *name* as the discriminator value
 *   (`code: "BadRequestError"`), contradicting each variant's `const`; the
 *   consts alone already make the unions discriminated, so discriminators go.
 * - An object with named properties and a schema for other keys becomes an
 *   index signature every named property must also satisfy; widening that
 *   signature to the union of all value types keeps valid bodies assignable.
 * - A parameter described by `content` (JSON text, or another media type)
 *   is typed as its decoded schema, since `<Pascal>Params` holds decoded values.
 * - It reads an `enum` beside `type: object` as a list of schemas; the
 *   enum's objects become a union of constants, and values of other types
 *   (which no object equals) go.
 * Returns whether any node it walked, as adjusted, is `readOnly` or `writeOnly`.
 */
function prepare(document: Record<string, unknown>): boolean {
  let marked = false;
  walkDocument(document, {
    keywords(node) {
      if ('discriminator' in node && (Array.isArray(node.oneOf) || Array.isArray(node.anyOf))) delete node.discriminator;
      if (node.type === 'object' && Array.isArray(node.enum)) {
        const objects = node.enum.filter(isObject);
        delete node.enum;
        if (objects.length > 0 && node.oneOf === undefined) node.oneOf = objects.map((value) => ({ const: value }));
      }
      const content = typeof node.in === 'string' && isObject(node.content) ? Object.values(node.content) : [];
      const json = content.length === 1 ? content[0] : undefined;
      if (isObject(json)) {
        node.schema = json.schema ?? {};
        delete node.content;
      }
      const { properties, additionalProperties } = node;
      if (isObject(properties) && isObject(additionalProperties) && Object.keys(properties).length > 0) {
        node.additionalProperties = { anyOf: [additionalProperties, ...Object.values(properties)] };
      }
      if (node.readOnly === true || node.writeOnly === true) marked = true;
    },
  });
  return marked;
}

/**
 * Gives each operation of the copy its id in the model. A path item that
 * refers to another (`$ref: '#/paths/~1source'`) shares the other's operation
 * objects in the bundled document, where only one derived id could be
 * written; once inlined, each copy takes its own, as the aliases expect.
 */
function useModelOperationIds(document: Record<string, unknown>, operations: readonly OperationId[]): void {
  const paths = document.paths;
  if (!isObject(paths)) return;
  for (const operation of operations) {
    const item = paths[operation.path];
    const node = isObject(item) && item.$ref === undefined ? item[operation.method] : undefined;
    if (isObject(node) && node.$ref === undefined) node.operationId = operation.id;
  }
}

/** A `$ref` to one whole component (`#/components/schemas/Pet`), which openapi-typescript names. */
const COMPONENT_REF = /^#\/components\/[^/]+\/[^/]+$/;
/** Keys whose value is data (as `walkDocument` reads them): a `$ref` in there is not a reference. */
const DATA_KEYS = new Set(['value', 'example', 'default', 'const', 'enum']);
/** Keys beside a `$ref` that only annotate, so the inlined target can take them as they are. */
const ANNOTATION_KEYS = new Set(['description', 'summary', 'title', 'deprecated', 'example', 'examples', 'default', 'readOnly', 'writeOnly', '$comment']);

/**
 * Replaces every `$ref` that points anywhere but at a whole component
 * (`#/paths/~1pets/post/requestBody/content/application~1json/schema`,
 * `#/components/schemas/Pet/properties/id`) with a copy of what it points at.
 * openapi-typescript writes such a ref as an index into its own types
 * (`paths["/pets"]["post"]["requestBody"]["content"]...`), which does not
 * type-check where a step is optional (`requestBody?`) and drops steps it
 * does not emit (`properties`). A ref that comes back to itself through such
 * pointers becomes `{}` (unknown), as the model reads it (`schema.ts`).
 * `source` is the untouched document the pointers are resolved in.
 */
export function inlineDeepRefs(document: unknown, source: Record<string, unknown>, chain: readonly string[] = []): void {
  const expand = (value: unknown): unknown => {
    if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/') || COMPONENT_REF.test(value.$ref)) return value;
    const ref = value.$ref;
    let target: unknown = source;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) || Array.isArray(target) ? (target as Record<string, unknown>)[key] : undefined;
    }
    // The loader resolved every ref; one that names nothing is left to openapi-typescript.
    if (target === undefined) return value;
    let inlined: unknown = {};
    if (!chain.includes(ref)) {
      const holder = { allOf: [structuredClone(target)] };
      inlineDeepRefs(holder, source, [...chain, ref]);
      inlined = holder.allOf[0];
    }
    const siblings = Object.keys(value).filter((k) => k !== '$ref');
    if (siblings.length === 0 || !isObject(inlined)) return inlined;
    const rest = Object.fromEntries(siblings.map((k) => [k, value[k]]));
    return siblings.every((k) => ANNOTATION_KEYS.has(k) || k.startsWith('x-')) ? { ...inlined, ...rest } : { ...rest, allOf: [inlined] };
  };
  const replaceChild = (node: Record<string, unknown>, key: string): void => {
    const value = node[key];
    if (Array.isArray(value)) {
      if (key === 'examples') return;
      for (let i = 0; i < value.length; i++) value[i] = expand(value[i]);
    } else if (isObject(value) && typeof value.$ref === 'string') {
      node[key] = expand(value);
    }
  };
  // for...in: replacing a value keeps the node's keys, and no key list is made per node.
  walkDocument(document, {
    keywords: (node) => {
      for (const key in node) if (!DATA_KEYS.has(key) && !key.startsWith('x-')) replaceChild(node, key);
    },
    names: (node) => {
      for (const key in node) replaceChild(node, key);
    },
  });
}

/** Whether any object of the document, data included, has a `$ref` that `inlineDeepRefs` would replace. */
function hasDeepRef(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) if (hasDeepRef(node[i])) return true;
    return false;
  }
  const record = node as Record<string, unknown>;
  const ref = record.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/') && !COMPONENT_REF.test(ref)) return true;
  for (const key in record) {
    const value = record[key];
    // Text, numbers and flags hold nothing: no call for them.
    if (value !== null && typeof value === 'object' && hasDeepRef(value)) return true;
  }
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
