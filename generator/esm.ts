/**
 * Dynamic `import()` and ES module resolution for the rest of the generator:
 * a user's config file, packages loaded on first use (Redocly's bundler,
 * markdown-it, Fastify) and modules compiled at run time (the mock, the
 * conformance run's validators).
 *
 * The `teamchat` command runs the generator as one CommonJS bundle loaded
 * through the V8 code cache (dist/cli.cjs, scripts/bundle-cli.ts; decision
 * 0038). On Node 20, code compiled from a code cache cannot run `import()`,
 * and a CommonJS module has no `import.meta.resolve`. This module is kept
 * out of the bundle and loaded as the ES module it is, so both work as in
 * any module. Specifiers are URLs or package names, resolved from here (a
 * package name finds the same `node_modules` as from any generator module).
 */

/** `import(specifier)`: a `file:` URL or a package name. */
export function importModule<T>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>;
}

/** The URL `import(specifier)` would load, as ES module resolution finds it. */
export function resolveModule(specifier: string): string {
  return import.meta.resolve(specifier);
}
