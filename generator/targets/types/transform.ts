/**
 * openapi-typescript's declarations of a bundled document, without its
 * `openapiTS()` entry: that one loads Redocly v1 to lint and bundle the
 * document again, which our loader has done (every `$ref` is internal), and
 * is most of the `types` target's cold cost. The context below is the one
 * `openapiTS()` builds from the same options (openapi-typescript 7.x); the
 * test `test/generator/targets/types/transform.test.ts` checks both give the same text.
 */
import type { GlobalContext, OpenAPI3, OpenAPITSOptions } from 'openapi-typescript';
import { openapiTypescriptTransform, typescript } from '../../cjs.js';
import { withFastRefs } from './pointers.js';
import { printDeclarations } from './print.js';

export type TransformOptions = Pick<OpenAPITSOptions, 'defaultNonNullable' | 'readWriteMarkers'>;

/** The declarations as text, as `astToString(await openapiTS(document, { silent: true, ...options }))` gives them. */
export function declarations(document: OpenAPI3, options: TransformOptions): string {
  const { astToString } = openapiTypescriptTransform();
  return printDeclarations(typescript(), declarationNodes(document, options), (node) => astToString([node]));
}

/** The syntax nodes of the declarations, as openapi-typescript's transform makes them. */
export function declarationNodes(document: OpenAPI3, options: TransformOptions): ReturnType<ReturnType<typeof openapiTypescriptTransform>['transformSchema']> {
  const { transformSchema, scanDiscriminators, resolveRef, utils, refUtils } = openapiTypescriptTransform();
  const ctx: GlobalContext = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: options.defaultNonNullable ?? true,
    discriminators: hasDiscriminator(document) ? scanDiscriminators(document, { silent: true, ...options }) : { objects: {}, refsHandled: [] },
    emptyObjectsUnknown: false,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    // Read only by openapiTS() itself, never by the transform.
    redoc: undefined as unknown as GlobalContext['redoc'],
    silent: true,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: options.readWriteMarkers ?? false,
    resolve: ($ref) => resolveRef(document, $ref, { silent: true }),
  };
  return withFastRefs(utils, refUtils, () => transformSchema(document, ctx));
}

/**
 * Whether any object of the document, data included, has a `discriminator`
 * with a `propertyName`: without one, `scanDiscriminators` finds nothing and
 * changes nothing, so it is skipped. The scan walks the whole document
 * twice and copies the path array at every node, a share of the transform
 * that grows with the document; this walk allocates nothing. Documents that
 * do have one are scanned as before.
 */
export function hasDiscriminator(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) if (hasDiscriminator(node[i])) return true;
    return false;
  }
  const record = node as Record<string, unknown>;
  const discriminator = record.discriminator as { propertyName?: unknown } | null | undefined;
  if (discriminator?.propertyName) return true;
  for (const key in record) {
    const value = record[key];
    // Text, numbers and flags hold nothing: no call for them.
    if (value !== null && typeof value === 'object' && hasDiscriminator(value)) return true;
  }
  return false;
}
