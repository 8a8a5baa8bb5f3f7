/**
 * What request logs show of a request. The API reads parameters from the
 * query string for every method, so a client may put a password or an API
 * key there (fetch_api_key?password=...): the logged URL keeps the path and
 * the parameter names, never their values.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

export function requestForLog(request: FastifyRequest): Record<string, unknown> {
  const [path, query] = request.url.split('?', 2) as [string, string?];
  const names = query === undefined ? [] : [...new URLSearchParams(query).keys()];
  return {
    method: request.method,
    url: names.length === 0 ? path : `${path}?${names.join('&')}`,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Headers objects that plugins log at debug or trace level (e.g. the
 * multipart parser's busboy options) carry the Authorization header.
 */
const REDACTED = ['headers.authorization', 'headers.cookie', '*.headers.authorization', '*.headers.cookie'];

/** The logger settings with requests logged by requestForLog and credential headers redacted. */
export function withSafeRequestLog(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  const given = options.redact === undefined ? [] : Array.isArray(options.redact) ? options.redact : options.redact.paths;
  return {
    ...options,
    serializers: { ...options.serializers, req: requestForLog },
    redact: { paths: [...given, ...REDACTED], censor: '[redacted]' },
  };
}
