import type { ApiModel, Operation, OperationError, Parameter, ParameterStyle, ResponseModel, SecuritySchemeModel } from '../../model/types.js';
import { propertyKey } from '../../model/names.js';
import { basicShorthand, schemeModels } from '../shared/credentials.js';
import { newerErrorFields, newerResponseFields, type LevelledPath } from './levels.js';
import { tsString } from './literal.js';
import { docComment, escapeDocText } from './tsdoc.js';

/** What the client templates receive: every value is ready to print. */
export interface ClientView {
  banner: string;
  title: string;
  version: string;
  basePath: string;
  basePathLiteral: string;
  /** Names imported from `./types.js`, sorted. */
  typeImports: string[];
  operations: OperationView[];
  /** Per error code, its extra fields newer than some feature level: `[codeLiteral, fields]`. */
  newerErrorFields: { codeLiteral: string; fields: string }[];
  /** `{ successEnvelope: true, ... }` as a literal. */
  conventionsLiteral: string;
  /** Errors narrowed by body `code` (our convention) rather than by status. */
  bodyCodedErrors: boolean;
  featureLevels: boolean;
  /** The security schemes, for the runtime table and the `Credentials` type. */
  schemes: SchemeView[];
  /** The Basic scheme `email`/`apiKey` stand for (documents following our conventions), as a literal; '' when none. */
  basicShorthandLiteral: string;
  /** Name of the property holding the `withResponse` methods (`withResponse`, unless an operation has that name). */
  withResponseKey: string;
  withResponseKeyLiteral: string;
  /** Whether a `withResponse` method's type is a map of statuses (`ApiResponseOf`). */
  usesResponseOf: boolean;
  /** Whether `Credentials` names `BasicCredentials` / `TokenSource`. */
  usesBasic: boolean;
  usesToken: boolean;
}

export interface SchemeView {
  keyLiteral: string;
  /** A property key for the `Credentials` type (quoted when needed). */
  propertyKey: string;
  specLiteral: string;
  /** `BasicCredentials` or `TokenSource`; '' for a scheme without HTTP-level credentials (mutualTLS). */
  credentialType: string;
  doc: string;
}

export interface OperationView {
  camel: string;
  camelLiteral: string;
  doc: string;
  paramsType: string;
  responseType: string;
  /** The `withResponse` result: a union of `ApiResponse<status, body>`. */
  fullResponseType: string;
  /** True when no parameter (and no body) is required, so the argument may be left out. */
  paramsOptional: boolean;
  methodLiteral: string;
  pathLiteral: string;
  bodyLiteral: string;
  /** Extra lines of the operation's table entry (security, requestBody, server, ...), each ready to print. */
  specLines: string[];
  featureLevel: number | null;
  params: ParamView[];
  /** `[['path', level], ...]` of the success-body fields noted at a level, or '' when none. */
  newerFields: string;
  /** Status-typed errors: the operation's map of error bodies by status key (from `types.ts`). */
  errorsType: string;
  /** What the client imports from `types.ts` for this operation. */
  typeImports: string[];
}

export interface ParamView {
  /** `{ name: 'x', in: 'query', ... }` */
  literal: string;
}

/** Types every client imports besides the per-operation ones. */
const SHARED_TYPES = ['ErrorBody'];

const DEFAULT_STYLE: Record<string, ParameterStyle> = { path: 'simple', query: 'form', header: 'simple', cookie: 'form' };

