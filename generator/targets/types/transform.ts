/**
 * openapi-typescript's declarations of a bundled document, without its
 * `openapiTS()` entry: that one loads Redocly v1 to lint and bundle the
 * document again, which our loader has done (every `$ref` is internal), and
 * is most of the `types` target's cold cost. The context below is the one
 * `openapiTS()` builds from the same options (openapi-typescript 7.x); the
 * test `test/generator/targets/types/transform.test.ts` checks both give the same text.
 */
import type { GlobalContext, OpenAPI3, OpenAPITSOptions } from 'openapi-typescript';
import { openapiTypescriptTransform } from '../../cjs.js';

export type TransformOptions = Pick<OpenAPITSOptions, 'defaultNonNullable' | 'readWriteMarkers'>;

/** The declarations as text, as `astToString(await openapiTS(document, { silent: true, ...options }))` gives them. */
export function declarations(document: OpenAPI3, options: TransformOptions): string {
  const { transformSchema, scanDiscriminators, resolveRef, astToString } = openapiTypescriptTransform();
  const ctx: GlobalContext = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: options.defaultNonNullable ?? true,
    discriminators: scanDiscriminators(document, { silent: true, ...options }),
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
  return astToString(transformSchema(document, ctx));
}
