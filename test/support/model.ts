/**
 * Builders of `ApiModel` records for tests that feed targets directly (no
 * YAML): schemas, parameters, responses, operations, error codes and the
 * model around them. Each builder fills what a hand-built record must have
 * with the plainest value; a test states anything it depends on.
 */
import type {
  ApiModel,
  ArraySchema,
  ErrorCode,
  Example,
  HttpMethod,
  IntegerSchema,
  Names,
  ObjectSchema,
  Operation,
  OperationError,
  Parameter,
  Property,
  ResponseContent,
  ResponseModel,
  Schema,
  StringSchema,
  UnionSchema,
} from '../../generator/model/types.js';

const source = { file: 'spec/test.yaml' };

/** Names as the model derives them from a spec name: `message_id` -> `messageId`, `MessageId`, `message-id`. */
export function names(raw: string): Names {
  const found = raw.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const words = found.length === 0 ? ['unnamed'] : found;
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  const pascal = /^[0-9]/.test(joined) ? `N${joined}` : joined;
  return { camel: pascal[0]!.toLowerCase() + pascal.slice(1), pascal, file: words.join('-').toLowerCase() };
}

export const str = (extra: Omit<StringSchema, 'kind'> = {}): StringSchema => ({ kind: 'string', ...extra });
export const int = (extra: Omit<IntegerSchema, 'kind'> = {}): IntegerSchema => ({ kind: 'integer', ...extra });
export const num = (): Schema => ({ kind: 'number' });
export const bool = (): Schema => ({ kind: 'boolean' });
export const nul = (): Schema => ({ kind: 'null' });
export const any = (): Schema => ({ kind: 'any' });
export const ref = (name: string): Schema => ({ kind: 'ref', name });
export const arr = (items: Schema | undefined, extra: Omit<ArraySchema, 'kind' | 'items'> = {}): ArraySchema => ({
  kind: 'array',
  ...(items === undefined ? {} : { items }),
  ...extra,
});
export const union = (...variants: Schema[]): UnionSchema => ({ kind: 'union', variants });
export const nullable = (schema: Schema): UnionSchema => union(schema, nul());

/** A property of an object schema or an error's extra field. */
export function property(name: string, schema: Schema, required = false): Property {
  return { name, names: names(name), required, schema };
}

/** `required` lists the required property names; everything else is optional. Additional properties are allowed unless `extra` says otherwise. */
export function obj(
  properties: Record<string, Schema>,
  required: string[] = [],
  extra: Partial<Omit<ObjectSchema, 'kind' | 'properties'>> = {},
): ObjectSchema {
  const list = Object.entries(properties).map(([name, schema]) => property(name, schema, required.includes(name)));
  return { kind: 'object', properties: list, additionalProperties: true, ...extra };
}

export interface ParamOptions {
  /** Default `body`. */
  location?: Parameter['location'];
  /** Default `plain`. */
  encoding?: Parameter['encoding'];
  required?: boolean;
  default?: unknown;
}

export function param(name: string, schema: Schema, options: ParamOptions = {}): Parameter {
  return {
    name,
    names: names(name),
    location: options.location ?? 'body',
    encoding: options.encoding ?? 'plain',
    required: options.required ?? false,
    schema,
    ...(options.default === undefined ? {} : { default: options.default }),
    description: '',
    source,
    changes: [],
    deprecated: false,
    unspecified: [],
  };
}

/** A JSON body of `schema` with these examples. */
export function jsonContent(schema: Schema, examples: Example[] = [], mediaType = 'application/json'): ResponseContent {
  return { mediaType, kind: 'json', schema, examples };
}

export interface ResponseOptions {
  description?: string;
  examples?: Example[];
  /** Default: one `application/json` body of the response's schema and examples. */
  contents?: ResponseContent[];
  headers?: ResponseModel['headers'];
}

export function response(status: number, schema: Schema, options: ResponseOptions = {}): ResponseModel {
  const examples = options.examples ?? [];
  return {
    status,
    description: options.description ?? '',
    schema,
    examples,
    contents: options.contents ?? [jsonContent(schema, examples)],
    headers: options.headers ?? [],
  };
}

/** An error response of an operation; `schema` undefined for one without a body. */
export function failure(status: number, schema: Schema | undefined, statusText?: string): OperationError {
  return {
    status,
    ...(statusText !== undefined && { statusText }),
    description: '',
    codes: [],
    examples: [],
    contents: schema === undefined ? [] : [jsonContent(schema)],
    headers: [],
  };
}

/** An error code of the model, its schema named after the code. */
export function errorCode(code: string, status: number, extraFields: Property[] = [], schemaName = code): ErrorCode {
  return { code, status, schemaName, description: '', extraFields };
}

/** An open object, what a success without a stated schema carries. */
export const anyObject = (): ObjectSchema => ({ kind: 'object', properties: [], additionalProperties: true });

/**
 * An operation with Basic authentication under `/api/v1`: a form body
 * unless it is a GET, a 200 answer of an open JSON object unless `extra`
 * gives `success`. `successes` defaults to `[success]`; without
 * authentication the operation has no security requirement, as the model
 * builds it.
 */
export function operation(id: string, method: HttpMethod, path: string, parameters: Parameter[], extra: Partial<Operation> = {}): Operation {
  const success = extra.success ?? response(200, anyObject());
  const auth = extra.auth ?? true;
  return {
    id,
    names: names(id),
    method,
    path,
    summary: id,
    description: '',
    tags: [],
    basePath: '/api/v1',
    parameters,
    body: method === 'get' ? 'none' : 'form',
    errors: [],
    requestExamples: [],
    source,
    changes: [],
    deprecated: false,
    unspecified: [],
    ...extra,
    auth,
    security: extra.security ?? (auth ? [['basicAuth']] : []),
    success,
    successes: extra.successes ?? [success],
  };
}

/** A model around `extra`: no operations, schemas or errors unless given, every convention of ours on. */
export function apiModel(extra: Partial<ApiModel> = {}): ApiModel {
  return {
    title: 'Test API',
    version: '1.0.0',
    description: '',
    basePath: '/api/v1',
    maxFeatureLevel: 1,
    operations: [],
    schemas: [],
    errors: [],
    tags: [],
    securitySchemes: [],
    conventions: { successEnvelope: true, bodyCodedErrors: true, featureLevels: true },
    unspecified: [],
    ...extra,
  };
}
