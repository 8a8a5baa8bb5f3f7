/**
 * Regression over the public @readme/oas-examples documents (a devDependency,
 * read from node_modules, never copied into the repository): every OpenAPI
 * 3.0 and 3.1 document loads, every schema in it converts and gets a
 * generated validator, and those agree with ajv (draft 2020-12, on the
 * normalised document) on every example the document gives for a body or
 * parameter. The full model of each document is generated too, and its
 * `validateResponse` (status and media type chosen as a client would) agrees
 * with ajv on every example of a JSON response body.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../generator/load/index.js';
import { isRecord } from '../../../generator/load/walk.js';
import { BuildContext } from '../../../generator/model/context.js';
import { deriveNames } from '../../../generator/model/names.js';
import { patternFlags, SchemaConverter } from '../../../generator/model/schema.js';
import type { ApiModel, NamedSchema } from '../../../generator/model/types.js';
import { renderValidators } from '../../../generator/targets/validators/index.js';
import { loadGenerated, removeWritten, TEMPLATES_DIR } from '../../fixtures/validators/load.js';
import { buildModel } from '../../../generator/model/build.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const EXAMPLES = join(dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json')));
/**
 * More JSON documents to hold to the same checks, by absolute path, separated
 * like PATH (`TEAMCHAT_EXAMPLE_DOCS=/x/a.json:/x/b.json npx vitest run
 * test/generator/documents/oas-examples.test.ts`): a way to try a public API's own
 * description without copying it here.
 */
const extraDocuments = (process.env.TEAMCHAT_EXAMPLE_DOCS ?? '').split(delimiter).filter((p) => p.length > 0);
const documents = [
  ...['3.0', '3.1'].flatMap((version) =>
    readdirSync(join(EXAMPLES, version, 'json')).filter((f) => f.endsWith('.json')).sort().map((f) => `${version}/json/${f}`),
  ),
  ...extraDocuments,
];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const scratch = mkdtempSync(join(tmpdir(), 'teamchat-oas-examples-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  removeWritten();
});

type Validate = (value: unknown) => unknown[];
let comparedTotal = 0;
let comparedResponses = 0;

/** Every `schema` outside component schemas with the examples given beside it (media types, parameters). */
function exampleSites(document: unknown): { schema: unknown; examples: unknown[] }[] {
  const sites: { schema: unknown; examples: unknown[] }[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isRecord(node)) return;
    if ('schema' in node && (isRecord(node.schema) || typeof node.schema === 'boolean')) {
      const examples: unknown[] = [];
      if (node.example !== undefined) examples.push(node.example);
      if (isRecord(node.examples)) for (const e of Object.values(node.examples)) if (isRecord(e) && 'value' in e) examples.push(e.value);
      sites.push({ schema: node.schema, examples });
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples' && !key.startsWith('x-') && key !== 'schema') visit(value);
  };
  visit(isRecord(document) ? document.paths : undefined);
  return sites;
}

describe.each(documents)('%s', (file) => {
  it('loads, converts every schema, and its validators agree with ajv on its examples', async () => {
    const raw = JSON.parse(readFileSync(resolve(EXAMPLES, file), 'utf8')) as Record<string, any>;
    // The operations half names operations without an operationId; here only schemas matter.
    let n = 0;
    for (const item of Object.values<any>(raw.paths ?? {})) for (const m of METHODS) if (isRecord(item?.[m])) item[m].operationId = `op-${n++}`;
    const dir = join(scratch, file.replace(/\W/g, '_'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(raw));
    const loaded = await loadSpec('openapi.json', dir);

    const ctx = new BuildContext(loaded.document, loaded.sources);
    const converter = new SchemaConverter(ctx);
    const components = isRecord(loaded.document.components) && isRecord(loaded.document.components.schemas) ? loaded.document.components.schemas : {};
    const sites = exampleSites(loaded.document);
    const raws = [...Object.keys(components).map((name) => ({ name, node: components[name] as unknown })), ...sites.map((s, i) => ({ name: `site ${i}`, node: s.schema }))];
    const names = deriveNames(raws.map((r) => r.name));
    const schemas: NamedSchema[] = raws.map((r) => ({
      name: r.name,
      names: names.get(r.name)!,
      schema: r.name.startsWith('site ') ? converter.convert(r.node) : converter.namedSchema(r.name),
    }));
    const model: ApiModel = { title: file, version: '1', description: '', basePath: '', maxFeatureLevel: 0, operations: [], schemas, errors: [], tags: [], unspecified: [], securitySchemes: [], conventions: { successEnvelope: false, bodyCodedErrors: false, featureLevels: false } };
    const source = renderValidators(model, TEMPLATES_DIR, 'test');
    writeFileSync(join(dir, 'validators.ts'), source.validators);
    for (const [path, contents] of source.runtime) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), contents);
    }
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    const generated = (await import(pathToFileURL(join(dir, 'validators.ts')).href)) as { schemaValidators: Record<string, Validate> };

    const ajv = new Ajv2020({
      strict: false,
      code: { regExp: ((p: string) => { try { return new RegExp(p, patternFlags(p)); } catch { return { test: () => true }; } }) as never },
    });
    addFormats(ajv);
    ajv.addSchema({ ...structuredClone(loaded.document), $id: 'https://oas.test/doc.json' });
    let compared = 0;
    sites.forEach((site, i) => {
      if (site.examples.length === 0) return;
      const theirs = ajv.compile({ $id: `https://oas.test/site${i}.json`, $defs: {}, ...(structuredClone(site.schema) as object), ...rebase(site.schema) });
      for (const example of site.examples) {
        compared++;
        const ours = generated.schemaValidators[`site ${i}`]!(example).length === 0;
        expect(ours, `site ${i}: ${JSON.stringify(example).slice(0, 200)}`).toBe(theirs(example));
      }
    });
    comparedTotal += compared;
  }, 60_000);
});

