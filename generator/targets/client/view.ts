import type { ApiModel, Operation, OperationError, Parameter, ParameterStyle, ResponseModel, SecuritySchemeModel } from '../../model/types.js';
import { propertyKey } from '../../model/names.js';
import { clientScope, CLIENT_RUNTIME_VALUES, paramsOptional } from '../shared/client-functions.js';
import { basicShorthand, schemeModels } from '../shared/credentials.js';
import { newerErrorFields, newerResponseFields, type LevelledPath } from './levels.js';
import { tsString } from '../shared/literal.js';
import { docComment, escapeDocText } from '../shared/tsdoc.js';

/** What the client templates receive: every value is ready to print. */
export interface ClientView {
  banner: string;
  /** Whether operations load response checks (`client/checks/`): false when the output has no validators. */
  withChecks: boolean;
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
  /** What `connect.ts` imports from the runtime's `types.ts` for `Credentials`, comma-separated ('' for none). */
  credentialTypes: string;
  /** `{ basePath: ..., ... }` as a literal: what `connect` knows of the document. */
  documentLiteral: string;
  /** The constant holding it (a name no operation takes). */
  documentName: string;
  /** Per error code, its extra fields newer than some feature level, as a literal; '' when none. */
  newerErrorFieldsLiteral: string;
}

export interface SchemeView {
  /** The runtime writer of its credential; undefined for `mutualTLS`. */
  writer: string | undefined;
  keyLiteral: string;
  /** A property key for the `Credentials` type (quoted when needed). */
  propertyKey: string;
  specLiteral: string;
  /** `BasicCredentials` or `TokenSource`; '' for a scheme without HTTP-level credentials (mutualTLS). */
  credentialType: string;
  doc: string;
}

