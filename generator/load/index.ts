/**
 * Load: read the spec's files, bundle them into one document with
 * @redocly/openapi-core (external `$ref`s become `#/components/...` refs),
 * put keys in canonical order, and stop with a `SpecError` naming file and
 * line on anything malformed.
 */
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BaseResolver, bundle as BundleFn, Config } from '@redocly/openapi-core';
import { canonicalize } from './canonical.js';
import { checkDocument } from './check.js';
import { normalise } from './normalise.js';
import { formatLocation, SpecError } from './errors.js';
import { SourceMap } from './source-map.js';
import { isRecord, valueAtPointer, walkDocument } from './walk.js';
import { importModule } from '../esm.js';

export { SpecError } from './errors.js';
export { SourceMap } from './source-map.js';

export interface LoadedSpec {
  /** The bundled document, keys in canonical order; refs to components kept as `#/components/...`. */
  document: Record<string, unknown>;
  sources: SourceMap;
  /** Absolute paths of every file the document was read from. */
  files: string[];
  /** The OpenAPI version as written; the document itself is always 3.1 after loading. */
  sourceVersion: string;
  /** Non-fatal findings (`file:line: ...`), one line each. */
  warnings: string[];
  /**
   * Every node of `document` holding one of our extensions (`x-feature-level`,
   * `x-changes`, ...), as the loader's checks found them, so the model need
   * not walk the document for them again. Without it, the model does.
   */
  extended?: readonly Record<string, unknown>[];
}

interface BundlerProblem {
  message: string;
  severity: string;
  location: { source: { absoluteRef: string }; pointer?: string }[];
}

export interface LoadOptions {
  /** `redocly`: bundle with Redocly even a document that needs no bundling (tests compare both ways). */
  bundler?: 'auto' | 'redocly';
}

export async function loadSpec(specPath: string, root: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  const absolute = resolve(root, specPath);
  const sources = new SourceMap(root, absolute);
  if (!existsSync(absolute)) throw new SpecError(sources.relativePath(absolute), undefined, 'file not found');

  const parsed = options.bundler === 'redocly' || existsSync(join(root, 'redocly.yaml')) ? undefined : parseRoot(absolute);
  const single = parsed === undefined ? undefined : selfContained(parsed);
  const bundleNotes: string[] = [];
  const { document, files } = single === undefined ? await bundled(absolute, root, sources, bundleNotes, parsed) : { document: single, files: [absolute] };
  if (single !== undefined) sources.addFile(absolute, single);
  const { version, warnings } = normalise(document, sources);
  warnings.unshift(...bundleNotes);
  const checked = checkDocument(document, sources);
  warnings.push(...checked.warnings);
  canonicalize(document);
  return { document, sources, files: files.sort(), sourceVersion: version, warnings, extended: checked.extended };
}

/**
 * The root file parsed: JSON with `JSON.parse`, YAML as Redocly reads it
 * (`parseYaml`); undefined when it does not parse to an object, which
 * Redocly then reads and reports on as before.
 */
