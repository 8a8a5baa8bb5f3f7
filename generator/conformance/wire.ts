/**
 * How a conformance request travels: the client runtime's serialisation
 * (every parameter location and style, form, multipart and whole bodies),
 * reached through this one module, and the operation table it reads, made
 * from the model as the client target writes it.
 */
import { buildRequest, withoutNewerFields, type OperationSpec, type ParamSpec } from '../../runtime/client-runtime.js';
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
    method: operation.method.toUpperCase() as OperationSpec['method'],
    path: operation.path,
    security: operation.security,
    body: body?.mode === 'whole' ? 'none' : operation.body,
    ...(body?.mode === 'whole' && {
      requestBody: {
        param: body.parameterName ?? 'body',
        required: body.required,
        contents: body.contents.map((content) => ({
          mediaType: content.mediaType,
          kind: content.kind,
          ...(content.fields !== undefined && { fields: content.fields.map((field) => paramSpec(field, content.partContentTypes)) }),
        })),
      },
    }),
    success: operation.success.status,
    responses,
    params: operation.parameters.map((parameter) => paramSpec(parameter, partTypes)),
  };
}

export function paramSpec(parameter: Parameter, partTypes: Record<string, string> | undefined): ParamSpec {
  const partType = parameter.location === 'body' ? partTypes?.[parameter.name] : undefined;
  return {
    name: parameter.name,
    ...(parameter.key !== undefined && { key: parameter.key }),
    in: parameter.location,
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
  const built = buildRequest(operation.id, spec, values);
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
