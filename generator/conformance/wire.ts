/**
 * How a conformance request travels: the client runtime's serialisation
 * (every parameter location and style, form, multipart and whole bodies),
 * reached through this one module, and the operation table it reads, made
 * from the model as the client target writes it.
 */
import { binaryBody, formBody, formFields, jsonBody, multipartBody, multipartFields, textBody, wholeBody, type WholeBodyWriter } from '../../runtime/client/bodies.js';
import { withoutNewerFields } from '../../runtime/client/checks.js';
import { buildRequest } from '../../runtime/client/request.js';
import { cookieParam, headerParam, pathParam, queryParam, styledPathParam, styledQueryParam, type ParamWriter } from '../../runtime/client/serialize.js';
import type { OperationSpec, ParamSpec } from '../../runtime/client/types.js';
import type { Operation, OperationError, Parameter, ResponseModel } from '../model/types.js';

export { buildRequest, withoutNewerFields };
export type { OperationSpec, ParamSpec };

/** A request ready to send and to print: every byte decided. */
export interface WireRequest {
  method: string;
  /** Absolute URL, query string included. */
  url: string;
  /** Header names as sent; credentials are not among them (see `Credentials`). */
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
}

/** The client runtime's operation table entry for `operation`. */
export function operationSpec(operation: Operation): OperationSpec {
  const body = operation.requestBody;
  const partTypes = body?.mode === 'fields' ? body.contents.find((content) => content.kind === 'multipart')?.partContentTypes : undefined;
  const responses: Record<string, readonly (readonly [string, 'json' | 'text' | 'binary'])[]> = {};
  for (const response of [...operation.successes, ...operation.errors] as (ResponseModel | OperationError)[]) {
    const key = response.statusText ?? String(response.status);
    responses[key] ??= response.contents.map((content) => [content.mediaType, content.kind] as const);
  }
  return {
    name: operation.id,
    method: operation.method.toUpperCase() as OperationSpec['method'],
    path: operation.path,
    ...(body?.mode !== 'whole' && operation.body !== 'none' && { fields: operation.body === 'multipart' ? multipartFields : formFields }),
    ...(body?.mode === 'whole' && {
      requestBody: {
        encode: wholeBody,
        param: body.parameterName ?? 'body',
        required: body.required,
        contents: body.contents.map((content) => ({
          mediaType: content.mediaType,
          write: BODY_WRITERS[content.kind],
          ...(content.fields !== undefined && { fields: content.fields.map((field) => paramSpec(field, content.partContentTypes)) }),
        })),
      },
    }),
    success: operation.success.status,
    responses,
    params: operation.parameters.map((parameter) => paramSpec(parameter, partTypes)),
  };
}

/** The runtime's writer of each whole-body kind, as the client target names them. */
const BODY_WRITERS: Record<'json' | 'text' | 'form' | 'multipart' | 'binary', WholeBodyWriter> = { json: jsonBody, text: textBody, form: formBody, multipart: multipartBody, binary: binaryBody };

/** The runtime's writer of a parameter's location and style (body fields have none). */
function paramWriter(parameter: Parameter): ParamWriter | undefined {
  const styled = parameter.encoding === 'plain' && parameter.style !== undefined && parameter.style !== 'simple' && parameter.style !== 'form';
  switch (parameter.location) {
    case 'path':
      return styled ? styledPathParam : pathParam;
    case 'query':
      return styled ? styledQueryParam : queryParam;
    case 'header':
      return headerParam;
    case 'cookie':
      return cookieParam;
    default:
      return undefined;
  }
}

export function paramSpec(parameter: Parameter, partTypes: Record<string, string> | undefined): ParamSpec {
  const partType = parameter.location === 'body' ? partTypes?.[parameter.name] : undefined;
  const write = paramWriter(parameter);
  return {
    name: parameter.name,
    ...(parameter.key !== undefined && { key: parameter.key }),
    in: parameter.location,
    ...(write !== undefined && { write }),
    encoding: parameter.encoding,
    ...(parameter.style !== undefined && { style: parameter.style }),
    ...(parameter.explode !== undefined && { explode: parameter.explode }),
    ...(parameter.allowReserved === true && { allowReserved: true }),
    ...(partType !== undefined && { contentType: partType }),
  };
}

/**
 * The request of `values` as bytes: the runtime's request, its body read
 * through a Fetch `Request` (so a multipart body gets its boundary here, once,
 * and the curl reproduction sends the same bytes).
 */
export async function wireRequest(root: string, operation: Operation, spec: OperationSpec, values: Record<string, unknown>): Promise<WireRequest> {
  const built = buildRequest(spec, values);
  const query = built.query.length > 0 ? `?${built.query.join('&')}` : '';
  const url = `${root}${operation.basePath}${built.path}${query}`;
  const headers: Record<string, string> = { ...built.headers };
  if (built.cookies.length > 0) headers['Cookie'] = built.cookies.join('; ');
  if (built.body === undefined) return { method: spec.method, url, headers };
  const request = new Request(url, { method: 'POST', body: built.body, headers: built.headers });
  const type = request.headers.get('content-type');
  if (type !== null) headers['Content-Type'] = type;
  return { method: spec.method, url, headers, body: new Uint8Array(await request.arrayBuffer()) };
}
