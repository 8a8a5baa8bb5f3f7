/**
 * Every example in the document validates against its own schema, judged by
 * ajv (JSON Schema 2020-12) rather than by Redocly's own example rules.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { HTTP_METHODS, deref, isObject, loadBundled, pointer, type Json, type JsonObject } from './document.js';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const DOC_ID = 'urn:teamchat:openapi';

interface ExampleCase {
  /** Where the example is, as a JSON pointer. */
  where: string;
  /** JSON pointer of the schema it must satisfy. */
  schemaPtr: string;
  value: Json;
}

/** Schema keywords whose values are subschemas (or maps/lists of them). */
const SUBSCHEMA = ['items', 'not', 'propertyNames', 'contains', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties'];
const SUBSCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

function collectSchema(node: Json | undefined, at: (string | number)[], out: ExampleCase[]): void {
  if (!isObject(node)) return;
  const schemaPtr = pointer(at);
  if (Array.isArray(node.examples)) {
    node.examples.forEach((value, i) => out.push({ where: pointer([...at, 'examples', i]), schemaPtr, value }));
  }
  if ('example' in node) out.push({ where: pointer([...at, 'example']), schemaPtr, value: node.example ?? null });
  for (const key of SUBSCHEMA) collectSchema(node[key], [...at, key], out);
  for (const key of SUBSCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((s, i) => collectSchema(s, [...at, key, i], out));
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = node[key];
    if (isObject(map)) for (const [name, s] of Object.entries(map)) collectSchema(s, [...at, key, name], out);
  }
}

/** A parameter or media type object: its `example`/`examples` against its `schema`. */
function collectHolder(doc: JsonObject, node: Json | undefined, at: (string | number)[], out: ExampleCase[]): void {
  if (!isObject(node) || '$ref' in node) return;
  const schemaPtr = pointer([...at, 'schema']);
  collectSchema(node.schema, [...at, 'schema'], out);
  if ('example' in node) out.push({ where: pointer([...at, 'example']), schemaPtr, value: node.example ?? null });
  if (isObject(node.examples)) {
    for (const [name, raw] of Object.entries(node.examples)) {
      const example = deref(doc, raw);
      if (isObject(example) && 'value' in example) {
        out.push({ where: pointer([...at, 'examples', name]), schemaPtr, value: example.value ?? null });
      }
    }
  }
}

function collectContent(doc: JsonObject, holder: Json | undefined, at: (string | number)[], out: ExampleCase[]): void {
  if (!isObject(holder) || '$ref' in holder || !isObject(holder.content)) return;
  for (const [type, media] of Object.entries(holder.content)) collectHolder(doc, media, [...at, 'content', type], out);
}

function collectAll(doc: JsonObject): ExampleCase[] {
  const out: ExampleCase[] = [];
  const components = isObject(doc.components) ? doc.components : {};
  const section = (name: string): JsonObject => (isObject(components[name]) ? components[name] : {});
  for (const [name, s] of Object.entries(section('schemas'))) collectSchema(s, ['components', 'schemas', name], out);
  for (const [name, p] of Object.entries(section('parameters'))) collectHolder(doc, p, ['components', 'parameters', name], out);
  for (const [name, r] of Object.entries(section('responses'))) collectContent(doc, r, ['components', 'responses', name], out);
  for (const [name, b] of Object.entries(section('requestBodies'))) collectContent(doc, b, ['components', 'requestBodies', name], out);
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const params = (list: Json | undefined, at: (string | number)[]) => {
      if (Array.isArray(list)) list.forEach((p, i) => collectHolder(doc, p, [...at, 'parameters', i], out));
    };
    params(item.parameters, ['paths', path]);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = ['paths', path, method];
      params(op.parameters, at);
      collectContent(doc, op.requestBody, [...at, 'requestBody'], out);
      if (isObject(op.responses)) {
        for (const [status, response] of Object.entries(op.responses)) collectContent(doc, response, [...at, 'responses', status], out);
      }
    }
  }
  return out;
}

let cases: ExampleCase[];
let ajv: Ajv2020;
const compiled = new Map<string, ValidateFunction>();

beforeAll(async () => {
  const { doc } = await loadBundled();
  cases = collectAll(doc);
  // strict: false lets OpenAPI's own keywords (discriminator, x-*) pass as annotations.
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ ...doc, $id: DOC_ID });
});

function validatorFor(schemaPtr: string): ValidateFunction {
  let validate = compiled.get(schemaPtr);
  if (!validate) {
    const fragment = schemaPtr.split('/').map(encodeURIComponent).join('/');
    validate = ajv.compile({ $ref: `${DOC_ID}#${fragment}` });
    compiled.set(schemaPtr, validate);
  }
  return validate;
}

describe('examples', () => {
  it('are found in every place that holds them', () => {
    const where = cases.map((c) => c.where);
    // At least one request, success, error, parameter and schema example.
    expect(where.some((w) => w.includes('/requestBody/content/'))).toBe(true);
    expect(where.some((w) => w.includes('/responses/200/content/'))).toBe(true);
    expect(where.some((w) => w.includes('/responses/400/content/'))).toBe(true);
    expect(where.some((w) => /\/parameters\/\d+\/example$/.test(w))).toBe(true);
    expect(where.some((w) => w.startsWith('/components/schemas/'))).toBe(true);
    expect(cases.length).toBeGreaterThan(100);
  });

  it('each validate against their own schema', () => {
    const failures: string[] = [];
    for (const c of cases) {
      const validate = validatorFor(c.schemaPtr);
      if (!validate(c.value)) {
        const issues = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
        failures.push(`${c.where}: ${[...new Set(issues)].join('; ')}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a wrong example is caught by the same judge', () => {
    const history = cases.find((c) => c.where.includes('/paths/~1messages~1{message_id}~1history/get/responses/200/'));
    expect(history).toBeDefined();
    const validate = validatorFor(history!.schemaPtr);
    expect(validate({ result: 'success', msg: '', message_history: [{ topic: 'deploys' }] })).toBe(false);
    expect(validate({ result: 'error', msg: '', message_history: [] })).toBe(false);
  });
});
