/**
 * The intermediate model: what every target reads. Built once from the
 * bundled OpenAPI document by `generator/model/build.ts`; targets never see
 * YAML or OpenAPI objects. Everything here is plain data, sorted
 * deterministically, with identifiers already derived and made safe.
 */

export interface ApiModel {
  title: string;
  version: string;
  description: string;
  /** Path prefix of every operation, from the first server URL (e.g. `/api/v1`). */
  basePath: string;
  /** Highest `x-feature-level` named anywhere in the document. */
  maxFeatureLevel: number;
  /** Sorted by path, then method. */
  operations: Operation[];
  /** Named schemas (components.schemas), sorted by name. */
  schemas: NamedSchema[];
  /** Every error code the document knows (schemas carrying `x-error-code`), sorted by code. */
  errors: ErrorCode[];
  tags: { name: string; description: string }[];
  unspecified: string[];
  /**
   * The bundled document (external refs turned into `#/components/...` refs,
   * keys in canonical order), only for targets that hand it to an OpenAPI
   * tool (the `types` target's openapi-typescript). Everything else reads the
   * records above. Optional so hand-built test models can leave it out.
   */
  openapi?: Record<string, unknown>;
  /** Non-fatal findings of loading and modelling (`file:line: message`): notes and degradations. */
  warnings?: string[];
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options' | 'trace';

/** Identifiers derived once from a spec name; emitters use these, never the raw name. */
export interface Names {
  /** camelCase, safe as a property or method name (`updateStream`). */
  camel: string;
  /** PascalCase, safe as a type name (`UpdateStream`). */
  pascal: string;
  /** File base name without extension (`update-stream`). */
  file: string;
}

export interface VersionNotes {
  featureLevel?: number;
  changes: Change[];
  deprecated: boolean;
  /** Each `x-unspecified` text that applies at this place. */
  unspecified: string[];
}

export interface Change {
  level: number;
  change: string;
}

export interface Operation extends VersionNotes {
  /**
   * The spec's `operationId`; for an operation without one, a name derived
   * from the method and path (`get /pets/{petId}` gives `get-pets-by-pet-id`),
   * unique among the document's operations.
   */
  id: string;
  names: Names;
  method: HttpMethod;
  /** Path relative to `basePath`, with `{param}` placeholders (`/streams/{stream_id}`). */
  path: string;
  summary: string;
  description: string;
  tags: string[];
  /** Whether HTTP Basic credentials are required. */
  auth: boolean;
  /** Path parameters first (in path order), then the rest in spec order. */
  parameters: Parameter[];
  /** How non-path parameters travel. */
  body: 'none' | 'form' | 'multipart';
  /** Success response (status 200). */
  success: ResponseModel;
  /** Error responses by status, each listing its possible error codes. */
  errors: OperationError[];
  /** Named request examples: parameter name to value (as the client would pass it). */
  requestExamples: Example[];
  source: SourceLocation;
}

export type ParameterLocation = 'path' | 'query' | 'body';

/**
 * - `plain`: integer/number as decimal text, boolean as `true`/`false`, string as is.
 * - `json`: JSON text in one field (arrays, objects, unions, nullable values).
 * - `file`: a file part of a multipart body.
 */
export type WireEncoding = 'plain' | 'json' | 'file';

export interface Parameter extends VersionNotes {
  /** Name on the wire. */
  name: string;
  /** Safe identifier for use as a property key in generated code (quoted if needed). */
  names: Names;
  location: ParameterLocation;
  encoding: WireEncoding;
  required: boolean;
  schema: Schema;
  default?: unknown;
  description: string;
  source: SourceLocation;
}

export interface ResponseModel {
  status: number;
  description: string;
  /** The full body schema, envelope fields included (allOf already merged). */
  schema: Schema;
  examples: Example[];
}

export interface OperationError {
  /** The status; 400 or 500 for a `4XX`/`5XX` range, 0 for `default`. */
  status: number;
  /** `4XX`, `5XX` or `default`, for a response not keyed by one status. */
  statusText?: string;
  description: string;
  /** Error codes this response may carry (each in `ApiModel.errors`). */
  codes: string[];
  examples: Example[];
}

export interface ErrorCode {
  code: string;
  status: number;
  /** Name of the component schema describing it. */
  schemaName: string;
  description: string;
  /** Fields beyond result/msg/code. */
  extraFields: Property[];
}

export interface Example {
  name: string;
  summary: string;
  value: unknown;
}

export interface NamedSchema {
  /** Component name as in the document (`Message`). */
  name: string;
  names: Names;
  schema: Schema;
}

export interface SourceLocation {
  /** Path of the spec file, relative to the project root. */
  file: string;
  /** 1-based line, when known. */
  line?: number;
}

/** Fields every schema node may carry. */
interface SchemaBase extends Partial<VersionNotes> {
  description?: string;
  title?: string;
  /** Set when this node came from `$ref` to a named schema. */
  refName?: string;
  examples?: unknown[];
  /** Annotations: sent only by the server (`readOnly`) or only by clients (`writeOnly`). */
  readOnly?: boolean;
  writeOnly?: boolean;
  /**
   * Further schemas the value must match as well: `allOf` members that could
   * not be merged into this node (a union beside an object, a recursive
   * reference, a second pattern), checked after the node's own keywords.
   */
  allOf?: Schema[];
  /** A schema the value must not match. */
  not?: Schema;
}

export type Schema =
  | StringSchema
  | IntegerSchema
  | NumberSchema
  | BooleanSchema
  | NullSchema
  | ArraySchema
  | ObjectSchema
  | UnionSchema
  | RefSchema
  | AnySchema
  | NeverSchema;

export interface StringSchema extends SchemaBase {
  kind: 'string';
  enum?: string[];
  const?: string;
  /** Length limits count Unicode code points. */
  minLength?: number;
  maxLength?: number;
  /** An ECMA-262 pattern that compiles (see `patternFlags` in model/schema.ts for its flags). */
  pattern?: string;
  /** An annotation; validators check the cheap standard ones (docs/decisions/0009-schema-model.md). */
  format?: string;
}

interface NumericBase extends SchemaBase {
  enum?: number[];
  const?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  /** Positive; a value is valid when `value / multipleOf` is an integer. */
  multipleOf?: number;
  format?: string;
}

export interface IntegerSchema extends NumericBase {
  kind: 'integer';
}

export interface NumberSchema extends NumericBase {
  kind: 'number';
}

export interface BooleanSchema extends SchemaBase {
  kind: 'boolean';
  const?: boolean;
}

export interface NullSchema extends SchemaBase {
  kind: 'null';
}

export interface ArraySchema extends SchemaBase {
  kind: 'array';
  /** Element schema; for a tuple, the schema of elements after `prefixItems` (absent: none allowed). */
  items?: Schema;
  /** Tuple positions (`prefixItems`). */
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  /** At least `minContains` (default 1) and at most `maxContains` elements match `contains`. */
  contains?: Schema;
  minContains?: number;
  maxContains?: number;
}

export interface Property {
  name: string;
  names: Names;
  required: boolean;
  schema: Schema;
}

export interface ObjectSchema extends SchemaBase {
  kind: 'object';
  properties: Property[];
  /**
   * `true`: any extra keys allowed (the default for response records);
   * `false`: none; a schema: values of extra keys (maps keyed by ID or email).
   * "Extra" means neither listed in `properties` nor matched by
   * `patternProperties`. After `allOf` merging, the listed properties are
   * those of every member (docs/decisions/0009-schema-model.md).
   */
  additionalProperties: boolean | Schema;
  /** Values of keys matching a pattern (each an ECMA-262 pattern that compiles). */
  patternProperties?: { pattern: string; schema: Schema }[];
  /** `propertyNames` constraint for maps when it is only a pattern (e.g. digit-only keys). */
  propertyNamesPattern?: string;
  /** `propertyNames` when it is more than a pattern: a schema every key (a string) must match. */
  propertyNames?: Schema;
  minProperties?: number;
  maxProperties?: number;
}

export interface UnionSchema extends SchemaBase {
  kind: 'union';
  variants: Schema[];
  /** `oneOf`: exactly one variant matches; otherwise (`anyOf`, a list of types) at least one. */
  exclusive?: boolean;
  /**
   * With a discriminator: the property, and a map from each of its values to
   * the name of the variant's named schema. Written in the document, or found
   * by the model when every variant pins one required property to distinct
   * constants (`implicit`).
   */
  discriminator?: { propertyName: string; mapping: Record<string, string>; implicit?: boolean };
}

/** A reference to a named schema, kept so emitters can reuse one function/type per name. */
export interface RefSchema extends SchemaBase {
  kind: 'ref';
  name: string;
}

/** Any JSON value, optionally limited to a list of values of any type (`enum`, `const`: deep equality). */
export interface AnySchema extends SchemaBase {
  kind: 'any';
  enum?: unknown[];
  const?: unknown;
}

/** No value at all: the `false` schema, or constraints nothing satisfies. */
export interface NeverSchema extends SchemaBase {
  kind: 'never';
}
