import type { ApiModel, HttpMethod, Operation, OperationError, Parameter, ResponseModel, Schema, SecuritySchemeModel } from '../../model/types.js';
import { exampleLiteral, printValue, quote } from './examples.js';
import { sampleValue } from './samples.js';
import { hasReadWrite } from '../shared/read-write.js';

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
  /** Route fields beyond the classic ones, as TypeScript property lines (`security: [['basicAuth']],`). */
  routeExtras: string[];
  /** Type of the primary success body a handler returns. */
  resultType: string;
  /** `<Pascal>Responded` (the union of `Responded<status, body, headers>` over every declared response), or `never`. */
  responsesType: string;
  /** The members of `<Pascal>Responded`. */
  respondedLines: string[];
  /** The handler's user type: `User`, `User | undefined` (optional credentials) or `undefined`. */
  userType: string;
  /** The mock's answer: a TypeScript expression (`ctx` in scope), or undefined when nothing can be made. */
  mockAnswer(indent: string): string | undefined;
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
  /** `ApiSettings` of the document, as a TypeScript expression. */
  apiLiteral: string;
  /** The `Credential` union of the document's schemes. */
  credentialType: string;
  /** Names server.ts imports from server-runtime.js and types.js. */
  runtimeImports: string[];
  typeImports: string[];
  /** Whether a handler's type names the `User` type parameter of `Handlers` (else it is `_User`, as `noUnusedParameters` asks). */
  handlersUseUser: boolean;
}

export function buildView(model: ApiModel, errorFormat: string = 'undefined'): ServerView {
  const typed = model.openapi !== undefined;
  const readable = typed && hasReadWriteMarkers(model);
  const operations = model.operations.map((operation) => operationView(model, operation, typed, readable));
  return {
    title: model.title,
    version: model.version,
    basePathLiteral: literal(model.basePath),
    maxFeatureLevel: model.maxFeatureLevel,
    operations,
    errors: model.errors.map((error) => ({ codeLiteral: literal(error.code), status: error.status })),
    apiLiteral: apiLiteral(model, errorFormat),
    credentialType: credentialType(model),
    runtimeImports: runtimeImports(model, operations),
    typeImports: typeImports(model, operations),
    handlersUseUser: operations.some((operation) => operation.userType.includes('User')),
  };
}

function runtimeImports(model: ApiModel, operations: OperationView[]): string[] {
  const names = ['frameworkErrorsOf', ...(operations.length > 0 ? ['operation'] : []), 'registerOperations', 'type ApiSettings', ...(operations.length > 0 ? ['type Handler'] : [])];
  const kinds = new Set(securitySchemes(model).map((scheme) => scheme.kind));
  if (kinds.has('apiKey')) names.push('type ApiKeyCredential');
  if (kinds.has('basic')) names.push('type BasicCredential');
  if (usesLegacyResult(model)) names.push('type HandlerResult');
  if (kinds.has('http')) names.push('type HttpCredential');
  if (kinds.has('mutualTLS')) names.push('type MutualTlsCredential');
  names.push('type RegisterOptions as RuntimeRegisterOptions');
  if (operations.some((operation) => operation.responsesType !== 'never')) names.push('type Responded');
  names.push('type Route');
  if (kinds.has('bearer') || kinds.has('oauth2') || kinds.has('openIdConnect')) names.push('type TokenCredential');
  return names;
}

