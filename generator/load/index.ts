/**
 * Load: read the spec's files, bundle them into one document with
 * @redocly/openapi-core (external `$ref`s become `#/components/...` refs),
 * put keys in canonical order, and stop with a `SpecError` naming file and
 * line on anything malformed.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BaseResolver, bundle, createConfig, loadConfig, type Config } from '@redocly/openapi-core';
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

  const config = await bundlerConfig(root);
  const resolver = new BaseResolver(config.resolve);
  let result: Awaited<ReturnType<typeof bundle>>;
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

async function bundlerConfig(root: string): Promise<Config> {
  const configPath = join(root, 'redocly.yaml');
  return existsSync(configPath) ? loadConfig({ configPath }) : createConfig({});
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
