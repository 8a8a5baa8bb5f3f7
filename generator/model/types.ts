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
  /** `components.securitySchemes`, sorted by name. */
  securitySchemes: SecuritySchemeModel[];
  /** Which of this project's own conventions the document declares (each target applies only those). */
  conventions: Conventions;
}

/**
 * Conventions of our own API that a document opts into by declaring them;
 * a document that does not is served and called as plain OpenAPI.
 */
export interface Conventions {
  /**
   * Success bodies carry `result: "success"` and `msg`, added by the server
   * bindings (handlers return the rest), and unknown parameters are reported
   * in `ignored_parameters_unsupported`. True when every JSON success body
   * requires `result` and `msg`.
   */
  successEnvelope: boolean;
  /** Errors are typed by the body's `code` (schemas with `x-error-code`): `ApiModel.errors` is not empty. */
  bodyCodedErrors: boolean;
  /** The document names feature levels (`x-feature-level`/`x-changes`): `maxFeatureLevel > 0`. */
  featureLevels: boolean;
}

/** One entry of `components.securitySchemes`. */
export interface SecuritySchemeModel {
  /** Key in `components.securitySchemes`. */
  name: string;
  names: Names;
  description: string;
  /**
   * - `basic`, `bearer`: HTTP `Authorization: Basic|Bearer ...`;
   * - `apiKey`: a key sent in the header, query parameter or cookie `parameterName`;
   * - `oauth2`, `openIdConnect`: a token sent as `Authorization: Bearer ...`;
   * - `http`: another HTTP scheme (`scheme`), sent as `Authorization: <scheme> <credentials>`;
   * - `mutualTLS`: nothing at the HTTP level (the client's TLS set-up).
   */
  kind: 'basic' | 'bearer' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'http' | 'mutualTLS';
  /** `apiKey`: where the key travels. */
  in?: 'header' | 'query' | 'cookie';
  /** `apiKey`: the header, query parameter or cookie name. */
  parameterName?: string;
  /** `http`: the scheme word as written (`Digest`); `basic`/`bearer` have none. */
  scheme?: string;
  /** `bearer`: the `bearerFormat` hint. */
  bearerFormat?: string;
  source: SourceLocation;
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
  /**
   * Component schemas only: the named type `types.ts` exports for the schema
   * (`export type Message = ...`). `pascal`, unless another name of that
   * module has it (`schemaTypeNames` in `names.ts`).
   */
  type?: string;
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
  /** Whether every alternative of `security` needs a credential (none is empty). */
  auth: boolean;
  /**
   * The security requirement in force (the operation's own, else the
   * document's): alternatives (any one suffices), each the names of the
   * schemes (`ApiModel.securitySchemes`) that must all be sent. `[]`: no
   * credentials. An empty alternative (`[[], ["key"]]`) makes them optional.
   */
  security: string[][];
  /**
   * The path prefix for this operation: from its own or its path item's
   * `servers` when it has them, else `ApiModel.basePath`.
   */
  basePath: string;
  /**
   * Absolute URLs (variables replaced by their defaults) of the operation's
   * own or path item's `servers`, when they differ from the document's;
   * absent otherwise. A client sends this operation there.
   */
  servers?: string[];
  /** Path parameters first (in path order), then the rest in spec order. */
  parameters: Parameter[];
  /**
   * How the request body travels: `none`, or the kind of the body's first
   * media type (see `requestBody`).
   */
  body: 'none' | BodyKind;
  /** The request body, when the operation has one. */
  requestBody?: RequestBodyModel;
  /** The primary success response: the lowest 2xx (else 1xx/3xx, else `default`). */
  success: ResponseModel;
  /** Every non-error response (1xx, 2xx, 3xx, a `2XX` range), by status; `success` is among them. */
  successes: ResponseModel[];
  /** Error responses by status, each listing its possible error codes. */
  errors: OperationError[];
  /** Named request examples: parameter name to value (as the client would pass it). */
  requestExamples: Example[];
  source: SourceLocation;
}

/** `body`: a field of a form or multipart body whose fields are the operation's parameters (`RequestBodyModel.mode` `fields`). */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie' | 'body';

/**
 * - `plain`: integer/number as decimal text, boolean as `true`/`false`, string
 *   as is; arrays and objects of those spread by `style`/`explode`.
 * - `json`: JSON text in one field (`content: application/json`, or a form
 *   field with that encoding).
 * - `file`: a file part of a multipart body.
 */
export type WireEncoding = 'plain' | 'json' | 'file';

/**
 * How a `plain` parameter's value is written (OpenAPI `style`): path
 * `simple`/`label`/`matrix`, query `form`/`spaceDelimited`/`pipeDelimited`/
 * `deepObject`, header `simple`, cookie `form`.
 */
export type ParameterStyle = 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

