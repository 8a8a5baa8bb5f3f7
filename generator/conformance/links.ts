/**
 * OpenAPI `links`: what one operation's answer gives the next. Read from the
 * bundled document; runtime expressions (`$response.body#/message/id`,
 * `$request.path.message_id`, `$response.header.Location`, constants) are
 * evaluated against a request's values and its answer.
 */
import type { Operation, Parameter } from '../model/types.js';

export interface Link {
  name: string;
  from: Operation;
  /** The status key the link is declared under (`200`, `2XX`, `default`). */
  status: string;
  to: Operation;
  /** The target's parameter and the expression (or constant) giving its value. */
  parameters: { parameter: Parameter; expression: unknown }[];
}

export function readLinks(document: Record<string, unknown>, operations: readonly Operation[]): Link[] {
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  const links: Link[] = [];
  const components = isRecord(document.components) && isRecord(document.components.links) ? document.components.links : {};
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const item of Object.values(paths)) {
    if (!isRecord(item)) continue;
    for (const raw of Object.values(item)) {
      if (!isRecord(raw) || typeof raw.operationId !== 'string' || !isRecord(raw.responses)) continue;
      const from = byId.get(raw.operationId);
      if (from === undefined) continue;
      for (const [status, response] of Object.entries(raw.responses)) {
        const declared = deref(document, response);
        if (!isRecord(declared) || !isRecord(declared.links)) continue;
        for (const [name, entry] of Object.entries(declared.links)) {
          const link = isRecord(entry) && typeof entry.$ref === 'string' ? components[entry.$ref.split('/').pop() ?? ''] : entry;
          if (!isRecord(link) || typeof link.operationId !== 'string') continue;
          const to = byId.get(link.operationId);
          if (to === undefined) continue;
          const parameters = Object.entries(isRecord(link.parameters) ? link.parameters : {}).flatMap(([key, expression]) => {
            const dot = key.indexOf('.');
            const location = dot === -1 ? undefined : key.slice(0, dot);
            const name = dot === -1 ? key : key.slice(dot + 1);
            const parameter = to.parameters.find((p) => p.name === name && (location === undefined || p.location === location)) ?? to.parameters.find((p) => p.name === key);
            return parameter === undefined ? [] : [{ parameter, expression }];
          });
          links.push({ name, from, status, to, parameters });
        }
      }
    }
  }
  return links;
}

export interface Exchange {
  values: Record<string, unknown>;
  operation: Operation;
  status: number;
  headers: Headers;
  body: unknown;
}

/** A link expression's value for one exchange; undefined when it names nothing there. */
export function evaluate(expression: unknown, exchange: Exchange): unknown {
  if (typeof expression !== 'string' || !expression.startsWith('$')) return expression;
  if (expression === '$statusCode') return exchange.status;
  const body = /^\$(response|request)\.body(?:#(.*))?$/.exec(expression);
  if (body !== null) {
    if (body[1] === 'request') return undefined;
    return pointer(exchange.body, body[2] ?? '');
  }
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header !== null) return exchange.headers.get(header[1]!) ?? undefined;
  const request = /^\$request\.(path|query|header|cookie)\.(.+)$/.exec(expression);
  if (request !== null) {
    const parameter = exchange.operation.parameters.find((p) => p.location === request[1] && p.name === request[2]);
    return parameter === undefined ? undefined : exchange.values[parameter.key ?? parameter.name];
  }
  return undefined;
}

/** JSON Pointer (RFC 6901) into a value. */
function pointer(value: unknown, path: string): unknown {
  if (path === '' || path === '/') return path === '' ? value : isRecord(value) ? value[''] : undefined;
  let at = value;
  for (const raw of path.slice(1).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isRecord(at)) at = at[key];
    else return undefined;
  }
  return at;
}

function deref(document: Record<string, unknown>, node: unknown): unknown {
  if (!isRecord(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return node;
  let at: unknown = document;
  for (const part of node.$ref.slice(2).split('/')) at = isRecord(at) ? at[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  return at;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
