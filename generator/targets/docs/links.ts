import type { Operation } from '../../model/types.js';

/** Where the docs pages live, relative to the docs folder. */
export const REFERENCE_DIR = 'reference';
export const CHANGELOG_FILE = 'changelog.md';
export const INDEX_FILE = 'index.md';
/** Named types of pages that use too many to define them (`PAGE_TYPE_LIMIT`); written only then. */
export const TYPES_FILE = 'types.md';
export const REDOC_FILE = 'index.html';

export function referenceLink(operation: Operation): string {
  return `${REFERENCE_DIR}/${operation.names.file}.md`;
}
