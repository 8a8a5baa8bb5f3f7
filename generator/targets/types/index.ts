/**
 * `types` target: openapi-typescript's declarations of the bundled document,
 * a named type per component schema (`Message`), then the per-operation
 * aliases the other targets import (`<Pascal>Params`, `<Pascal>Response`),
 * `UploadFile`, `ErrorBody` and `ErrorCode`.
 */
import { posix } from 'node:path';
import { propertyKey } from '../../model/names.js';
import type { ApiModel, BodyKind, Operation, OperationError, ResponseModel } from '../../model/types.js';
import { banner } from '../banner.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { documentDeclarations } from './declarations.js';
import { cycleMessage } from './refs.js';
import { startTypesThread, TypesThread } from './thread.js';

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

export const target: Target = {
  name: 'types',
  description: 'openapi-typescript types and per-operation aliases (generated/types.ts)',
  warmUp: startTypesThread,
  async generate(ctx: TargetContext): Promise<OutputFile[]> {
    const { openapi } = ctx.model;
    if (!openapi) throw new Error('the types target needs the bundled document (ApiModel.openapi)');
    const operations = ctx.model.operations.map(({ path, method, id }) => ({ path, method, id }));
    // Without a thread nothing is awaited, so the target runs through before the next one starts, as it always did.
    const thread = ctx.warm instanceof TypesThread ? ctx.warm : undefined;
    const declarations = (thread === undefined ? undefined : await thread.declarations(operations)) ?? documentDeclarations(openapi, operations);
    const sources = new Map(ctx.model.schemas.map((s) => [s.name, s.source]));
    for (const name of declarations.cycles) ctx.report(cycleMessage(name, sources.get(name)));
    const contents = [
      banner(ctx.model, ctx.command, 'line'),
      '',
      declarations.text,
      '',
      ...(ctx.model.schemas.length > 0 ? [namedTypes(ctx.model, declarations.markers)] : []),
      aliases(ctx.model, declarations.markers),
    ].join('\n');
    return [{ path: posix.join(ctx.outDir, 'types.ts'), contents, ownership: 'generated' }];
  },
};

/**
 * One named type per component schema (`export type Message =
 * components["schemas"]["Message"];`), under the name the model gave it. With
 * read/write markers it is the schema as read (`Readable<>`, no `writeOnly`
 * fields), the shape responses carry; requests are typed by `<Pascal>Params`.
 */
export function namedTypes(model: ApiModel, markers = false): string {
  const lines = model.schemas.map((schema) => {
    const type = schema.names.type;
    if (type === undefined) throw new Error(`the types target needs the named type of schema \`${schema.name}\` (Names.type, set by the model)`);
    const indexed = `components["schemas"][${JSON.stringify(schema.name)}]`;
    return `export type ${type} = ${markers ? `Readable<${indexed}>` : indexed};`;
  });
  return `/** The component schemas by name. */\n${lines.join('\n')}\n`;
}

export function aliases(model: ApiModel, markers = false): string {
  const errorTypes = model.errors.map((e) => `components["schemas"][${JSON.stringify(e.schemaName)}]`);
  const blocks = [
    [
      '/** A file to upload: its name, optional media type and contents. */',
      'export interface UploadFile {',
      '    filename: string;',
      '    contentType?: string;',
      '    data: Blob | Uint8Array;',
      '}',
    ].join('\n'),
    [
      '/** Every error body the API defines. */',
      `export type ErrorBody = ${errorTypes.length > 0 ? errorTypes.join(' | ') : 'never'};`,
      'export type ErrorCode = ErrorBody["code"];',
    ].join('\n'),
    ...(model.operations.some(hasHeaders)
      ? [
          [
            '/** An object type with its keys in lower case (response header names, as Node and fetch give them). */',
            'export type LowerCaseKeys<T> = { [K in keyof T as K extends string ? Lowercase<K> : K]: T[K] };',
          ].join('\n'),
        ]
      : []),
    ...model.operations.map((operation) => operationAliases(operation, markers)),
  ];
  return `${blocks.join('\n\n')}\n`;
}

function operationAliases(operation: Operation, markers: boolean): string {
  // With read/write markers, requests leave out `readOnly` fields and responses `writeOnly` ones.
  const write = (type: string): string => (markers ? `Writable<${type}>` : type);
  const read = (type: string): string => (markers ? `Readable<${type}>` : type);
  // openapi-typescript keys `operations` by the operationId with each `#` read as `/` (Box's `put_files_id#add_shared_link`).
  const op = `operations[${JSON.stringify(operation.id.replace(/#/g, '/'))}]`;
  const where = docText(`${operation.method.toUpperCase()} ${operation.path} (${operation.id})`);
  const pascal = operation.names.pascal;
  const lines = [
    `/** Parameters of ${where}, decoded: path, query, header, cookie and body fields in one object. */`,
    `export type ${pascal}Params = ${write(paramsType(operation, op))};`,
    `/** Success body of ${where}${operation.successes.length > 1 ? ` (status ${statusKey(operation.success)})` : ''}. */`,
    `export type ${pascal}Response = ${read(responseBodyType(op, operation.success))};`,
  ];
  lines.push(
    `/** Success bodies of ${where}, by status (\`2XX\`, \`default\` as written). */`,
    `export type ${pascal}Responses = ${statusMap(operation.successes, (r) => read(responseBodyType(op, r)))};`,
    `/** Error bodies of ${where}, by status. */`,
    `export type ${pascal}ErrorResponses = ${statusMap(operation.errors, (r) => read(responseBodyType(op, r)))};`,
    `/** Declared response headers of ${where}, by status (names in lower case). */`,
    `export type ${pascal}ResponseHeaders = ${statusMap(
      [...operation.successes, ...operation.errors].filter((r) => r.headers.length > 0),
      (r) => headersType(op, r),
    )};`,
  );
  return lines.join('\n');
}

