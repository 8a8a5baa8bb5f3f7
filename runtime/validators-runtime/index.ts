/**
 * The validators' runtime, as the generated `validators.ts` imports it:
 * `request.ts` (the request a decoder reads, its files, names it does not
 * take), `decoded.ts` (a decoder's result and its BAD_REQUEST errors),
 * `fields.ts` (form fields and exploded objects), `styles.ts` (text split by
 * parameter style), `deep-object.ts` (bracket fields), `scalars.ts`
 * (scalars from text), `json.ts` and `json-reader.ts` (JSON text read by
 * hand, by a generated reader or by JSON.parse), `strings.ts` (string
 * lengths), `failures.ts` (failure records and issues), `responses.ts` and
 * `headers.ts` (responses by status and media type), `media-types.ts` and
 * `standard-schema.ts`. No dependencies: it runs wherever the generated
 * client or server runs, and no module keeps state of its own.
 */
export { invalid, invalidFrom, invalidJson, invalidStyle, missing, repeated, unsupportedMediaType, wrongBodyShape, wrongFileCount } from './decoded.js';
export type { Decoded, DecodeError } from './decoded.js';
export { DEEP_CONFLICT, deepListFields, deepObjectFields, deepShape, deepTree, deepValue } from './deep-object.js';
export type { DeepShape, DeepTree } from './deep-object.js';
export { keySegment, prefixFailures, pushFailure, pushMissing, pushUnknownKeys, pushWrongType, validateWith } from './failures.js';
export type { CheckFunction, Failure, Issue, ValidateOptions } from './failures.js';
export { decodeFields, explodedFields, otherFields, ownField } from './fields.js';
export { checkResponseHeaders } from './headers.js';
export type { HeaderCheck, HeaderTable, HeadersLike } from './headers.js';
export {
  JSON_MISS,
  JsonCursor,
  jsonField,
  jsonKind,
  jsonMember,
  jsonNext,
  jsonOpen,
  readJsonInteger,
  readJsonIntegers,
  readJsonString,
  readJsonValue,
} from './json-reader.js';
export type { JsonReader } from './json-reader.js';
export { INVALID_JSON, parseJson, repeatedJson } from './json.js';
export { matchMediaType, mediaTypeOf } from './media-types.js';
export { fileList, singleFile, unsupportedFields, unsupportedParameters } from './request.js';
export type { DecodedFile, RawRequest } from './request.js';
export { checkResponse, responseValidatorTables, selectResponse } from './responses.js';
export type { ResponseCheck, ResponseTable } from './responses.js';
export {
  parseInteger,
  parseNumber,
  parseScalar,
  repeatedElements,
  SCALAR_BOOLEAN,
  SCALAR_INTEGER,
  SCALAR_NULL,
  SCALAR_NUMBER,
  SCALAR_STRING,
  scalarList,
} from './scalars.js';
export { checkSchema, decoderSchema, pathKeys, STANDARD_VENDOR } from './standard-schema.js';
export type { StandardSchemaV1, StandardSchemaV1Issue, StandardSchemaV1Props, StandardSchemaV1Result } from './standard-schema.js';
export { codePointLength } from './strings.js';
export { assignedFields, headerList, labelList, labelValue, matrixAssignments, matrixList, matrixValue, pairFields, splitText } from './styles.js';