/**
 * How a request body or response body is written:
 * - `form`: `application/x-www-form-urlencoded`;
 * - `multipart`: `multipart/form-data` (and other `multipart/*`);
 * - `json`: `application/json` and any `+json` or `json` media type;
 * - `text`: `text/*` and other textual types, as a string;
 * - `binary`: anything else (`application/octet-stream`, `image/png`, `*\/*`), as bytes.
 */
export type BodyKind = 'form' | 'multipart' | 'json' | 'text' | 'binary';

export interface RequestBodyModel {
  required: boolean;
  description: string;
  /**
   * `fields`: every media type is form or multipart with an object schema,
   * and its properties are operation parameters (location `body`), as in our
   * own document. `whole`: the body is one value, passed as the parameter
   * named `parameterName`.
   */
  mode: 'fields' | 'whole';
  /** `whole` mode: the key of the body in the operation's params (`body`, or `requestBody` when a parameter is named `body`). */
  parameterName?: string;
  /** Each media type, in document order. The client sends the first unless told otherwise; the server accepts each. */
  contents: BodyContent[];
  source: SourceLocation;
}

export interface BodyContent {
  /** As written, lower-cased (`application/json`, `application/merge-patch+json`, `text/csv`, `image/*`). */
  mediaType: string;
  /** The key as written in the document, when it differs from `mediaType` (the types target's `content` keys). */
  written?: string;
  kind: BodyKind;
  /** The body's schema (`{kind: 'any'}` when the document gives none). */
  schema: Schema;
  examples: Example[];
  /** Multipart: per-property `encoding.contentType`, when written. */
  partContentTypes?: Record<string, string>;
  /**
   * A form or multipart media type with an object schema in a `whole` body
   * (beside other media types): its properties as they travel, by the
   * Encoding Object, as `fields` mode's parameters would (location `body`).
   */
  fields?: Parameter[];
}

export interface Parameter extends VersionNotes {
  /** Name on the wire. */
  name: string;
  /**
   * Key in the operation's params object when it is not `name`: set only
   * when another parameter of the operation has the same name (a query `id`
   * and a header `id`), to `<location>_<name>` (numbered if that is taken).
   */
  key?: string;
  /** Safe identifier for use as a property key in generated code (quoted if needed). */
  names: Names;
  location: ParameterLocation;
  encoding: WireEncoding;
  required: boolean;
  schema: Schema;
  default?: unknown;
  /** `plain` path, query, header and cookie parameters: the style in force (written, or the location's default). */
  style?: ParameterStyle;
  /**
   * With `style`: whether arrays and objects spread into several fields
   * (written, or true for `form`, else false). On a `json` multipart field
   * (a list of objects): one JSON part per element.
   */
  explode?: boolean;
  /** Query and form fields: whether reserved characters are sent without percent-encoding. */
  allowReserved?: boolean;
  description: string;
  source: SourceLocation;
}

export interface ResponseModel {
  /** The status; 200 for a `2XX` range, 0 for `default`. */
  status: number;
  /** `2XX` or `default`, for a response not keyed by one status. */
  statusText?: string;
  description: string;
  /**
   * The schema of the first JSON body (envelope fields included, allOf
   * merged); `{kind: 'any'}` when the response has no JSON body. Targets
   * that handle every media type read `contents`.
   */
  schema: Schema;
  /** Each media type of the body, in document order; empty when the response has no body. */
  contents: ResponseContent[];
  /** Response headers, in document order. */
  headers: ResponseHeader[];
  /** Examples of the first JSON body. */
  examples: Example[];
  /**
   * The success of an operation that declares none (only error responses):
   * not in the document; status 204, no body, no headers.
   */
  synthetic?: true;
}

export interface ResponseContent {
  /** As written, lower-cased. */
  mediaType: string;
  /** The key as written in the document, when it differs from `mediaType` (the types target's `content` keys). */
  written?: string;
  kind: Exclude<BodyKind, 'form' | 'multipart'>;
  schema: Schema;
  examples: Example[];
}

export interface ResponseHeader extends VersionNotes {
  /** As written in the document (compare case-insensitively). */
  name: string;
  names: Names;
  required: boolean;
  schema: Schema;
  description: string;
  source: SourceLocation;
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
  /** Each media type of the body, in document order; empty when the error response has no body. */
  contents: ResponseContent[];
  headers: ResponseHeader[];
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
  /** Where the document names it (optional so hand-built test models can leave it out). */
  source?: SourceLocation;
}

export interface SourceLocation {
  /** Path of the spec file, relative to the project root. */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** 1-based column, only for a file written on one line (minified JSON), where the line alone says nothing. */
  column?: number;
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
  /**
   * `type` was not written but inferred from the keywords (`properties`
   * means an object): types and docs read it as that type, validators let
   * values of other types through, as JSON Schema does. An `allOf` merge
   * with a written type drops it.
   */
  implied?: true;
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
