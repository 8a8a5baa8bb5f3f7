/**
 * Puts the bundled document's keys in one canonical order, in place (object
 * identity is kept for the source map). Key order then carries no meaning
 * downstream, except where it is the author's: schema `properties` and data
 * values (examples, defaults, enums, consts) stay as written.
 */
import { compareStrings } from '../model/names.js';
import { walkDocument } from './walk.js';

function sortKeys(node: Record<string, unknown>): void {
  const entries = Object.entries(node).sort(([a], [b]) => compareStrings(a, b));
  for (const [key] of entries) delete node[key];
  for (const [key, value] of entries) node[key] = value;
}

export function canonicalize(document: object): void {
  walkDocument(document, {
    keywords: sortKeys,
    names: (node, parentKey) => {
      if (parentKey !== 'properties') sortKeys(node);
    },
  });
}
