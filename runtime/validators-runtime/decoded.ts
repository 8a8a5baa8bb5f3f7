/**
 * What a request decoder returns: the typed parameters, or the BAD_REQUEST
 * error naming the parameter and the rule it broke.
 */
import type { Failure } from './failures.js';
import { mediaTypeOf } from './media-types.js';

export interface DecodeError {
  code: 'BAD_REQUEST';
  msg: string;
  parameter: string;
  rule: string;
}

export type Decoded<P> = { ok: true; value: P; unsupported: string[] } | { ok: false; error: DecodeError };

type DecodeFailure = { ok: false; error: DecodeError };

function failure(parameter: string, rule: string, msg: string): DecodeFailure {
  return { ok: false, error: { code: 'BAD_REQUEST', msg, parameter, rule } };
}

export function missing(parameter: string): DecodeFailure {
  return failure(parameter, 'required', `Missing required parameter "${parameter}"`);
}

export function repeated(parameter: string): DecodeFailure {
  return failure(parameter, 'repeated', `Invalid parameter "${parameter}": must be given only once`);
}

/** A plain value not written in its parameter's style (`label` without its dot, an odd key/value list). */
export function invalidStyle(parameter: string, style: string): DecodeFailure {
  return failure(parameter, 'style', `Invalid parameter "${parameter}": not written in ${style} style`);
}

export function invalidJson(parameter: string): DecodeFailure {
  return failure(parameter, 'json', `Invalid JSON in parameter "${parameter}"`);
}

export function wrongFileCount(parameter: string, count: number): DecodeFailure {
  return failure(parameter, 'file', `Invalid parameter "${parameter}": must be exactly one file, got ${count}`);
}

/** A failed check on a parameter; `path` locates the value inside it (`""` for the parameter itself). */
export function invalid(parameter: string, rule: string, path: string, message: string): DecodeFailure {
  const where = path === '' ? '' : (path.startsWith('.') ? path.slice(1) : path) + ' ';
  return failure(parameter, rule, `Invalid parameter "${parameter}": ${where}${message}`);
}

export function invalidFrom(parameter: string, found: Failure, prefix: string): DecodeFailure {
  return invalid(parameter, found.rule, prefix + found.path, found.message);
}

/** A whole request body sent with a media type the operation does not take (servers answer 415). */
export function unsupportedMediaType(parameter: string, mediaType: string): DecodeFailure {
  return failure(parameter, 'mediaType', `Unsupported media type "${mediaTypeOf(mediaType)}" for the request body`);
}

/** A whole text body that is not text, or a binary body that is not bytes (the caller handed over the wrong shape). */
export function wrongBodyShape(parameter: string, expected: 'text' | 'bytes'): DecodeFailure {
  return failure(parameter, 'type', `Invalid parameter "${parameter}": the body must be ${expected}`);
}