export function buildClientView(model: ApiModel, banner: string): ClientView {
  const names = new Set(model.operations.map((operation) => operation.names.camel));
  let withResponseKey = 'withResponse';
  while (names.has(withResponseKey)) withResponseKey += '_';
  const ctx: Ctx = { model, bodyCodedErrors: model.conventions.bodyCodedErrors };
  const operations = model.operations.map((operation) => operationView(ctx, operation));
  const schemes = schemeModels(model);
  const typeImports = [
    ...SHARED_TYPES,
    ...operations.flatMap((operation) => operation.typeImports),
  ].sort();
  const shorthand = basicShorthand(model, schemes);
  return {
    banner,
    title: escapeDocText(model.title),
    version: escapeDocText(model.version),
    basePath: escapeDocText(model.basePath),
    basePathLiteral: tsString(model.basePath),
    typeImports,
    operations,
    newerErrorFields: Object.entries(newerErrorFields(model)).map(([code, fields]) => ({ codeLiteral: tsString(code), fields: levelledLiteral(fields) })),
    conventionsLiteral: `{ successEnvelope: ${model.conventions.successEnvelope}, bodyCodedErrors: ${model.conventions.bodyCodedErrors}, featureLevels: ${model.conventions.featureLevels} }`,
    bodyCodedErrors: model.conventions.bodyCodedErrors,
    featureLevels: model.conventions.featureLevels,
    schemes: schemes.map(schemeView),
    basicShorthandLiteral: shorthand === undefined ? '' : tsString(shorthand.name),
    withResponseKey,
    withResponseKeyLiteral: tsString(withResponseKey),
    usesResponseOf: operations.some((operation) => operation.fullResponseType.startsWith('ApiResponseOf<')),
    usesBasic: schemes.some((scheme) => scheme.kind === 'basic'),
    usesToken: schemes.some((scheme) => scheme.kind !== 'basic' && scheme.kind !== 'mutualTLS'),
  };
}

interface Ctx {
  model: ApiModel;
  bodyCodedErrors: boolean;
}

function schemeView(scheme: SecuritySchemeModel): SchemeView {
  const spec: string[] = [`kind: ${tsString(scheme.kind)}`];
  if (scheme.in !== undefined) spec.push(`in: ${tsString(scheme.in)}`);
  if (scheme.parameterName !== undefined) spec.push(`name: ${tsString(scheme.parameterName)}`);
  if (scheme.scheme !== undefined) spec.push(`scheme: ${tsString(scheme.scheme)}`);
  const how = schemeDescription(scheme);
  return {
    keyLiteral: tsString(scheme.name),
    propertyKey: propertyKey(scheme.name),
    specLiteral: `{ ${spec.join(', ')} }`,
    credentialType: scheme.kind === 'mutualTLS' ? '' : scheme.kind === 'basic' ? 'BasicCredentials' : 'TokenSource',
    doc: docComment([escapeDocText(scheme.description), how], '  '),
  };
}

function schemeDescription(scheme: SecuritySchemeModel): string {
  switch (scheme.kind) {
    case 'basic':
      return 'HTTP Basic: sent as `Authorization: Basic base64(username:password)`.';
    case 'bearer':
      return `HTTP Bearer${scheme.bearerFormat ? ` (${escapeDocText(scheme.bearerFormat)})` : ''}: the token, sent as \`Authorization: Bearer <token>\`.`;
    case 'oauth2':
    case 'openIdConnect':
      return `${scheme.kind === 'oauth2' ? 'OAuth 2' : 'OpenID Connect'}: an access token, sent as \`Authorization: Bearer <token>\`; a function is called before every request (refresh there).`;
    case 'apiKey':
      return `An API key, sent in the ${scheme.in ?? 'header'} \`${escapeDocText(scheme.parameterName ?? scheme.name)}\`.`;
    case 'http':
      return `HTTP \`${escapeDocText(scheme.scheme ?? '')}\`: the credentials, sent as \`Authorization: ${escapeDocText(scheme.scheme ?? '')} <credentials>\`.`;
    case 'mutualTLS':
      return 'Mutual TLS: configured in the TLS set-up of `fetch`, not here.';
  }
}