/** The key of a response in the document (`200`, `2XX`, `default`). */
export function statusKey(response: ResponseModel | OperationError): string {
  return response.statusText ?? String(response.status);
}

/** A status key as a TypeScript index: `200` for numbers (as openapi-typescript writes them), `"2XX"` otherwise. */
function indexKey(response: ResponseModel | OperationError): string {
  const key = statusKey(response);
  return /^[0-9]+$/.test(key) ? key : JSON.stringify(key);
}

function hasHeaders(operation: Operation): boolean {
  return [...operation.successes, ...operation.errors].some((r) => r.headers.length > 0);
}

function statusMap(responses: readonly (ResponseModel | OperationError)[], type: (r: ResponseModel | OperationError) => string): string {
  if (responses.length === 0) return 'Record<string, never>';
  return `{\n${responses.map((r) => `    ${JSON.stringify(statusKey(r))}: ${type(r)};`).join('\n')}\n}`;
}

/**
 * The body of one response: its media types' types joined (JSON as
 * openapi-typescript types it, text as a string, anything else as bytes),
 * `undefined` without a body. A response the document does not declare (the
 * synthetic success of an operation with only errors) has no body.
 */
function responseBodyType(op: string, response: ResponseModel | OperationError): string {
  if (response.contents.length === 0) return 'undefined';
  const response_ = `${op}["responses"][${indexKey(response)}]`;
  const types = response.contents.map((c) => contentType(`${response_}["content"][${JSON.stringify(c.written ?? c.mediaType)}]`, c.kind));
  return [...new Set(types)].join(' | ');
}

/** The TypeScript type of one body of a media type of `kind`, from openapi-typescript's `path` for JSON (and forms). */
function contentType(path: string, kind: BodyKind): string {
  switch (kind) {
    case 'text':
      return 'string';
    case 'binary':
      return 'Blob | Uint8Array';
    default:
      return path;
  }
}

function headersType(op: string, response: ResponseModel | OperationError): string {
  return `LowerCaseKeys<${op}["responses"][${indexKey(response)}]["headers"]>`;
}

function paramsType(operation: Operation, op: string): string {
  const parts: string[] = [];
  const located = (location: string) => operation.parameters.filter((p) => p.location === location);
  /**
   * One location's part: openapi-typescript's type of it, keeping only the
   * parameters the model has (header parameters such as `Accept` are not
   * parameters) and renaming those keyed apart (`query_id`).
   */
  const part = (base: string, params: Operation['parameters'], pickAll: boolean): void => {
    const plain = params.filter((p) => p.key === undefined).map((p) => JSON.stringify(p.name));
    const keyed = params.filter((p) => p.key !== undefined);
    if (keyed.length === 0 && !pickAll) parts.push(base);
    else if (plain.length > 0) parts.push(`Pick<${base}, ${plain.join(' | ')}>`);
    if (keyed.length > 0) {
      parts.push(`{ ${keyed.map((p) => `${propertyKey(p.key!)}${p.required ? '' : '?'}: ${base}[${JSON.stringify(p.name)}]`).join('; ')} }`);
    }
  };
  const path = located('path');
  if (path.length > 0) part(`${op}["parameters"]["path"]`, path, false);
  for (const location of ['query', 'header', 'cookie']) {
    const params = located(location);
    if (params.length > 0) part(`NonNullable<${op}["parameters"][${JSON.stringify(location)}]>`, params, location === 'header');
  }
  const fields = located('body');
  if (fields.length > 0) {
    const first = operation.requestBody?.contents[0];
    const mediaType = first === undefined ? (operation.body === 'multipart' ? MULTIPART : FORM) : (first.written ?? first.mediaType);
    const body = `NonNullable<${op}["requestBody"]>["content"][${JSON.stringify(mediaType)}]`;
    const files = fields.filter((p) => p.encoding === 'file');
    const keyed = fields.filter((p) => p.key !== undefined && p.encoding !== 'file');
    const omitted = [...files, ...keyed].map((p) => JSON.stringify(p.name));
    parts.push(omitted.length === 0 ? body : `Omit<${body}, ${omitted.join(' | ')}>`);
    if (keyed.length > 0) {
      parts.push(`{ ${keyed.map((p) => `${propertyKey(p.key!)}${p.required ? '' : '?'}: ${body}[${JSON.stringify(p.name)}]`).join('; ')} }`);
    }
    if (files.length > 0) {
      // openapi-typescript types a binary part as `string`; callers pass file contents.
      parts.push(`{ ${files.map((p) => `${propertyKey(p.key ?? p.name)}${p.required ? '' : '?'}: ${p.schema.kind === 'array' ? 'UploadFile[]' : 'UploadFile'}`).join('; ')} }`);
    }
  }
  const whole = wholeBodyType(operation, op);
  if (whole !== undefined) parts.push(whole);
  return parts.length === 0 ? 'Record<string, never>' : parts.join(' & ');
}

/** `whole` mode: the body under its parameter name (optional when the body is). */
function wholeBodyType(operation: Operation, op: string): string | undefined {
  const body = operation.requestBody;
  if (body?.mode !== 'whole' || body.parameterName === undefined) return undefined;
  const content = `NonNullable<${op}["requestBody"]>["content"]`;
  const types = [...new Set(body.contents.map((c) => contentType(`${content}[${JSON.stringify(c.written ?? c.mediaType)}]`, c.kind)))];
  return `{ ${propertyKey(body.parameterName)}${body.required ? '' : '?'}: ${types.join(' | ')} }`;
}

/** Text safe inside a `/** *\/` comment on one line. */
function docText(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ');
}