function typeImports(model: ApiModel, operations: OperationView[]): string[] {
  const all = [...operations.map((operation) => operation.resultType), ...operations.flatMap((operation) => operation.respondedLines)].join(' ');
  const names = ['ErrorBody', 'ErrorCode'];
  if (/\bpaths\[/.test(all)) names.push('paths');
  if (/\bReadable</.test(all)) names.push('Readable');
  for (const operation of operations) {
    names.push(`${operation.pascal}Params`);
    if (usesLegacyResult(model)) names.push(`${operation.pascal}Response`);
  }
  return names;
}

/** Under the success-envelope convention handlers return `HandlerResult<<Pascal>Response>`, as before. */
function usesLegacyResult(model: ApiModel): boolean {
  return model.conventions.successEnvelope;
}

function hasReadWriteMarkers(model: ApiModel): boolean {
  return model.openapi !== undefined && hasReadWrite(model.openapi);
}

/**
 * The document's security schemes, plus HTTP Basic for any name a
 * requirement uses without a declaration (a model built before schemes were
 * modelled named only `basicAuth`).
 */
function securitySchemes(model: ApiModel): SecuritySchemeModel[] {
  const declared = new Set(model.securitySchemes.map((scheme) => scheme.name));
  const extra: SecuritySchemeModel[] = [];
  for (const name of new Set(model.operations.flatMap((operation) => operation.security.flat()))) {
    if (declared.has(name)) continue;
    extra.push({ name, names: { camel: name, pascal: name, file: name }, description: '', kind: 'basic', source: { file: '' } });
  }
  return [...model.securitySchemes, ...extra.sort((a, b) => a.name.localeCompare(b.name))];
}

function apiLiteral(model: ApiModel, errorFormat: string): string {
  const schemes = securitySchemes(model).map((scheme) => {
    const fields = [`kind: ${literal(scheme.kind)}`];
    if (scheme.in !== undefined) fields.push(`in: ${literal(scheme.in)}`);
    if (scheme.parameterName !== undefined) fields.push(`name: ${literal(scheme.parameterName)}`);
    if (scheme.scheme !== undefined) fields.push(`scheme: ${literal(scheme.scheme)}`);
    return `    ${propertyName(scheme.name)}: { ${fields.join(', ')} },`;
  });
  // This project's own conventions: parameters as form fields on every operation, Basic pairs of email and API key.
  const ours = model.conventions.successEnvelope && model.conventions.bodyCodedErrors;
  return [
    '{',
    `  title: ${literal(model.title)},`,
    schemes.length === 0 ? '  securitySchemes: {},' : `  securitySchemes: {\n${schemes.join('\n')}\n  },`,
    `  successEnvelope: ${model.conventions.successEnvelope},`,
    `  parametersInFields: ${ours},`,
    `  refusedBodyStatus: ${ours ? 400 : 415},`,
    ours
      ? "  unauthorized: { basicPair: 'email:api_key', invalid: 'Invalid email or API key', basicChallenge: true },"
      : "  unauthorized: { basicPair: 'username:password', invalid: 'Invalid credentials', basicChallenge: false },",
    `  errors: { status: errorStatus, format: ${errorFormat} },`,
    '}',
  ].join('\n');
}

function credentialType(model: ApiModel): string {
  const members = securitySchemes(model).map((scheme) => {
    const name = literal(scheme.name);
    switch (scheme.kind) {
      case 'basic':
        return `BasicCredential<${name}>`;
      case 'bearer':
      case 'oauth2':
      case 'openIdConnect':
        return `TokenCredential<${name}, ${literal(scheme.kind)}>`;
      case 'apiKey':
        return `ApiKeyCredential<${name}>`;
      case 'http':
        return `HttpCredential<${name}>`;
      case 'mutualTLS':
        return `MutualTlsCredential<${name}>`;
    }
  });
  return members.length === 0 ? 'never' : members.join(' | ');
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name);
}

/** `paths[...][...]["responses"][key]` of a response. */
function responseKey(response: ResponseModel | OperationError): string {
  if (response.statusText !== undefined) return JSON.stringify(response.statusText);
  return response.status === 0 ? '"default"' : String(response.status);
}

function operationView(model: ApiModel, operation: Operation, typed: boolean, readable: boolean): OperationView {
  // The operation's own base path (its or its path item's servers), else the document's.
  const pathAliases: Record<string, string> = {};
  const fastifyPath = (operation.basePath ?? model.basePath) + toFastifyPath(operation, pathAliases);
  const files = operation.parameters.filter((parameter) => parameter.encoding === 'file');
  // Exactly one single file, required: any part name is taken for it (multipart bodies from simple clients).
  // An optional one is read by its name, so that a body without it is not refused.
  const fileParameter = files.length === 1 && files[0]!.schema.kind !== 'array' && files[0]!.required ? files[0]!.name : undefined;
  const method = operation.method.toUpperCase() as Uppercase<HttpMethod>;
  const literals: OperationView['literals'] = {
    operationId: literal(operation.id),
    method: literal(method),
    fastifyPath: literal(fastifyPath),
  };
  if (fileParameter !== undefined) literals.fileParameter = literal(fileParameter);
  const legacy = usesLegacyResult(model);
  const pathsOf = `paths[${JSON.stringify(operation.path)}][${JSON.stringify(operation.method)}]["responses"]`;
  const read = (type: string): string => (readable ? `Readable<${type}>` : type);
  const bodyType = (response: ResponseModel | OperationError): string => {
    if (response.contents.length === 0) return 'undefined';
    const types = response.contents.map((content) => {
      if (content.kind === 'text') return 'string';
      if (content.kind === 'binary') return 'Uint8Array | string';
      // A hand-built model (tests) has no bundled document, so types.ts has no `paths`.
      if (!typed) return 'unknown';
      return read(`${pathsOf}[${responseKey(response)}]["content"][${JSON.stringify(content.written ?? content.mediaType)}]`);
    });
    return [...new Set(types)].join(' | ');
  };
  const success = operation.success;
  const resultType = legacy
    ? `HandlerResult<${operation.names.pascal}Response>`
    : success.contents.length === 0
      ? 'void'
      : bodyType(success);
  const responses = [...operation.successes, ...operation.errors].map((response) => {
    const status = response.statusText !== undefined || response.status === 0 ? 'number' : String(response.status);
    return `Responded<${status}, ${bodyType(response)}, ${headersType(response)}>`;
  });
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
    example: (indent) => (legacy ? exampleLiteral(success.examples[0]?.value, indent) : undefined),
    literals,
    routeExtras: [
      ...routeExtras(operation),
      ...(Object.keys(pathAliases).length === 0
        ? []
        : [`pathNames: { ${Object.entries(pathAliases).map(([alias, name]) => `${alias}: ${literal(name)}`).join(', ')} },`]),
    ],
    resultType,
    userType: operation.auth ? 'User' : operation.security.some((alternative) => alternative.length > 0) ? 'User | undefined' : 'undefined',
    responsesType: responses.length === 0 ? 'never' : `${operation.names.pascal}Responded`,
    respondedLines: [...new Set(responses)],
    mockAnswer: (indent) => mockAnswer(model, operation, legacy, indent),
  };
  if (fileParameter !== undefined) view.fileParameter = fileParameter;
  return view;
}

