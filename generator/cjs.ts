/**
 * Large CommonJS packages, loaded with require(). Through `import`, Node's
 * ESM loader parses such a file whole twice before running it (module-format
 * detection, then the export-name lexer): about 0.4 s of a cold `generate`
 * for TypeScript's 9 MB. Each function loads its package on first call.
 */
import { createRequire } from 'node:module';
import { requireCached } from './code-cache.js';

const require = createRequire(import.meta.url);

/** TypeScript, through a V8 code cache (code-cache.ts): what openapi-typescript and ours then require is that instance. */
export const typescript = (): typeof import('typescript') => requireCached(require, 'typescript') as typeof import('typescript');
export const tsMorph = (): typeof import('ts-morph') => require('ts-morph') as typeof import('ts-morph');
export const openapiTypescript = (): typeof import('openapi-typescript') => require('openapi-typescript') as typeof import('openapi-typescript');

type OpenapiTypescript = typeof import('openapi-typescript');

/**
 * openapi-typescript's transform alone, through the package's public `./*`
 * subpaths. Its `openapiTS()` entry loads its own Redocly (v1), lints and
 * bundles the document again: about a quarter of a cold `generate` for a
 * document our loader has bundled already (targets/types/transform.ts).
 */
export const openapiTypescriptTransform = () => (typescript(), {
  transformSchema: require('openapi-typescript/dist/transform/index.cjs') as OpenapiTypescript['transformSchema'],
  ...(require('openapi-typescript/dist/lib/utils.cjs') as Pick<OpenapiTypescript, 'scanDiscriminators' | 'resolveRef'>),
  astToString: (require('openapi-typescript/dist/lib/ts.cjs') as Pick<OpenapiTypescript, 'astToString'>).astToString,
  /** The module object the transform modules read `createRef` from (targets/types/pointers.ts). */
  utils: require('openapi-typescript/dist/lib/utils.cjs') as { createRef: unknown },
  /** The Redocly ref helpers openapi-typescript itself requires (its own copy of @redocly/openapi-core). */
  refUtils: createRequire(require.resolve('openapi-typescript/dist/lib/utils.cjs'))('@redocly/openapi-core/lib/ref-utils.js') as {
    parseRef(ref: string): { pointer: string[] };
    escapePointer<T extends string | number>(fragment: T): T;
  },
});
