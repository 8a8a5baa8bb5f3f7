/**
 * Model: turns the loaded (bundled, canonical) document into the `ApiModel`
 * every target reads. Sorting and naming happen here, once.
 */
import type { LoadedSpec } from '../load/index.js';
import { isRecord, walkDocument } from '../load/walk.js';
import { BuildContext, type RawNode } from './context.js';
import { compareStrings, deriveNames, operationNames, schemaTypeNames } from './names.js';
import { findOperations } from './operations.js';
import { versionNotes } from './notes.js';
import { buildParameters } from './parameters.js';
import { buildErrorCodes, buildResponses } from './responses.js';
import { buildSecuritySchemes, needsAuth, operationSecurity } from './security.js';
import { SchemaConverter } from './schema.js';
import type { ApiModel, HttpMethod, NamedSchema, Operation, Schema, SecuritySchemeModel } from './types.js';


export function buildModel(loaded: LoadedSpec): ApiModel {
  const ctx = new BuildContext(loaded.document, loaded.sources);
  const doc = loaded.document;
  const schemas = new SchemaConverter(ctx);
  const info = ctx.record(doc, 'info', 'the info object');
  const base = basePath(ctx, doc, doc.servers);
  const securitySchemes = buildSecuritySchemes(ctx, doc);

  const componentSchemas = isRecord(doc.components) && isRecord(doc.components.schemas) ? doc.components.schemas : {};
  const schemaNames = deriveNames(Object.keys(componentSchemas));
  const named: NamedSchema[] = Object.keys(componentSchemas)
    .sort(compareStrings)
    .map((name) => ({ name, names: schemaNames.get(name)!, schema: schemas.namedSchema(name), source: ctx.locate(componentSchemas, name) }));
  const operations = buildOperations(ctx, schemas, doc, base, securitySchemes);
  // Named types give way to the operation aliases of types.ts, so they are settled once operations are named.
  const typeNames = schemaTypeNames(named, operations.map((o) => o.names));
  for (const schema of named) schema.names = { ...schema.names, type: typeNames.get(schema.name)! };

  const model: ApiModel = {
    title: ctx.text(info, 'title'),
    version: ctx.text(info, 'version'),
    description: ctx.text(info, 'description'),
    basePath: base,
    maxFeatureLevel: maxFeatureLevel(doc, loaded.extended),
    operations,
    schemas: named,
    errors: buildErrorCodes(ctx, schemas),
    tags: (Array.isArray(doc.tags) ? doc.tags : []).filter(isRecord).map((tag) => ({
      name: String(tag.name),
      description: typeof tag.description === 'string' ? tag.description : '',
    })),
    unspecified: [info, doc].flatMap((node) => versionNotes(node).unspecified),
    openapi: doc,
    securitySchemes,
    conventions: { successEnvelope: false, bodyCodedErrors: false, featureLevels: false },
  };
  model.conventions = {
    successEnvelope: model.operations.length > 0 && model.operations.every((o) => hasEnvelope(schemas, o.success.schema)),
    bodyCodedErrors: model.errors.length > 0,
    featureLevels: model.maxFeatureLevel > 0,
  };
  model.warnings = [...loaded.warnings, ...ctx.warnings];
  return model;
}

/** Whether a success body requires `result` and `msg` (our envelope). */
function hasEnvelope(schemas: SchemaConverter, schema: Schema): boolean {
  const resolved = schemas.resolve(schema);
  if (resolved.kind !== 'object') return false;
  return ['result', 'msg'].every((name) => resolved.properties.some((p) => p.name === name && p.required));
}

