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

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

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
  /** The spec's `operationId`, kebab-case. */
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
  status: number;
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
  /** Set when this node came from `$ref` to a named schema. */
  refName?: string;
  examples?: unknown[];
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
  | AnySchema;

export interface StringSchema extends SchemaBase {
  kind: 'string';
  enum?: string[];
  const?: string;
  /** Length limits count Unicode code points. */
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

export interface IntegerSchema extends SchemaBase {
  kind: 'integer';
  enum?: number[];
  const?: number;
  minimum?: number;
  maximum?: number;
}

export interface NumberSchema extends SchemaBase {
  kind: 'number';
  minimum?: number;
  maximum?: number;
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
   */
  additionalProperties: boolean | Schema;
  /** `propertyNames` constraint for maps (e.g. digit-only keys). */
  propertyNamesPattern?: string;
}

export interface UnionSchema extends SchemaBase {
  kind: 'union';
  variants: Schema[];
  /**
   * For `oneOf` with a discriminator: the property, and a map from each of its
   * values to the name of the variant's named schema.
   */
  discriminator?: { propertyName: string; mapping: Record<string, string> };
}

/** A reference to a named schema, kept so emitters can reuse one function/type per name. */
export interface RefSchema extends SchemaBase {
  kind: 'ref';
  name: string;
}

export interface AnySchema extends SchemaBase {
  kind: 'any';
}