function parseRoot(absolute: string): Record<string, unknown> | undefined {
  try {
    const text = readText(absolute);
    const parsed: unknown = /\.json$/i.test(absolute) ? JSON.parse(text) : parseYaml(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The parsed root file when it refers to nothing outside itself; undefined
 * for anything else (another file or a URL in a `$ref`, an `externalValue`
 * or a discriminator mapping, a `$ref` that does not resolve, a `$ref` in
 * data), which Redocly bundles as before. Bundling such a document changes
 * nothing, so this skips loading Redocly's bundler: about a third of a cold
 * `generate`.
 */
function selfContained(document: Record<string, unknown>): Record<string, unknown> | undefined {
  let inside = true;
  // A large document names the same few hundred targets thousands of times.
  const resolved = new Map<string, boolean>();
  // Objects with a `$ref` where the walk reads structure, and any others (in data, or a map of names with a `$ref` key).
  const structural = new Set<object>();
  const elsewhere: object[] = [];
  const seenData = new Set<object>();
  walkDocument(document, {
    keywords(node) {
      if (!inside) return;
      if ('$ref' in node) {
        const ref = node.$ref;
        let found = typeof ref === 'string' ? resolved.get(ref) : false;
        if (found === undefined) resolved.set(ref as string, (found = resolvesInside(document, ref as string)));
        inside = found;
        structural.add(node);
      }
      // Redocly inlines an example's `externalValue` and bundles the files a discriminator's mapping names.
      if ('externalValue' in node) inside = false;
      const mapping = isRecord(node.discriminator) ? node.discriminator.mapping : undefined;
      if (isRecord(mapping) && Object.values(mapping).some((target) => typeof target !== 'string' || !target.startsWith('#'))) inside = false;
    },
    names(node) {
      if (Object.hasOwn(node, '$ref')) elsewhere.push(node);
    },
    data(value) {
      if (inside) collectRefs(value, seenData, elsewhere);
    },
  });
  // Redocly also follows some `$ref`s inside example values; any `$ref` outside the structure goes to it.
  if (!inside || elsewhere.some((node) => !structural.has(node))) return undefined;
  // Redocly's bundler gives every OpenAPI 3 document a `components` object.
  if (typeof document.openapi === 'string' && document.openapi.startsWith('3') && !document.components) document.components = {};
  return document;
}

/** Adds to `found` the objects with a `$ref` key anywhere in `node` (data: every key counts). */
function collectRefs(node: unknown, seen: Set<object>, found: object[]): void {
  if (node === null || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const value of node) collectRefs(value, seen, found);
    return;
  }
  if (Object.hasOwn(node, '$ref')) found.push(node);
  // for...in rather than Object.values: no array per object (parsed JSON and YAML have no inherited keys).
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    if (value !== null && typeof value === 'object') collectRefs(value, seen, found);
  }
}

/**
 * A file's text. Plain ASCII (as a JSON file written by a program often is)
 * reads as Latin-1 without UTF-8 decoding and gives the same string; any
 * other text is decoded as UTF-8.
 */
function readText(absolute: string): string {
  const bytes = readFileSync(absolute);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * YAML as Redocly's bundler parses it (`parseYaml` of @redocly/openapi-core:
 * js-yaml's core schema with merge keys and the binary, omap, pairs and set
 * tags, one document), so both paths read a file alike. js-yaml builds the
 * values straight from the text, about four times as fast as `yaml`'s
 * syntax tree; `yaml` is kept for the lines of messages (`source-map.ts`).
 */
function parseYaml(text: string): unknown {
  const jsYaml = createRequire(import.meta.url)('js-yaml') as typeof import('js-yaml');
  const schema = jsYaml.CORE_SCHEMA.withTags(jsYaml.mergeTag, jsYaml.binaryTag, jsYaml.omapTag, jsYaml.pairsTag, jsYaml.setTag);
  const documents = jsYaml.loadAll(text, { schema });
  if (documents.length !== 1) throw new Error('expected one YAML document');
  return documents[0];
}

/** Whether `ref` is a JSON pointer into `document` that reaches a value without passing through another `$ref`. */
function resolvesInside(document: Record<string, unknown>, ref: string): boolean {
  return ref.startsWith('#/') ? valueAtPointer(document, ref) !== undefined : ref === '#';
}

/**
 * Redocly's bundle of the spec's files into one document; the source map
 * learns every file. `parsed`, the root file as `parseRoot` read it, is
 * handed to Redocly's resolver instead of a second parse of the same text
 * (a tenth of a run on a 13 MB document whose examples hold `$ref`s).
 */
async function bundled(
  absolute: string,
  root: string,
  sources: SourceMap,
  notes: string[],
  parsed: Record<string, unknown> | undefined,
): Promise<{ document: Record<string, unknown>; files: string[] }> {
  const { config, Resolver, bundle } = await bundler(root);
  const resolver = parsed === undefined ? new Resolver(config.resolve) : new (rootParsed(Resolver, absolute, parsed))(config.resolve);
  let result: Awaited<ReturnType<typeof BundleFn>>;
  try {
    result = await bundle({ ref: absolute, config, externalRefResolver: resolver, dereference: false });
  } catch (error) {
    throw syntaxOrReadError(sources, absolute, error);
  }

  const files: string[] = [];
  const entries = [...resolver.cache.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [path, pending] of entries) {
    const doc: unknown = await pending.catch((e: unknown) => e);
    if (!(doc instanceof Error)) continue;
    // A file that does not parse is the cause of every error that follows from it.
    const syntax = sources.syntaxError(path);
    if (syntax) throw new SpecError(sources.relativePath(path), syntax.line, `YAML syntax error: ${syntax.message}`);
  }
  for (const [, pending] of entries) {
    const doc: unknown = await pending.catch((e: unknown) => e);
    if (doc instanceof Error) continue;
    const { source, parsed } = doc as { source: { absoluteRef: string }; parsed: unknown };
    files.push(source.absoluteRef);
    // The root is added last: after bundling it also holds objects parsed from other files.
    if (source.absoluteRef !== absolute) sources.addFile(source.absoluteRef, parsed);
  }
  sources.addFile(absolute, result.bundle.parsed);
  const document = result.bundle.parsed;
  if (!isRecord(document)) throw new SpecError(sources.relativePath(absolute), 1, 'not an OpenAPI document');
  reportProblems(sources, result.problems as unknown as BundlerProblem[], absolute, document, notes);
  return { document, files };
}

/** `Resolver` that answers the root file with `parsed` (read once, by `parseRoot`) and parses every other file itself. */
function rootParsed(Resolver: typeof BaseResolver, absolute: string, parsed: Record<string, unknown>): typeof BaseResolver {
  return class extends Resolver {
    override parseDocument(source: Parameters<BaseResolver['parseDocument']>[0], isRoot?: boolean): ReturnType<BaseResolver['parseDocument']> {
      return source.absoluteRef === absolute ? { source, parsed } : super.parseDocument(source, isRoot);
    }
  };
}

interface Bundler {
  config: Config;
  Resolver: typeof BaseResolver;
  bundle: typeof BundleFn;
}

/**
 * Redocly's bundler, loaded as lightly as the project allows. With a
 * `redocly.yaml` (its decorators and preprocessors apply to bundling), the
 * whole package. Without one, its OpenAPI-only entry `lib/bundle-oas` and
 * the resolver module that entry uses: about half the package's load time,
 * a tenth of a cold `generate`. Should a later version move the resolver,
 * the whole package is loaded instead.
 */
async function bundler(root: string): Promise<Bundler> {
  const configPath = join(root, 'redocly.yaml');
  if (!existsSync(configPath)) {
    const oas = await importModule<typeof import('@redocly/openapi-core/lib/bundle-oas')>('@redocly/openapi-core/lib/bundle-oas');
    const entry = createRequire(import.meta.url).resolve('@redocly/openapi-core/lib/bundle-oas');
    const resolver = await importModule<{ BaseResolver?: typeof BaseResolver }>(pathToFileURL(join(dirname(entry), '../resolve.js')).href).catch(() => ({}) as { BaseResolver?: typeof BaseResolver });
    const Resolver = resolver.BaseResolver;
    if (Resolver !== undefined) {
      return { config: oas.createEmptyRedoclyConfig(), Resolver, bundle: oas.bundleOas as unknown as typeof BundleFn };
    }
  }
  const core = await importModule<typeof import('@redocly/openapi-core')>('@redocly/openapi-core');
  const config = existsSync(configPath) ? await core.loadConfig({ configPath }) : await core.createConfig({});
  return { config, Resolver: core.BaseResolver, bundle: core.bundle };
}

function syntaxOrReadError(sources: SourceMap, absolute: string, error: unknown): SpecError {
  const syntax = sources.syntaxError(absolute);
  const file = sources.relativePath(absolute);
  if (syntax) return new SpecError(file, syntax.line, `YAML syntax error: ${syntax.message}`);
  return new SpecError(file, undefined, error instanceof Error ? error.message : String(error));
}

/**
 * Stops at the first error Redocly found, except a discriminator `mapping`
 * entry naming a file that cannot be read (the mapping is only a hint, and
 * documents converted from several files keep such entries): those entries
 * are left out of the root document, with one note per mapping.
 */
function reportProblems(sources: SourceMap, problems: BundlerProblem[], root: string, document: Record<string, unknown>, notes: string[]): void {
  const mappings = new Map<Record<string, unknown>, { path: string[]; keys: string[] }>();
  for (const problem of problems) {
    if (problem.severity !== 'error') continue;
    const location = problem.location[0];
    if (!location) throw new SpecError('?', undefined, problem.message);
    const absolute = location.source.absoluteRef;
    const syntax = sources.syntaxError(absolute);
    if (syntax) throw new SpecError(sources.relativePath(absolute), syntax.line, `YAML syntax error: ${syntax.message}`);

    const path = pointerPath(location.pointer ?? '#');
    const unread = absolute === root && problem.message.startsWith("Can't resolve $ref") && path.at(-3) === 'discriminator' && path.at(-2) === 'mapping';
    const mapping = unread ? nodeAt(document, path.slice(0, -1)) : undefined;
    if (isRecord(mapping)) {
      const entry = mappings.get(mapping) ?? { path: path.slice(0, -1), keys: [] };
      if (!entry.keys.includes(path.at(-1)!)) entry.keys.push(path.at(-1)!);
      mappings.set(mapping, entry);
      continue;
    }
    if (problem.message.startsWith("Can't resolve $ref")) {
      const target = refTarget(sources, absolute, path);
      if (target) {
        const targetSyntax = sources.syntaxError(target);
        if (targetSyntax) {
          throw new SpecError(sources.relativePath(target), targetSyntax.line, `YAML syntax error: ${targetSyntax.message}`);
        }
      }
      const at = sources.locatePath(absolute, [...path, '$ref']);
      const ref = sources.valueAt(absolute, [...path, '$ref']);
      throw new SpecError(at.file, at.line, `cannot resolve $ref \`${String(ref)}\``, at.column);
    }
    const at = sources.locatePath(absolute, path);
    throw new SpecError(at.file, at.line, problem.message, at.column);
  }
  for (const [mapping, { path, keys }] of mappings) {
    const targets = [...new Set(keys.flatMap((key) => (typeof mapping[key] === 'string' ? [mapping[key].split('#')[0] || mapping[key]] : [])))];
    for (const key of keys) delete mapping[key];
    const at = sources.locatePath(root, path);
    const where = formatLocation(at);
    const files = targets.length === 0 ? 'files' : targets.map((t) => `\`${t}\``).join(', ');
    notes.push(`${where}: discriminator mapping ${keys.map((k) => `\`${k}\``).join(', ')} names ${files}, which cannot be read: ${keys.length === 1 ? 'that entry is' : 'those entries are'} ignored`);
  }
}

/** The value at `path` in `document`, if any. */
function nodeAt(document: unknown, path: readonly string[]): unknown {
  let node = document;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The file an external `$ref` at `path` points to. */
function refTarget(sources: SourceMap, absolute: string, path: string[]): string | undefined {
  const ref = sources.valueAt(absolute, [...path, '$ref']);
  if (typeof ref !== 'string' || ref.startsWith('#')) return undefined;
  return resolve(absolute, '..', ref.split('#')[0]!);
}

/** `#/paths/~1a/get` -> ['paths', '/a', 'get']. */
function pointerPath(pointer: string): string[] {
  const body = pointer.replace(/^#?\/?/, '');
  if (body === '') return [];
  return body.split('/').map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
}