function buildOperations(
  ctx: BuildContext,
  schemas: SchemaConverter,
  doc: RawNode,
  base: string,
  securitySchemes: readonly SecuritySchemeModel[],
): Operation[] {
  const found = findOperations(ctx, doc);
  const names = operationNames(found.map((f) => f.id));

  return found.map(({ path, method, node, item, id }): Operation => {
    let operation = node;
    if ((method === 'get' || method === 'head') && node.requestBody !== undefined) {
      ctx.warn(node, 'requestBody', `a ${method.toUpperCase()} request body is ignored: clients and servers commonly drop it`);
      const { requestBody: _ignored, ...rest } = node;
      operation = rest;
    }
    const servers = operationServers(ctx, doc, item, node, base);
    const security = operationSecurity(ctx, doc, node, securitySchemes);
    const input = buildParameters(ctx, schemas, operation, item, path);
    const { success, successes, errors } = buildResponses(ctx, schemas, node);
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
      auth: needsAuth(security),
      security,
      ...servers,
      parameters: input.parameters,
      body: input.body,
      ...(input.requestBody ? { requestBody: input.requestBody } : {}),
      success,
      successes,
      errors,
      requestExamples: input.requestExamples,
      source: ctx.locate(node),
      ...versionNotes(node),
    };
  });
}

function sameServers(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

/**
 * Where an operation is sent: the operation's own `servers`, else its path
 * item's, else the document's. `basePath` is the first such server's path;
 * `servers` (absolute URLs, variables at their defaults) only when they
 * differ from the document's.
 */
function operationServers(
  ctx: BuildContext,
  doc: RawNode,
  item: RawNode,
  node: RawNode,
  base: string,
): Pick<Operation, 'basePath' | 'servers'> {
  const owner = [node, item].find((o) => Array.isArray(o.servers) && o.servers.length > 0);
  if (owner === undefined || sameServers(owner.servers, doc.servers)) return { basePath: base };
  const servers = owner.servers as unknown[];
  const urls = servers.map((server, i) => {
    if (!isRecord(server) || typeof server.url !== 'string') ctx.fail(servers, String(i), 'a server needs a `url`');
    return serverUrl(server);
  });
  return { basePath: basePath(ctx, owner, servers), servers: urls };
}

/** A server's URL with every variable at its default, without a trailing slash. */
function serverUrl(server: RawNode): string {
  const variables = isRecord(server.variables) ? server.variables : {};
  const url = (server.url as string).replace(/\{([^}]*)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isRecord(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
  return url.length > 1 ? url.replace(/\/+$/, '') : url;
}

/**
 * The path part of the first server URL, server variables replaced by their
 * defaults: `{base_url}/api/v1` and `https://host/api/v1` give `/api/v1`,
 * `https://api.example.com` and `/` give the empty path.
 */
function basePath(ctx: BuildContext, owner: RawNode, servers: unknown): string {
  const server = Array.isArray(servers) ? servers[0] : undefined;
  if (server === undefined) return '';
  if (!isRecord(server) || typeof server.url !== 'string') ctx.fail(owner, 'servers', 'the first server needs a `url`');
  const variables = isRecord(server.variables) ? server.variables : {};
  // A leading variable stands for the scheme and host (`{base_url}/api/v1`); the others take their defaults.
  let url = server.url.replace(/^\{[^}]*\}/, '');
  url = url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isRecord(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
  let path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  if (path !== '' && !path.startsWith('/')) {
    // `api.example.com/v2` (no scheme): the host ends at the first slash.
    const slash = path.indexOf('/');
    path = slash === -1 ? '' : path.slice(slash);
  }
  path = path.split(/[?#]/, 1)[0]!.replace(/\/+$/, '');
  if (/[{}]/.test(path)) {
    ctx.warn(server, 'url', `the server URL path \`${path}\` has a variable without a default; operations are served without a base path`);
    return '';
  }
  return path;
}

/**
 * The highest level named by `x-feature-level` or `x-changes` anywhere in the
 * document: among the nodes the loader found holding our extensions, or,
 * without that list, in a walk of the document.
 */
function maxFeatureLevel(doc: RawNode, extended: readonly RawNode[] | undefined): number {
  let max = 0;
  const visit = (node: RawNode): void => {
    // Most nodes carry neither key: their notes are not built (a large document has hundreds of thousands of nodes).
    if (!('x-feature-level' in node) && !('x-changes' in node)) return;
    const notes = versionNotes(node);
    for (const level of [notes.featureLevel ?? 0, ...notes.changes.map((c) => c.level)]) max = Math.max(max, level);
  };
  if (extended !== undefined) extended.forEach(visit);
  else walkDocument(doc, { keywords: visit });
  return max;
}