export interface OperationView {
  /** The method name on `createClient`'s object. */
  camel: string;
  /** The exported operation function (the method name, unless `client.ts` needs that name itself). */
  functionName: string;
  /** The doc comment of the operation function (not indented). */
  functionDoc: string;
  /** The runtime imports of the operation's module. */
  runtimeImports: { module: string; names: string }[];
  /** Types its module imports from the runtime's `types.ts`, comma-separated. */
  runtimeTypes: string;
  /** Types its module imports from `types.ts`, comma-separated. */
  operationTypeImports: string;
  /** The constant holding the operation's `OperationSpec` (`getMessageOperation`). */
  specName: string;
  /** File base name of its module under `client/operations/` and of its checks module under `client/checks/`. */
  file: string;
  /** The validators of its answers in `validators.ts`: every declared status, the declared headers ('' when it declares none). */
  responsesValidator: string;
  headersValidator: string;
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

/**
 * The client's view. `withChecks` false: the output has no validators to
 * check answers with (`validators` neither runs nor is in the output
 * folder), so operations carry no checks and `connect` refuses
 * `validateResponses`.
 */
export function buildClientView(model: ApiModel, banner: string, withChecks = true): ClientView {
  const methods = new Set(model.operations.map((operation) => operation.names.camel));
  let withResponseKey = 'withResponse';
  while (methods.has(withResponseKey)) withResponseKey += '_';
  const { scope, functionNames } = clientScope(model);
  const schemes = schemeModels(model);
  const schemeViews = new Map(schemes.map((scheme) => [scheme.name, schemeView(scheme)]));
  const ctx: Ctx = { model, bodyCodedErrors: model.conventions.bodyCodedErrors, schemes: schemeViews };
  const operations = model.operations.map((operation) => operationView(ctx, operation, functionNames.get(operation)!, scope.take(`${operation.names.camel}Operation`)));
  const typeImports = [
    ...SHARED_TYPES,
    ...operations.flatMap((operation) => operation.typeImports),
  ].sort();
  const shorthand = basicShorthand(model, schemes);
  const apiKeys = schemes.filter((scheme) => scheme.kind === 'apiKey');
  const keyName = (scheme: SecuritySchemeModel) => scheme.parameterName ?? scheme.name;
  const document = [
    `basePath: ${tsString(model.basePath)}`,
    ...(shorthand === undefined ? [] : [`basicShorthand: ${tsString(shorthand.name)}`]),
    `conventions: { successEnvelope: ${model.conventions.successEnvelope}, bodyCodedErrors: ${model.conventions.bodyCodedErrors} }`,
    `credentialHeaders: [${[...new Set(apiKeys.filter((scheme) => scheme.in !== 'query' && scheme.in !== 'cookie').map((scheme) => keyName(scheme).toLowerCase()))].map(tsString).join(', ')}]`,
    `credentialQuery: [${[...new Set(apiKeys.filter((scheme) => scheme.in === 'query').map(keyName))].map(tsString).join(', ')}]`,
    ...(withChecks ? [] : ['responseChecks: false']),
  ];
  const errorFields = Object.entries(newerErrorFields(model));
  return {
    banner,
    withChecks,
    title: escapeDocText(model.title),
    version: escapeDocText(model.version),
    basePath: escapeDocText(model.basePath),
    basePathLiteral: tsString(model.basePath),
    typeImports,
    operations,
    newerErrorFields: errorFields.map(([code, fields]) => ({ codeLiteral: tsString(code), fields: levelledLiteral(fields) })),
    newerErrorFieldsLiteral: errorFields.length === 0 ? '' : `{ ${errorFields.map(([code, fields]) => `${tsString(code)}: ${levelledLiteral(fields)}`).join(', ')} }`,
    conventionsLiteral: `{ successEnvelope: ${model.conventions.successEnvelope}, bodyCodedErrors: ${model.conventions.bodyCodedErrors} }`,
    bodyCodedErrors: model.conventions.bodyCodedErrors,
    featureLevels: model.conventions.featureLevels,
    schemes: [...schemeViews.values()],
    basicShorthandLiteral: shorthand === undefined ? '' : tsString(shorthand.name),
    withResponseKey,
    withResponseKeyLiteral: tsString(withResponseKey),
    usesResponseOf: operations.some((operation) => operation.fullResponseType.startsWith('ApiResponseOf<')),
    credentialTypes: [
      ...(schemes.some((scheme) => scheme.kind === 'basic') ? ['BasicCredentials'] : []),
      ...(schemes.some((scheme) => scheme.kind !== 'basic' && scheme.kind !== 'mutualTLS') ? ['TokenSource'] : []),
    ].join(', '),
    documentLiteral: `{ ${document.join(', ')} }`,
    documentName: scope.take('apiDocument'),
  };
}

/** One import line per runtime module, of the values a file uses. */
function runtimeImports(used: ReadonlySet<string>): { module: string; names: string }[] {
  return Object.entries(CLIENT_RUNTIME_VALUES)
    .map(([module, names]) => ({ module, names: names.filter((name) => used.has(name)) }))
    .filter((entry) => entry.names.length > 0)
    .map(({ module, names }) => ({ module, names: names.join(', ') }));
}

interface Ctx {
  model: ApiModel;
  bodyCodedErrors: boolean;
  schemes: Map<string, SchemeView>;
}

/** The writer of each scheme kind's credential (`runtime/client/credentials.ts`). */
function credentialWriter(scheme: SecuritySchemeModel): string | undefined {
  switch (scheme.kind) {
    case 'basic':
      return 'basicCredential';
    case 'bearer':
    case 'oauth2':
    case 'openIdConnect':
      return 'bearerCredential';
    case 'http':
      return 'httpCredential';
    case 'apiKey':
      return scheme.in === 'query' ? 'apiKeyQuery' : scheme.in === 'cookie' ? 'apiKeyCookie' : 'apiKeyHeader';
    case 'mutualTLS':
      return undefined;
  }
}

function schemeView(scheme: SecuritySchemeModel): SchemeView {
  const spec: string[] = [`name: ${tsString(scheme.name)}`];
  const writer = credentialWriter(scheme);
  if (writer !== undefined) spec.push(`write: ${writer}`);
  if (scheme.kind === 'apiKey' && scheme.parameterName !== undefined && scheme.parameterName !== scheme.name) spec.push(`key: ${tsString(scheme.parameterName)}`);
  if (scheme.kind === 'http' && scheme.scheme !== undefined) spec.push(`scheme: ${tsString(scheme.scheme)}`);
  const how = schemeDescription(scheme);
  return {
    writer,
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

/** The writer of each whole-body kind (`runtime/client/bodies.ts`). */
const BODY_WRITERS: Record<string, string> = { json: 'jsonBody', text: 'textBody', form: 'formBody', multipart: 'multipartBody', binary: 'binaryBody' };

function operationView(ctx: Ctx, operation: Operation, functionName: string, specName: string): OperationView {
  const pascal = operation.names.pascal;
  const body = operation.requestBody;
  const specLines: string[] = [];
  const used = new Set<string>(['call']);
  if (operation.security.length > 0) {
    const scheme = (name: string): string => {
      const view = ctx.schemes.get(name);
      if (view?.writer !== undefined) used.add(view.writer);
      return view?.specLiteral ?? `{ name: ${tsString(name)} }`;
    };
    specLines.push(`security: [${operation.security.map((alternative) => `[${alternative.map(scheme).join(', ')}]`).join(', ')}],`);
  }
  if (body?.mode === 'whole') {
    const contents = body.contents
      .map((content) => {
        // A form or multipart media type's fields, written as a fields-mode body's would be.
        const fields = content.fields === undefined ? '' : `, fields: [${content.fields.map((field) => paramView(field, content.partContentTypes).literal).join(', ')}]`;
        const writer = BODY_WRITERS[content.kind]!;
        used.add(writer);
        return `{ mediaType: ${tsString(content.mediaType)}, write: ${writer}${fields} }`;
      })
      .join(', ');
    used.add('wholeBody');
    specLines.push(`requestBody: { encode: wholeBody, param: ${tsString(body.parameterName ?? 'body')}, required: ${body.required}, contents: [${contents}] },`);
  }
  if (body?.mode !== 'whole' && operation.body !== 'none') {
    const writer = operation.body === 'multipart' ? 'multipartFields' : 'formFields';
    used.add(writer);
    specLines.push(`fields: ${writer},`);
  }
  if (operation.basePath !== ctx.model.basePath) specLines.push(`basePath: ${tsString(operation.basePath)},`);
  const server = operation.servers?.find((url) => /^[a-z][a-z0-9+.-]*:\/\//i.test(url));
  if (server !== undefined) specLines.push(`server: ${tsString(server)},`);
  if (operation.success.status !== 200) specLines.push(`success: ${operation.success.status},`);
  specLines.push(`responses: { ${responseEntries(operation).join(', ')} },`);
  const redirect = documentsRedirect(operation);
  if (redirect) specLines.push('answer: true,');
  const partTypes = body?.mode === 'fields' ? body.contents.find((content) => content.kind === 'multipart' && content.partContentTypes !== undefined)?.partContentTypes : undefined;
  const successes = operation.successes.length > 0 ? operation.successes : [operation.success];
  const params = operation.parameters.map((parameter) => paramView(parameter, partTypes, used));
  const responseType = redirect
    ? fullResponseType(operation)
    : receivedAs(operation, successes.length === 1 ? `${pascal}Response` : `${pascal}Responses[keyof ${pascal}Responses]`);
  const typeImports = [`${pascal}Params`, successes.length > 1 ? `${pascal}Responses` : `${pascal}Response`, ...(ctx.bodyCodedErrors ? [] : [`${pascal}ErrorResponses`])];
  return {
    camel: operation.names.camel,
    functionName,
    runtimeImports: runtimeImports(used),
    runtimeTypes: ['OperationSpec', 'RequestOptions', ...(redirect ? [responseType.startsWith('ApiResponseOf<') ? 'ApiResponseOf' : 'ApiResponse'] : [])].sort().join(', '),
    operationTypeImports: typeImports.filter((name) => !name.endsWith('ErrorResponses')).sort().join(', '),
    specName,
    file: operation.names.file,
    responsesValidator: `validate${pascal}Responses`,
    headersValidator: [...operation.successes, ...operation.errors].some((response) => response.headers.length > 0) ? `validate${pascal}ResponseHeaders` : '',
    camelLiteral: tsString(operation.names.camel),
    doc: operationDoc(ctx.model, operation),
    functionDoc: operationDoc(ctx.model, operation, ''),
    paramsType: `${pascal}Params`,
    // One success: its alias; several: the union of their bodies (the method resolves to whichever came).
    // Binary bodies arrive as Blobs (the types alias also allows the bytes a server handler may return).
    // A documented redirect's answer is its status and headers (`Location`), so such an operation resolves to the whole answer.
    responseType,
    typeImports,
    fullResponseType: fullResponseType(operation),
    paramsOptional: paramsOptional(operation),
    methodLiteral: tsString(operation.method.toUpperCase()),
    pathLiteral: tsString(operation.path),
    specLines,
    featureLevel: operation.featureLevel ?? null,
    params,
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

/** Whether a success the operation documents is a redirect (3xx), which the client returns instead of following. */
function documentsRedirect(operation: Operation): boolean {
  return operation.successes.some((response) => (response.statusText ?? String(response.status)).startsWith('3'));
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

/** The runtime writer of each parameter location (`runtime/client/serialize.ts`); body fields have none. */
const PARAM_WRITERS: Record<string, string> = { path: 'pathParam', query: 'queryParam', header: 'headerParam', cookie: 'cookieParam' };

function paramView(parameter: Parameter, partTypes: Record<string, string> | undefined, used?: Set<string>): ParamView {
  const fields = [`name: ${tsString(parameter.name)}`, `in: ${tsString(parameter.location)}`];
  const styled = parameter.encoding === 'plain' && parameter.style !== undefined && !['simple', 'form'].includes(parameter.style);
  const writer = styled && (parameter.location === 'path' || parameter.location === 'query') ? `styled${PARAM_WRITERS[parameter.location]!.replace(/^./, (c) => c.toUpperCase())}` : PARAM_WRITERS[parameter.location];
  if (writer !== undefined) {
    fields.push(`write: ${writer}`);
    used?.add(writer);
  }
  fields.push(`encoding: ${tsString(parameter.encoding)}`);
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

function operationDoc(model: ApiModel, operation: Operation, indent = '  '): string {
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
  return docComment(paragraphs, indent);
}

function authNote(operation: Operation): string {
  if (!operation.auth) return operation.security.some((alternative) => alternative.length > 0) ? ' (authentication optional)' : ' (no authentication)';
  return '';
}

/** `[['a.b', 12], ...]`, or '' for none. */
function levelledLiteral(fields: LevelledPath[]): string {
  return fields.length === 0 ? '' : `[${fields.map(([path, level]) => `[${tsString(path)}, ${level}]`).join(', ')}]`;
}
