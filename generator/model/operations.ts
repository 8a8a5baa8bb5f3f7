/**
 * Where the document's operations are and their ids: the first step of the
 * model, kept apart so the types target's worker thread finds them as the
 * model does without loading the rest of it (`targets/types/thread.ts`).
 */
import { isRecord } from '../load/walk.js';
import type { BuildContext, RawNode } from './context.js';
import { compareStrings } from './names.js';
import type { HttpMethod } from './types.js';

/** Method order within one path. */
const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];
const PATH_ITEM_KEYS = new Set(['parameters', 'summary', 'description', 'servers']);

/** An operation of the document where the model found it, with the id the model gives it. */
export interface FoundOperation {
  path: string;
  method: HttpMethod;
  node: RawNode;
  item: RawNode;
  id: string;
}

/**
 * The document's operations in model order (path, then method), each with
 * its path item and id. An operation without an operationId gets its
 * derived id written into the document, so the types target
 * (openapi-typescript's `operations[...]`) and the docs name it alike.
 */
export function findOperations(ctx: BuildContext, doc: RawNode): FoundOperation[] {
  const paths = doc.paths === undefined ? {} : ctx.record(doc, 'paths', 'a map of paths');
  const found: Omit<FoundOperation, 'id'>[] = [];
  for (const [path, raw] of Object.entries(paths)) {
    const item = ctx.deref(raw);
    if (!isRecord(item)) ctx.fail(paths, path, `path \`${path}\` must be a path item`);
    if (!path.startsWith('/')) ctx.fail(paths, path, `path \`${path}\` must start with /`);
    for (const [key, value] of Object.entries(item)) {
      if (METHODS.includes(key as HttpMethod)) {
        if (!isRecord(value)) ctx.fail(item, key, `\`${key}\` must be an operation`);
        found.push({ path, method: key as HttpMethod, node: value, item });
      } else if (!PATH_ITEM_KEYS.has(key) && !key.startsWith('x-') && key !== '$ref') {
        ctx.fail(item, key, `path item key \`${key}\` is not supported`);
      }
    }
  }
  found.sort((a, b) => compareStrings(a.path, b.path) || METHODS.indexOf(a.method) - METHODS.indexOf(b.method));
  const ids = operationIds(found);
  return found.map((operation, index) => {
    const id = ids[index]!;
    if (operation.node.operationId === undefined) operation.node.operationId = id;
    return { ...operation, id };
  });
}

/**
 * The operation names: each `operationId`, or for an operation without one
 * `<method>-<path words>` (`{petId}` reads `by-pet-id`), given a numeric
 * suffix when it would equal another operation's name.
 */
function operationIds(found: readonly { path: string; method: HttpMethod; node: RawNode }[]): string[] {
  const taken = new Set(found.map((f) => f.node.operationId).filter((id): id is string => typeof id === 'string'));
  return found.map(({ path, method, node }) => {
    if (typeof node.operationId === 'string') return node.operationId;
    const words = path
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => segment.replace(/\{([^}]*)\}/g, ' by $1 ').replace(/([a-z0-9])([A-Z])/g, '$1 $2'))
      .join(' ')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '');
    const base = [method, ...words].join('-');
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    taken.add(id);
    return id;
  });
}
