/**
 * Load: read the spec's files, bundle them into one document with
 * @redocly/openapi-core (external `$ref`s become `#/components/...` refs),
 * put keys in canonical order, and stop with a `SpecError` naming file and
 * line on anything malformed.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BaseResolver, bundle as BundleFn, Config } from '@redocly/openapi-core';
import { canonicalize } from './canonical.js';
import { checkDocument } from './check.js';
import { normalise } from './normalise.js';
import { SpecError } from './errors.js';
import { SourceMap } from './source-map.js';
import { isRecord } from './walk.js';

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
}

interface BundlerProblem {
  message: string;
  severity: string;
  location: { source: { absoluteRef: string }; pointer?: string }[];
}

export async function loadSpec(specPath: string, root: string): Promise<LoadedSpec> {
  const absolute = resolve(root, specPath);
  const sources = new SourceMap(root, absolute);
  if (!existsSync(absolute)) throw new SpecError(sources.relativePath(absolute), undefined, 'file not found');

  const { config, Resolver, bundle } = await bundler(root);
  const resolver = new Resolver(config.resolve);
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
  reportProblems(sources, result.problems as unknown as BundlerProblem[]);
  const document = result.bundle.parsed;
  if (!isRecord(document)) throw new SpecError(sources.relativePath(absolute), 1, 'not an OpenAPI document');
  const { version, warnings } = normalise(document, sources);
  checkDocument(document, sources);
  canonicalize(document);
  return { document, sources, files: files.sort(), sourceVersion: version, warnings };
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
    const oas = await import('@redocly/openapi-core/lib/bundle-oas');
    const entry = createRequire(import.meta.url).resolve('@redocly/openapi-core/lib/bundle-oas');
    const resolver = (await import(pathToFileURL(join(dirname(entry), '../resolve.js')).href).catch(() => ({}))) as { BaseResolver?: typeof BaseResolver };
    const Resolver = resolver.BaseResolver;
    if (Resolver !== undefined) {
      return { config: oas.createEmptyRedoclyConfig(), Resolver, bundle: oas.bundleOas as unknown as typeof BundleFn };
    }
  }
  const core = await import('@redocly/openapi-core');
  const config = existsSync(configPath) ? await core.loadConfig({ configPath }) : await core.createConfig({});
  return { config, Resolver: core.BaseResolver, bundle: core.bundle };
}

function syntaxOrReadError(sources: SourceMap, absolute: string, error: unknown): SpecError {
  const syntax = sources.syntaxError(absolute);
  const file = sources.relativePath(absolute);
  if (syntax) return new SpecError(file, syntax.line, `YAML syntax error: ${syntax.message}`);
  return new SpecError(file, undefined, error instanceof Error ? error.message : String(error));
}

function reportProblems(sources: SourceMap, problems: BundlerProblem[]): void {
  for (const problem of problems) {
    if (problem.severity !== 'error') continue;
    const location = problem.location[0];
    if (!location) throw new SpecError('?', undefined, problem.message);
    const absolute = location.source.absoluteRef;
    const syntax = sources.syntaxError(absolute);
    if (syntax) throw new SpecError(sources.relativePath(absolute), syntax.line, `YAML syntax error: ${syntax.message}`);

    const path = pointerPath(location.pointer ?? '#');
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
      throw new SpecError(at.file, at.line, `cannot resolve $ref \`${String(ref)}\``);
    }
    const at = sources.locatePath(absolute, path);
    throw new SpecError(at.file, at.line, problem.message);
  }
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