it('compared a fair number of examples across the documents', () => {
  expect(comparedTotal).toBeGreaterThan(30);
});

/** Refs inside an inline schema point into the document: resolve them against it. */
function rebase(schema: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(schema ?? {}, (k, v: unknown) => (k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `https://oas.test/doc.json${v}` : v))) as Record<string, unknown>;
  return copy;
}

/**
 * Documents with a construct the model degrades, each with the warning (file
 * and line) it must give. response-http-behavior names a security scheme
 * (`api_key`) it never declares: the requirement is ignored, not refused.
 */
const DEGRADED: Record<string, RegExp[]> = {
  '3.0/json/response-http-behavior.json': [51, 68, 85].map(
    (line) => new RegExp(`^openapi\\.json:${line}: security requirement names \`api_key\`, which \`components\\.securitySchemes\` does not declare; it is ignored`),
  ),
};

describe.each(documents)('%s responses', (file) => {
  it('validateResponse agrees with ajv on every example of a JSON response body', async () => {
    const dir = join(scratch, `${file.replace(/\W/g, '_')}_model`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'openapi.json'), readFileSync(resolve(EXAMPLES, file), 'utf8'));
    const loaded = await loadSpec('openapi.json', dir);
    const model = buildModel(loaded);
    for (const warning of DEGRADED[file] ?? []) expect(model.warnings).toContainEqual(expect.stringMatching(warning));
    const generated = await loadGenerated(model);
    const validate = generated.validateResponse as (op: string, status: number, mediaType: string, body: unknown) => unknown[] | undefined;
    const ajv = new Ajv2020({
      strict: false,
      code: { regExp: ((p: string) => { try { return new RegExp(p, patternFlags(p)); } catch { return { test: () => true }; } }) as never },
    });
    addFormats(ajv);
    ajv.addSchema({ ...structuredClone(loaded.document), $id: 'https://oas.test/doc.json' });
    const deref = (node: unknown): any => {
      let current = node;
      while (isRecord(current) && typeof current.$ref === 'string') {
        current = current.$ref.slice(2).split('/').reduce<unknown>((n, key) => (isRecord(n) ? n[decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), loaded.document);
      }
      return current;
    };
    for (const operation of model.operations) {
      const responses = [...operation.successes, ...operation.errors];
      const keys = new Set(responses.map((r) => r.statusText ?? String(r.status)));
      for (const response of responses) {
        if ('synthetic' in response && response.synthetic) continue;
        const key = response.statusText ?? String(response.status);
        // A status that selects this response: itself, or one no exact status or range takes first.
        const status = /^\d+$/.test(key) ? Number(key) : key === 'default' ? [599, 499, 399, 299, 199].find((s) => !keys.has(String(s)) && !keys.has(`${String(s)[0]}XX`))! : Number(key[0]) * 100 + 99;
        const raw = deref(deref(deref((loaded.document.paths as any)[operation.path])[operation.method]).responses[key]);
        for (const content of response.contents) {
          if (content.kind !== 'json' || content.examples.length === 0) continue;
          const mediaKey = Object.keys(raw.content).find((k) => k.toLowerCase() === content.mediaType)!;
          const schema = deref(raw.content[mediaKey]).schema;
          const theirs = ajv.compile(rebase(schema ?? {}));
          for (const example of content.examples) {
            comparedResponses++;
            const issues = validate(operation.names.camel, status, content.mediaType, example.value);
            expect(issues, `${operation.id} ${key} ${content.mediaType}`).toBeDefined();
            expect(issues!.length === 0, `${operation.id} ${key} ${content.mediaType} ${example.name}: ${JSON.stringify(issues).slice(0, 300)}`).toBe(theirs(example.value));
          }
        }
      }
    }
  }, 60_000);
});

it('compared a fair number of response examples through validateResponse', () => {
  expect(comparedResponses).toBeGreaterThan(30);
});
