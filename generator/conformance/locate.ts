/**
 * Where the document says what a failure is measured against: the node of
 * the bundled document (an operation's responses, a response's content, the
 * schema at a JSON path of the body) and its file and line.
 */
import type { SourceMap } from '../load/index.js';
import type { Operation } from '../model/types.js';

type Node = Record<string, unknown>;

export interface Place {
  file: string;
  line?: number;
}

export class Locator {
  private readonly operations = new Map<string, Node>();

  constructor(
    private readonly document: Node,
    private readonly sources: SourceMap,
  ) {
    const paths = isRecord(document.paths) ? document.paths : {};
    for (const item of Object.values(paths)) {
      if (!isRecord(item)) continue;
      for (const operation of Object.values(item)) if (isRecord(operation) && typeof operation.operationId === 'string') this.operations.set(operation.operationId, operation);
    }
  }

  place(node: unknown, key?: string): Place {
    const at = this.sources.locate(node, key);
    const line = at.line;
    return line === undefined ? { file: at.file } : { file: at.file, line };
  }

  operationNode(operation: Operation): Node | undefined {
    return this.operations.get(operation.id);
  }

  /** The operation's `responses`. */
  responses(operation: Operation): Place {
    const node = this.operationNode(operation);
    return node === undefined ? operation.source : this.place(node, 'responses');
  }

  /** The operation's `security`, else the document's. */
  security(operation: Operation): Place {
    const node = this.operationNode(operation);
    if (node !== undefined && node.security !== undefined) return this.place(node, 'security');
    return this.place(this.document, 'security');
  }

  /** The response a status selects (exact, range, default). */
  response(operation: Operation, status: number): Node | undefined {
    const responses = this.operationNode(operation)?.responses;
    if (!isRecord(responses)) return undefined;
    const found = responses[String(status)] ?? responses[`${String(status).charAt(0)}XX`] ?? responses.default;
    return isRecord(found) ? this.deref(found) : undefined;
  }

  /** The response's `content` (else the response). */
  content(operation: Operation, status: number): Place {
    const response = this.response(operation, status);
    if (response === undefined) return this.responses(operation);
    return this.place(response, response.content === undefined ? undefined : 'content');
  }

  /** A declared response header. */
  header(operation: Operation, status: number, name: string): Place {
    const response = this.response(operation, status);
    const headers = response?.headers;
    if (!isRecord(headers)) return this.content(operation, status);
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    return key === undefined ? this.place(headers) : this.place(this.deref(headers[key]) ?? headers, undefined);
  }

  /**
   * The schema node the JSON `path` (`$.message.reactions[0].user_id`) of a
   * body of `status` and `mediaType` falls under: the deepest one the path
   * reaches through properties, items, references and compositions.
   */
  schema(operation: Operation, status: number, mediaType: string | undefined, path: string): Place {
    const response = this.response(operation, status);
    const content = response?.content;
    if (!isRecord(content)) return this.content(operation, status);
    const key = Object.keys(content).find((type) => mediaType !== undefined && type.toLowerCase() === mediaType) ?? Object.keys(content)[0];
    const media = key === undefined ? undefined : content[key];
    let node = isRecord(media) && isRecord(media.schema) ? this.deref(media.schema) : undefined;
    if (node === undefined) return this.content(operation, status);
    for (const segment of segments(path)) {
      const next = this.child(node, segment, 0);
      if (next === undefined) break;
      node = next;
    }
    return this.place(node);
  }

  private child(node: Node, segment: string | number, depth: number): Node | undefined {
    if (depth > 8) return undefined;
    if (typeof segment === 'number') {
      const prefix = Array.isArray(node.prefixItems) ? node.prefixItems[segment] : undefined;
      const items = isRecord(prefix) ? prefix : node.items;
      if (isRecord(items)) return this.deref(items);
    } else {
      const properties = node.properties;
      if (isRecord(properties) && isRecord(properties[segment])) return this.deref(properties[segment]);
      if (isRecord(node.additionalProperties)) return this.deref(node.additionalProperties);
    }
    for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
      const members = node[keyword];
      if (!Array.isArray(members)) continue;
      for (const member of members) {
        const resolved = isRecord(member) ? this.deref(member) : undefined;
        const found = resolved === undefined ? undefined : this.child(resolved, segment, depth + 1);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  }

  /** A local `$ref` followed (to a few levels). */
  private deref(node: unknown, depth = 0): Node | undefined {
    if (!isRecord(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 10) return node;
    let at: unknown = this.document;
    for (const part of ref.slice(2).split('/')) at = isRecord(at) ? at[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    return this.deref(at, depth + 1);
  }
}

/** `$.a.b[0]["c d"]` as `['a', 'b', 0, 'c d']`. */
export function segments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\['((?:[^'\\]|\\.)*)'\]/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) out.push(match[1]);
    else if (match[2] !== undefined) out.push(Number(match[2]));
    else out.push((match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
  }
  return out;
}

export function formatPlace(place: Place): string {
  return place.line === undefined ? place.file : `${place.file}:${place.line}`;
}

function isRecord(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