function operationView(ctx: Ctx, operation: Operation): OperationView {
  const pascal = operation.names.pascal;
  const body = operation.requestBody;
  const specLines: string[] = [];
  if (operation.security.length > 0) {
    specLines.push(`security: [${operation.security.map((alternative) => `[${alternative.map(tsString).join(', ')}]`).join(', ')}],`);
  }
  if (body?.mode === 'whole') {
    const contents = body.contents
      .map((content) => {
        // A form or multipart media type's fields, written as a fields-mode body's would be.
        const fields = content.fields === undefined ? '' : `, fields: [${content.fields.map((field) => paramView(field, content.partContentTypes).literal).join(', ')}]`;
        return `{ mediaType: ${tsString(content.mediaType)}, kind: ${tsString(content.kind)}${fields} }`;
      })
      .join(', ');
    specLines.push(`requestBody: { param: ${tsString(body.parameterName ?? 'body')}, required: ${body.required}, contents: [${contents}] },`);
  }
  if (operation.basePath !== ctx.model.basePath) specLines.push(`basePath: ${tsString(operation.basePath)},`);
  const server = operation.servers?.find((url) => /^[a-z][a-z0-9+.-]*:\/\//i.test(url));
  if (server !== undefined) specLines.push(`server: ${tsString(server)},`);
  if (operation.success.status !== 200) specLines.push(`success: ${operation.success.status},`);
  specLines.push(`responses: { ${responseEntries(operation).join(', ')} },`);
  const partTypes = body?.mode === 'fields' ? body.contents.find((content) => content.kind === 'multipart' && content.partContentTypes !== undefined)?.partContentTypes : undefined;
  const successes = operation.successes.length > 0 ? operation.successes : [operation.success];
  return {
    camel: operation.names.camel,
    camelLiteral: tsString(operation.names.camel),
    doc: operationDoc(ctx.model, operation),
    paramsType: `${pascal}Params`,
    // One success: its alias; several: the union of their bodies (the method resolves to whichever came).
    // Binary bodies arrive as Blobs (the types alias also allows the bytes a server handler may return).
    responseType: receivedAs(operation, successes.length === 1 ? `${pascal}Response` : `${pascal}Responses[keyof ${pascal}Responses]`),
    typeImports: [`${pascal}Params`, successes.length > 1 ? `${pascal}Responses` : `${pascal}Response`, ...(ctx.bodyCodedErrors ? [] : [`${pascal}ErrorResponses`])],
    fullResponseType: fullResponseType(operation),
    paramsOptional: operation.parameters.every((parameter) => !parameter.required) && !(body?.mode === 'whole' && body.required),
    methodLiteral: tsString(operation.method.toUpperCase()),
    pathLiteral: tsString(operation.path),
    bodyLiteral: tsString(body?.mode === 'whole' ? 'none' : operation.body),
    specLines,
    featureLevel: operation.featureLevel ?? null,
    params: operation.parameters.map((parameter) => paramView(parameter, partTypes)),
    newerFields: levelledLiteral(newerResponseFields(ctx.model, operation)),
    errorsType: `${pascal}ErrorResponses`,
  };
}

/** `'200': [['application/json', 'json']]` per declared response, successes then errors. */
function responseEntries(operation: Operation): string[] {
  const all: (ResponseModel | OperationError)[] = [...operation.successes, ...operation.errors];
  const seen = new Set<string>();
  const entries: string[] = [];
  for (const response of all) {
    const key = response.statusText ?? String(response.status);
    if (seen.has(key)) continue;
    seen.add(key);
    const contents = response.contents.map((content) => `[${tsString(content.mediaType)}, ${tsString(content.kind)}]`).join(', ');
    entries.push(`${tsString(key)}: [${contents}]`);
  }
  return entries;
}

function fullResponseType(operation: Operation): string {
  const pascal = operation.names.pascal;
  const successes = operation.successes.length > 0 ? operation.successes : [operation.success];
  return successes.length === 1 ? `ApiResponse<${statusType(successes[0]!)}, ${receivedAs(operation, `${pascal}Response`)}>` : `ApiResponseOf<${pascal}Responses>`;
}

function hasBinarySuccess(operation: Operation): boolean {
  return operation.successes.some((response) => response.contents.some((content) => content.kind === 'binary'));
}

/** A success body type as the client receives it: binary bodies are Blobs. */
function receivedAs(operation: Operation, type: string): string {
  return hasBinarySuccess(operation) ? `Exclude<${type}, Uint8Array>` : type;
}

function statusType(response: ResponseModel): string {
  return response.statusText === undefined && response.status !== 0 ? String(response.status) : 'number';
}

function paramView(parameter: Parameter, partTypes: Record<string, string> | undefined): ParamView {
  const fields = [`name: ${tsString(parameter.name)}`, `in: ${tsString(parameter.location)}`, `encoding: ${tsString(parameter.encoding)}`];
  // The key in the params object, when it is not the wire name (two parameters of one operation share a name).
  if (parameter.key !== undefined && parameter.key !== parameter.name) fields.push(`key: ${tsString(parameter.key)}`);
  if (parameter.encoding === 'plain' && parameter.location !== 'body') {
    const style = parameter.style ?? DEFAULT_STYLE[parameter.location];
    if (style !== undefined && style !== DEFAULT_STYLE[parameter.location]) fields.push(`style: ${tsString(style)}`);
    const explode = parameter.explode ?? style === 'form';
    if (explode !== (style === 'form')) fields.push(`explode: ${explode}`);
  } else if (parameter.location === 'body' && parameter.style !== undefined) {
    // Form fields have no style unless the model gives one (a list or object spread by its Encoding Object).
    fields.push(`style: ${tsString(parameter.style)}`);
    if (parameter.explode !== (parameter.style === 'form')) fields.push(`explode: ${parameter.explode === true}`);
  } else if (parameter.location === 'body' && parameter.encoding === 'json' && parameter.explode === true) {
    fields.push('explode: true');
  }
  if (parameter.allowReserved) fields.push('allowReserved: true');
  const partType = parameter.location === 'body' ? partTypes?.[parameter.name] : undefined;
  if (partType !== undefined) fields.push(`contentType: ${tsString(partType)}`);
  if (parameter.featureLevel !== undefined) fields.push(`featureLevel: ${parameter.featureLevel}`);
  return { literal: `{ ${fields.join(', ')} }` };
}

function operationDoc(model: ApiModel, operation: Operation): string {
  const where = operation.servers?.[0] ?? operation.basePath;
  const paragraphs = [
    escapeDocText(operation.summary),
    escapeDocText(operation.description),
    `\`${operation.method.toUpperCase()} ${escapeDocText(where + operation.path)}\`${authNote(operation)}`,
  ];
  const newer = operation.parameters.filter((parameter) => parameter.featureLevel !== undefined);
  if (model.conventions.featureLevels && newer.length > 0) {
    const lines = newer.map(
      (parameter) => `- \`${escapeDocText(parameter.name)}\`: feature level ${parameter.featureLevel}`,
    );
    paragraphs.push(['Parameters by the feature level that added them:', ...lines].join('\n'));
  }
  const tags: string[] = [];
  if (operation.featureLevel !== undefined) tags.push(`@featureLevel ${operation.featureLevel}`);
  if (operation.deprecated) tags.push('@deprecated');
  if (tags.length > 0) paragraphs.push(tags.join('\n'));
  return docComment(paragraphs, '  ');
}

function authNote(operation: Operation): string {
  if (!operation.auth) return operation.security.some((alternative) => alternative.length > 0) ? ' (authentication optional)' : ' (no authentication)';
  return '';
}

/** `[['a.b', 12], ...]`, or '' for none. */
function levelledLiteral(fields: LevelledPath[]): string {
  return fields.length === 0 ? '' : `[${fields.map(([path, level]) => `[${tsString(path)}, ${level}]`).join(', ')}]`;
}
