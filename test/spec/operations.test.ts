import { beforeAll, describe, expect, it } from 'vitest';
import {
  deref,
  isObject,
  loadBundled,
  objectShape,
  operations,
  parameterRows,
  requestBodyMedia,
  type Json,
  type JsonObject,
  type OperationEntry,
} from './document.js';
import { seedOperations } from './seed.js';

let doc: JsonObject;
let ops: OperationEntry[];

beforeAll(async () => {
  ({ doc } = await loadBundled());
  ops = operations(doc);
});

function find(operationId: string): OperationEntry {
  const op = ops.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`operation ${operationId} is not in the document`);
  return op;
}

describe('operations', () => {
  it('are exactly the 22 method and path pairs of the API description', () => {
    const got = ops.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort();
    const want = seedOperations.map((s) => `${s.method.toUpperCase()} ${s.path}`).sort();
    expect(want).toHaveLength(22);
    expect(got).toEqual(want);
  });

  it.each(seedOperations.map((s) => [s.operationId, s] as const))('%s has its operationId at its method and path', (id, s) => {
    const op = find(id);
    expect(`${op.method} ${op.path}`).toBe(`${s.method} ${s.path}`);
  });
});

describe('parameters', () => {
  it.each(seedOperations.map((s) => [s.operationId, s] as const))('%s has exactly the parameters of the source', (id, s) => {
    const got = parameterRows(doc, find(id)).map((r) => [r.name, r.location, r.required]);
    const want = [...s.parameters].sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]));
    expect(got).toEqual(want);
  });

  it.each(seedOperations.map((s) => [s.operationId, s] as const))('%s sends its parameters as the wire format says', (id, s) => {
    const op = find(id);
    const params = [...op.pathParameters, ...(Array.isArray(op.operation.parameters) ? op.operation.parameters : [])]
      .map((p) => deref(doc, p))
      .filter(isObject);
    const media = requestBodyMedia(doc, op).map(([type]) => type);
    if (s.method === 'get') {
      expect(media).toEqual([]);
      for (const p of params) expect(['path', 'query']).toContain(p.in);
    } else {
      for (const p of params) expect(p.in).toBe('path');
      const hasBodyParams = s.parameters.some((r) => r[1] === 'body');
      const want = !hasBodyParams ? [] : id === 'upload-file' ? ['multipart/form-data'] : ['application/x-www-form-urlencoded'];
      expect(media).toEqual(want);
    }
  });
});

/** Whether the conventions send a property as JSON text: arrays, objects, unions and nullable values. */
function jsonEncoded(schema: Json | undefined, seen = new Set<Json>()): boolean {
  const s = deref(doc, schema);
  if (!isObject(s) || seen.has(s)) return false;
  seen.add(s);
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) return true;
  if (Array.isArray(s.type)) return true;
  if (s.type === 'array' || s.type === 'object') return true;
  if (Array.isArray(s.allOf)) return s.allOf.some((m) => jsonEncoded(m, seen));
  return false;
}

describe('wire encoding of form bodies', () => {
  const formOps = seedOperations.filter((s) => s.method !== 'get' && s.operationId !== 'upload-file');

  it.each(formOps.map((s) => [s.operationId] as const))('%s marks exactly its JSON-encoded fields', (id) => {
    for (const [type, media] of requestBodyMedia(doc, find(id))) {
      const { properties } = objectShape(doc, media.schema);
      const encoding = isObject(media.encoding) ? media.encoding : {};
      for (const name of Object.keys(encoding)) expect(Object.keys(properties), `${type} encoding names ${name}`).toContain(name);
      for (const [name, schema] of Object.entries(properties)) {
        const enc = encoding[name];
        const marked = isObject(enc) && enc.contentType === 'application/json';
        expect(marked, `${id} ${name}: JSON encoding marked`).toBe(jsonEncoded(schema));
      }
    }
  });

  it('upload-file takes one binary file part', () => {
    const [[type, media] = ['', {}]] = requestBodyMedia(doc, find('upload-file'));
    expect(type).toBe('multipart/form-data');
    const { properties } = objectShape(doc, media.schema);
    expect(Object.keys(properties)).toEqual(['file']);
    expect(deref(doc, properties.file)).toMatchObject({ type: 'string', format: 'binary' });
  });
});
