/**
 * Model: turns the loaded (bundled, canonical) document into the `ApiModel`
 * every target reads. Sorting and naming happen here, once.
 */
import type { LoadedSpec } from '../load/index.js';
import { isRecord, walkDocument } from '../load/walk.js';
import { BuildContext, type RawNode } from './context.js';
import { compareStrings, deriveNames } from './names.js';
import { versionNotes } from './notes.js';
import { buildParameters } from './parameters.js';
import { buildErrorCodes, buildResponses } from './responses.js';
import { SchemaConverter } from './schema.js';
import type { ApiModel, HttpMethod, NamedSchema, Operation } from './types.js';

/** Method order within one path. */
const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
const UNSUPPORTED_METHODS = ['head', 'options', 'trace'];
const PATH_ITEM_KEYS = new Set(['parameters', 'summary', 'description']);

export function buildModel(loaded: LoadedSpec): ApiModel {
  const ctx = new BuildContext(loaded.document, loaded.sources);
  const doc = loaded.document;
  const schemas = new SchemaConverter(ctx);
  const info = ctx.record(doc, 'info', 'the info object');

  const componentSchemas = isRecord(doc.components) && isRecord(doc.components.schemas) ? doc.components.schemas : {};
  const schemaNames = deriveNames(Object.keys(componentSchemas));
  const named: NamedSchema[] = Object.keys(componentSchemas)
    .sort(compareStrings)
    .map((name) => ({ name, names: schemaNames.get(name)!, schema: schemas.namedSchema(name) }));

  const model: ApiModel = {
    title: ctx.text(info, 'title'),
    version: ctx.text(info, 'version'),
    description: ctx.text(info, 'description'),
    basePath: basePath(ctx, doc),
    maxFeatureLevel: maxFeatureLevel(doc),
    operations: buildOperations(ctx, schemas, doc),
    schemas: named,
    errors: buildErrorCodes(ctx, schemas),
    tags: (Array.isArray(doc.tags) ? doc.tags : []).filter(isRecord).map((tag) => ({
      name: String(tag.name),
      description: typeof tag.description === 'string' ? tag.description : '',
    })),
    unspecified: [info, doc].flatMap((node) => versionNotes(node).unspecified),
    openapi: doc,
  };
  model.warnings = [...loaded.warnings, ...ctx.warnings];
  return model;
}

function buildOperations(ctx: BuildContext, schemas: SchemaConverter, doc: RawNode): Operation[] {
  const paths = doc.paths === undefined ? {} : ctx.record(doc, 'paths', 'a map of paths');
  const found: { path: string; method: HttpMethod; node: RawNode; item: RawNode }[] = [];
  for (const [path, raw] of Object.entries(paths)) {
    const item = ctx.deref(raw);
    if (!isRecord(item)) ctx.fail(paths, path, `path \`${path}\` must be a path item`);
    if (!path.startsWith('/')) ctx.fail(paths, path, `path \`${path}\` must start with /`);
    for (const [key, value] of Object.entries(item)) {
      if (METHODS.includes(key as HttpMethod)) {
        if (!isRecord(value)) ctx.fail(item, key, `\`${key}\` must be an operation`);
        found.push({ path, method: key as HttpMethod, node: value, item });
      } else if (UNSUPPORTED_METHODS.includes(key)) {
        ctx.fail(item, key, `HTTP method \`${key}\` is not supported`);
      } else if (!PATH_ITEM_KEYS.has(key) && !key.startsWith('x-') && key !== '$ref') {
        ctx.fail(item, key, `path item key \`${key}\` is not supported`);
      }
    }
  }
  found.sort((a, b) => compareStrings(a.path, b.path) || METHODS.indexOf(a.method) - METHODS.indexOf(b.method));
  const names = deriveNames(found.map((f) => f.node.operationId as string));
  const rootAuth = Array.isArray(doc.security) && doc.security.length > 0;

  return found.map(({ path, method, node, item }): Operation => {
    const id = node.operationId as string;
    if (method === 'get' && node.requestBody !== undefined) ctx.fail(node, 'requestBody', 'a GET operation cannot have a request body');
    const input = buildParameters(ctx, schemas, node, item, path);
    const { success, errors } = buildResponses(ctx, schemas, node);
    const tags = node.tags ?? [];
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) ctx.fail(node, 'tags', '`tags` must be a list of names');
    return {
      id,
      names: names.get(id)!,
      method,
      path,
      summary: ctx.text(node, 'summary'),
      description: ctx.text(node, 'description'),
      tags: tags as string[],
      auth: Array.isArray(node.security) ? node.security.length > 0 : rootAuth,
      parameters: input.parameters,
      body: input.body,
      success,
      errors,
      requestExamples: input.requestExamples,
      source: ctx.locate(node),
      ...versionNotes(node),
    };
  });
}

/** The path part of the first server URL: `{base_url}/api/v1` and `https://host/api/v1` give `/api/v1`. */
function basePath(ctx: BuildContext, doc: RawNode): string {
  const server = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
  if (server === undefined) return '';
  if (!isRecord(server) || typeof server.url !== 'string') ctx.fail(doc, 'servers', 'the first server needs a `url`');
  const path = server.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/^\{[^}]*\}/, '');
  if (path !== '' && !path.startsWith('/')) ctx.fail(server, 'url', 'the first server URL must end in a path such as `/api/v1`');
  return path.replace(/\/+$/, '');
}

/** The highest level named by `x-feature-level` or `x-changes` anywhere in the document. */
function maxFeatureLevel(doc: RawNode): number {
  let max = 0;
  walkDocument(doc, {
    keywords(node) {
      const notes = versionNotes(node);
      for (const level of [notes.featureLevel ?? 0, ...notes.changes.map((c) => c.level)]) max = Math.max(max, level);
    },
  });
  return max;
}
