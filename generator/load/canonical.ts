/**
 * Puts the bundled document's keys in one canonical order, in place (object
 * identity is kept for the source map). Key order then carries no meaning
 * downstream, except where it is the author's: schema `properties` and data
 * values (examples, defaults, enums, consts) stay as written.
 */
import { compareStrings } from '../model/names.js';
import { walkDocument } from './walk.js';

function sortKeys(node: Record<string, unknown>): void {
  if (inOrder(node)) return;
  const entries = Object.entries(node).sort(([a], [b]) => compareStrings(a, b));
  for (const [key] of entries) delete node[key];
  for (const [key, value] of entries) node[key] = value;
}

/** Whether the keys already come in canonical order (most do in a document written by a program): nothing to move. */
function inOrder(node: Record<string, unknown>): boolean {
  let previous: string | undefined;
  for (const key in node) {
    if (previous !== undefined && compareStrings(previous, key) > 0) return false;
    previous = key;
  }
  return true;
}

export function canonicalize(document: object): void {
  walkDocument(document, {
    keywords: sortKeys,
    names: (node, parentKey) => {
      if (parentKey !== 'properties') sortKeys(node);
    },
  });
}