function headersType(response: ResponseModel | OperationError): string {
  if (response.headers.length === 0) return 'undefined';
  const fields = response.headers.map((header) => `${literal(header.name.toLowerCase())}${header.required ? '' : '?'}: string | number | boolean | readonly string[]`);
  const type = `{ ${fields.join('; ')} }`;
  return response.headers.some((header) => header.required) ? type : `${type} | undefined`;
}

/** `security`, `body`, `status` and `responses` of the route, where they say more than the defaults. */
function routeExtras(operation: Operation): string[] {
  const security = operation.security.map((alternative) => `[${alternative.map(literal).join(', ')}]`);
  const lines = [`security: [${security.join(', ')}],`];
  if (operation.parameters.some((parameter) => parameter.location === 'cookie')) lines.push('cookies: true,');
  const body = operation.requestBody;
  if (body?.mode === 'whole') {
    const contents = body.contents.map((content) => `{ mediaType: ${literal(content.mediaType)}, kind: ${literal(content.kind)} }`);
    lines.push(`body: { required: ${body.required}, contents: [${contents.join(', ')}] },`);
  }
  const status = operation.success.status === 0 ? 200 : operation.success.status;
  if (status !== 200) lines.push(`status: ${status},`);
  // An error response without a body needs no entry: `respond(status)` sends none either way.
  const all = [...operation.successes, ...operation.errors.filter((error) => error.contents.length > 0)];
  const plainJson = (response: ResponseModel | OperationError) =>
    response.contents.length > 0 && response.contents.every((content) => content.kind === 'json' && content.mediaType === 'application/json');
  if (!all.every(plainJson)) {
    const entries = all.map((response) => {
      const key = response.statusText ?? (response.status === 0 ? 'default' : String(response.status));
      const contents = response.contents.map((content) => `{ mediaType: ${literal(content.mediaType)}, kind: ${literal(content.kind)} }`);
      return `${/^\d+$/.test(key) ? key : literal(key)}: [${contents.join(', ')}]`;
    });
    lines.push(`responses: { ${entries.join(', ')} },`);
  }
  return lines;
}

/**
 * What the mock answers: the primary success's first example (a schema-made
 * value without one), with its required headers; under the envelope
 * convention the example without the envelope fields, as before.
 */
function mockAnswer(model: ApiModel, operation: Operation, legacy: boolean, indent: string): string | undefined {
  const success = operation.success;
  if (legacy) {
    const example = exampleLiteral(success.examples[0]?.value, indent);
    return example === undefined ? undefined : `(${example})`;
  }
  const content = success.contents[0];
  let body: string;
  if (content === undefined) {
    body = 'undefined';
  } else {
    const example = content.examples[0]?.value ?? content.schema.examples?.[0] ?? sampleValue(content.schema, model);
    if (example === undefined) return undefined;
    const value = content.kind === 'json' ? example : typeof example === 'string' ? example : JSON.stringify(example);
    body = `${printValue(value, indent)} as never`;
  }
  const required = success.headers.filter((header) => header.required);
  const status = success.status === 0 ? 200 : success.status;
  if (required.length === 0) return body === 'undefined' ? 'undefined' : `(${body})`;
  const headers = required.map((header) => {
    const value = header.schema.examples?.[0] ?? sampleValue(header.schema, model) ?? '';
    return `${literal(header.name.toLowerCase())}: ${literal(typeof value === 'string' ? value : JSON.stringify(value))}`;
  });
  return `ctx.respond(${status}, ${body}, { ${headers.join(', ')} } as never)`;
}

/**
 * `/streams/{stream_id}` to `/streams/:stream_id`. A name Fastify would end
 * early (`{pet-id}`, `{a.b}`) becomes `:p0`, `:p1`, ... and `aliases` maps it
 * back to the wire name before decoding.
 */
export function toFastifyPath(operation: Operation, aliases: Record<string, string> = {}): string {
  let next = 0;
  // A fragment or query written into a path key (`/cookies#exploded`) never reaches the server.
  const path = operation.path.replace(/[#?].*$/, '');
  return path.replace(/\{([^}]*)\}/g, (_, name: string) => {
    if (FASTIFY_PARAM.test(name)) return `:${name}`;
    let alias = `p${next++}`;
    while (operation.path.includes(`{${alias}}`)) alias = `p${next++}`;
    aliases[alias] = name;
    return `:${alias}`;
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
