/**
 * The request of one call, credentials aside: the path with its parameters,
 * the query string, headers, cookies, and the body its writer encodes.
 */
import type { RequestBody } from './bodies.js';
import type { CredentialTarget } from './credentials.js';
import type { ParamTarget } from './serialize.js';
import type { OperationSpec, ParamSpec } from './types.js';

export interface BuiltRequest extends CredentialTarget, ParamTarget {
  body: RequestBody | undefined;
}

/** The request of one call, credentials aside. */
export function buildRequest(spec: OperationSpec, values: Record<string, unknown>, contentType?: string): BuiltRequest {
  const name = spec.name;
  const headers: Record<string, string> = {};
  const accept = acceptHeader(spec);
  if (accept !== undefined) headers['Accept'] = accept;
  const request: BuiltRequest = { path: spec.path, query: [], headers, cookies: [], body: undefined };
  const fields: [ParamSpec, unknown][] = [];
  for (const param of spec.params) {
    const value = values[param.key ?? param.name];
    if (value === undefined) {
      if (param.in === 'path') throw new TypeError(`${name}: missing path parameter "${param.name}"`);
    } else if (param.write !== undefined) {
      param.write(request, param, value);
    } else {
      fields.push([param, value]);
    }
  }

  const encoded = spec.requestBody !== undefined ? spec.requestBody.encode(name, spec.requestBody, values[spec.requestBody.param], contentType) : spec.fields?.(fields);
  // Without a Content-Type of ours, fetch writes its own (FormData's, boundary included).
  if (encoded?.contentType !== undefined) headers['Content-Type'] = encoded.contentType;
  request.body = encoded?.body;
  return request;
}

/** `Accept`: every media type the operation's responses declare, in order; absent when none do. */
function acceptHeader(spec: OperationSpec): string | undefined {
  if (spec.responses === undefined) return 'application/json';
  const types = new Set<string>();
  for (const contents of Object.values(spec.responses)) for (const [mediaType] of contents) types.add(mediaType);
  return types.size === 0 ? undefined : [...types].join(', ');
}
