import { posix } from 'node:path';
import type { Operation } from '../../model/types.js';

/** Where the docs pages live, relative to the docs folder. */
export const REFERENCE_DIR = 'reference';
export const CHANGELOG_FILE = 'changelog.md';
export const INDEX_FILE = 'index.md';
/** Named types of pages that use too many to define them (`PAGE_TYPE_LIMIT`); written only then. */
export const TYPES_FILE = 'types.md';
export const REDOC_FILE = 'index.html';
/** The stylesheet every HTML page shares. */
export const STYLESHEET_FILE = 'style.css';

export function referenceLink(operation: Operation): string {
  return `${REFERENCE_DIR}/${operation.names.file}.md`;
}

/**
 * The HTML page of a markdown page (paths relative to the docs folder): the
 * same name with `.html`, except the index, whose name the Redocly page
 * holds; it becomes the reference folder's index.
 */
export function htmlPathOf(markdownPath: string): string {
  if (markdownPath === INDEX_FILE) return posix.join(REFERENCE_DIR, 'index.html');
  return markdownPath.replace(/\.md$/, '.html');
}
