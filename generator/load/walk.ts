/**
 * A walk over an OpenAPI document that knows which objects hold keywords
 * (`type`, `x-changes`, ...) and which map user-chosen names to objects
 * (`paths`, `properties`, ...), and that never descends into data (example
 * values, defaults, enums, consts), whose keys mean nothing to the spec.
 */

/** Keys whose value is a map from user-chosen names to structural objects. */
const NAME_MAPS = new Set([
  'paths', 'schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers',
  'securitySchemes', 'links', 'callbacks', 'pathItems', 'properties', 'encoding', 'content',
  'variables', 'mapping', '$defs', 'patternProperties', 'dependentSchemas', 'webhooks',
]);

/** Keys whose value is data, taken as written. */
const DATA = new Set(['value', 'example', 'default', 'const', 'enum']);

export interface WalkVisitor {
  /** An object whose keys are keywords. */
  keywords?(node: Record<string, unknown>): void;
  /** A map from names to objects; `parentKey` is the keyword holding it (`properties`, `paths`, ...). */
  names?(node: Record<string, unknown>, parentKey: string): void;
  /** An object or list the walk does not descend into: data, an `x-` extension's value, a list of `examples`. */
  data?(value: object): void;
}

export function walkDocument(document: unknown, visitor: WalkVisitor): void {
  // A Set rather than a WeakSet: it lives only for the walk, and V8 adds and finds in it about a third faster.
  const seen = new Set<object>();

  const visitKeywords = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) visitKeywords(node[i]);
      return;
    }
    const record = node as Record<string, unknown>;
    visitor.keywords?.(record);
    // for...in rather than Object.entries: no array per object (parsed JSON and YAML have no inherited keys).
    for (const key in record) {
      const value = record[key];
      // Most values are text, numbers or flags: nothing to walk, and no call made for them.
      if (value === null || typeof value !== 'object') continue;
      if (DATA.has(key) || key.startsWith('x-') || (key === 'examples' && Array.isArray(value))) {
        visitor.data?.(value);
        continue;
      }
      if (NAME_MAPS.has(key) && !Array.isArray(value)) visitNames(value as Record<string, unknown>, key);
      else visitKeywords(value);
    }
  };

  const visitNames = (node: Record<string, unknown>, parentKey: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    visitor.names?.(node, parentKey);
    for (const key in node) {
      const value = node[key];
      if (value !== null && typeof value === 'object') visitKeywords(value);
    }
  };

  visitKeywords(document);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The value a local JSON pointer (`#/paths/~1a/get`) reaches in `document` by
 * own keys, `$ref`s on the way not followed; undefined where a key is missing
 * or a segment is not valid percent-encoding.
 */
export function valueAtPointer(document: Record<string, unknown>, ref: string): unknown {
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

type Node = Record<string, unknown>;

/** Keys of a schema whose value is one schema. */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
/** Keys of a schema whose value is a list of schemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keys of a schema whose value maps names to schemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Every key above. */
const HOLDS_SCHEMAS = new Set([...ONE, ...LIST, ...MAP]);

/** Whether any key of `node` may hold a schema: most schemas (`{type: 'string'}`) have a few keys and hold none. */
function holdsSchemas(node: Node): boolean {
  for (const key in node) if (HOLDS_SCHEMAS.has(key)) return true;
  return false;
}

/**
 * Calls `visit` on every schema object of the document, parents before
 * children, each once; and `onNull`, when given, for every `null` where a
 * schema belongs (`holder[key]`; `keyword` is the keyword that holds it:
 * `schema`, `items`, `properties`, `allOf`, ...).
 */
export function forEachSchema(document: Node, visit: (schema: Node) => void, onNull?: (holder: Node | unknown[], key: string, keyword: string) => void): void {
  const seen = new Set<object>();
  const child = (holder: Node | unknown[], key: string, keyword: string): void => {
    const value = (holder as Node)[key];
    if (value === null) onNull?.(holder, key, keyword);
    else schema(value);
  };
  const schema = (node: unknown): void => {
    if (!isRecord(node) || seen.has(node)) return;
    seen.add(node);
    visit(node);
    // One pass over the node's own few keys, rather than trying each of the twenty keywords on a node that holds no schema.
    if (!holdsSchemas(node)) return;
    for (const key of ONE) if (key in node) child(node, key, key);
    for (const key of LIST) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((_, i, list) => child(list, String(i), key));
    for (const key of MAP) if (isRecord(node[key])) for (const name of Object.keys(node[key])) child(node[key], name, key);
    // `items` as a list (an old tuple form) holds schemas too.
    if (Array.isArray(node.items)) node.items.forEach(schema);
  };
  // Outside schemas: every `schema` member of a parameter, header or media type, and the component schemas.
  const structure = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach(structure);
      return;
    }
    // for...in rather than Object.entries: no array per object (parsed JSON and YAML have no inherited keys).
    for (const key in node) {
      if (key.startsWith('x-') || key === 'example' || key === 'value' || key === 'default') continue;
      if (key === 'schema') child(node as Node, key, key);
      else {
        const value = (node as Node)[key];
        if (value !== null && typeof value === 'object') structure(value);
      }
    }
  };
  const components = document.components;
  if (isRecord(components) && isRecord(components.schemas)) Object.values(components.schemas).forEach(schema);
  structure(document);
}
