import type { ApiModel, HttpMethod, Operation, Parameter, Schema } from '../../model/types.js';
import { exampleLiteral, quote } from './examples.js';

/** Fastify ends a `:param` at characters other than these, so path parameter names must stay within them. */
const FASTIFY_PARAM = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface OperationView {
  camel: string;
  pascal: string;
  file: string;
  operationId: string;
  /** Upper case, as Fastify and the `Allow` header spell it. */
  method: Uppercase<HttpMethod>;
  /** Spec path relative to the base path, `{param}` syntax. */
  specPath: string;
  /** Full Fastify path, base path included, `:param` syntax. */
  fastifyPath: string;
  auth: boolean;
  /** Wire name of the file parameter, when the operation takes an upload. */
  fileParameter?: string;
  /** One-line doc text, safe inside a block comment. */
  doc: string;
  /** Parameter lines for the handler's doc comment, safe inside a block comment. */
  parameterDocs: string[];
  deprecated: boolean;
  /** TypeScript expression of the first success example minus the envelope, indented by `indent`; undefined without example. */
  example(indent: string): string | undefined;
  /** Each value printed as a TypeScript string literal. */
  literals: { operationId: string; method: string; fastifyPath: string; fileParameter?: string };
}

export interface ErrorView {
  codeLiteral: string;
  status: number;
}

export interface ServerView {
  title: string;
  version: string;
  basePathLiteral: string;
  maxFeatureLevel: number;
  operations: OperationView[];
  errors: ErrorView[];
}

export function buildView(model: ApiModel): ServerView {
  return {
    title: model.title,
    version: model.version,
    basePathLiteral: literal(model.basePath),
    maxFeatureLevel: model.maxFeatureLevel,
    operations: model.operations.map((operation) => operationView(model.basePath, operation)),
    errors: model.errors.map((error) => ({ codeLiteral: literal(error.code), status: error.status })),
  };
}

function operationView(basePath: string, operation: Operation): OperationView {
  const fastifyPath = basePath + toFastifyPath(operation);
  const fileParameter = operation.parameters.find((parameter) => parameter.encoding === 'file')?.name;
  const method = operation.method.toUpperCase() as Uppercase<HttpMethod>;
  const literals: OperationView['literals'] = {
    operationId: literal(operation.id),
    method: literal(method),
    fastifyPath: literal(fastifyPath),
  };
  if (fileParameter !== undefined) literals.fileParameter = literal(fileParameter);
  const view: OperationView = {
    camel: operation.names.camel,
    pascal: operation.names.pascal,
    file: operation.names.file,
    operationId: operation.id,
    method,
    specPath: operation.path,
    fastifyPath,
    auth: operation.auth,
    doc: commentSafe(`${method} ${operation.path}: ${oneLine(operation.summary)}`),
    parameterDocs: operation.parameters.map(parameterDoc),
    deprecated: operation.deprecated,
    example: (indent) => exampleLiteral(operation.success.examples[0]?.value, indent),
    literals,
  };
  if (fileParameter !== undefined) view.fileParameter = fileParameter;
  return view;
}

/** `/streams/{stream_id}` to `/streams/:stream_id`. */
export function toFastifyPath(operation: Operation): string {
  return operation.path.replace(/\{([^}]*)\}/g, (_, name: string) => {
    if (!FASTIFY_PARAM.test(name)) {
      throw new Error(`server target: path parameter "${name}" of ${operation.id} is not usable as a Fastify route parameter`);
    }
    return `:${name}`;
  });
}

function parameterDoc(parameter: Parameter): string {
  const facts = [schemaLabel(parameter.schema), parameter.location, parameter.required ? 'required' : 'optional'];
  if (parameter.encoding === 'json') facts.push('JSON-encoded');
  if (parameter.deprecated) facts.push('deprecated');
  return commentSafe(`\`${parameter.name}\` (${facts.join(', ')})`);
}

function schemaLabel(schema: Schema): string {
  if (schema.refName !== undefined) return schema.refName;
  switch (schema.kind) {
    case 'ref':
      return schema.name;
    case 'array':
      return schema.items === undefined ? 'array' : `${schemaLabel(schema.items)}[]`;
    case 'union':
      return schema.variants.map(schemaLabel).join(' | ');
    case 'string':
      return schema.format === 'binary' ? 'file' : 'string';
    default:
      return schema.kind;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Text that can sit on one line of a block comment: no line breaks, no comment end. */
export function commentSafe(text: string): string {
  return oneLine(text).replaceAll('*/', '*\\/');
}

export function literal(value: string): string {
  return quote(value);
}
