/**
 * Loads the OpenAPI document for the spec tests: bundled by Redocly into
 * one object (external files become components), then read with plain
 * helpers so the tests judge the document without the generator's loader.
 */
import { fileURLToPath } from 'node:url';
import { bundle, createConfig } from '@redocly/openapi-core';

export const specRoot = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Bundled {
  doc: JsonObject;
  /** Problems the bundler reported (unresolved refs and the like), as messages. */
  problems: string[];
}

let cached: Promise<Bundled> | undefined;

/** Bundles spec/openapi.yaml once per test file; no lint rules run. */
export function loadBundled(): Promise<Bundled> {
  cached ??= (async () => {
    const config = await createConfig({});
    const result = await bundle({ ref: specRoot, config });
    const problems = result.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.message} (${p.location.map((l) => l.pointer ?? '').join(', ')})`);
    // A JSON round trip drops the bundler's internal references between nodes.
    return { doc: JSON.parse(JSON.stringify(result.bundle.parsed)) as JsonObject, problems };
  })();
  return cached;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(segments: (string | number)[]): string {
  return segments.map((s) => '/' + escapePointerSegment(s)).join('');
}

/** The node at a JSON pointer (`/a/b`), or undefined. */
export function atPointer(doc: Json, ptr: string): Json | undefined {
  if (ptr === '') return doc;
  let node: Json | undefined = doc;
  for (const raw of ptr.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** Follows local `$ref`s (`#/...`) until a node without one. */
export function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  const seen = new Set<string>();
  while (isObject(node) && typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (!ref.startsWith('#') || seen.has(ref)) return undefined;
    seen.add(ref);
    node = atPointer(doc, decodeURIComponent(ref.slice(1)));
  }
  return node;
}

export interface OperationEntry {
  method: string;
  path: string;
  operationId: string;
  /** The operation object, `$ref`s not yet followed. */
  operation: JsonObject;
  /** Path-item-level parameters. */
  pathParameters: Json[];
  /** JSON pointer of the operation in the bundled document. */
  ptr: string;
}

export function operations(doc: JsonObject): OperationEntry[] {
  const out: OperationEntry[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      out.push({
        method,
        path,
        operationId: typeof operation.operationId === 'string' ? operation.operationId : '',
        operation,
        pathParameters: Array.isArray(item.parameters) ? item.parameters : [],
        ptr: pointer(['paths', path, method]),
      });
    }
  }
  return out;
}

export interface ParameterRow {
  name: string;
  location: 'path' | 'query' | 'body' | 'header' | 'cookie';
  required: boolean;
}

/** The request body's media types and their schemas, `$ref`s followed. */
export function requestBodyMedia(doc: JsonObject, op: OperationEntry): [string, JsonObject][] {
  const body = deref(doc, op.operation.requestBody);
  if (!isObject(body) || !isObject(body.content)) return [];
  return Object.entries(body.content).filter((e): e is [string, JsonObject] => isObject(e[1]));
}

/** Properties and required names of an object schema, merging `allOf` members. */
export function objectShape(
  doc: JsonObject,
  schema: Json | undefined,
): { properties: Record<string, Json>; required: Set<string> } {
  const resolved = deref(doc, schema);
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  if (!isObject(resolved)) return { properties, required };
  if (Array.isArray(resolved.allOf)) {
    for (const member of resolved.allOf) {
      const shape = objectShape(doc, member);
      Object.assign(properties, shape.properties);
      shape.required.forEach((r) => required.add(r));
    }
  }
  if (isObject(resolved.properties)) Object.assign(properties, resolved.properties);
  if (Array.isArray(resolved.required)) {
    for (const r of resolved.required) if (typeof r === 'string') required.add(r);
  }
  return { properties, required };
}

/** Every parameter of an operation: path/query/header from `parameters`, the rest from the body schema. */
export function parameterRows(doc: JsonObject, op: OperationEntry): ParameterRow[] {
  const rows: ParameterRow[] = [];
  for (const raw of [...op.pathParameters, ...(Array.isArray(op.operation.parameters) ? op.operation.parameters : [])]) {
    const p = deref(doc, raw);
    if (!isObject(p) || typeof p.name !== 'string') continue;
    rows.push({ name: p.name, location: p.in as ParameterRow['location'], required: p.required === true });
  }
  const media = requestBodyMedia(doc, op);
  // Every media type of one body must describe the same fields; the first one is read.
  const first = media[0];
  if (first) {
    const { properties, required } = objectShape(doc, first[1].schema);
    for (const name of Object.keys(properties)) rows.push({ name, location: 'body', required: required.has(name) });
  }
  return rows.sort((a, b) => a.location.localeCompare(b.location) || a.name.localeCompare(b.name));
}

/** Properties of the 200 response body (envelope included), `allOf` merged. */
export function successProperties(doc: JsonObject, op: OperationEntry): Record<string, Json> {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const ok = deref(doc, responses['200']);
  if (!isObject(ok) || !isObject(ok.content)) return {};
  const media = ok.content['application/json'];
  return isObject(media) ? objectShape(doc, media.schema).properties : {};
}
