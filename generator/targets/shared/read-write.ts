/** Whether a document marks schemas `readOnly`/`writeOnly`: the `types` target then emits markers, and the `server` target types by them. */
import { walkDocument } from '../../load/walk.js';

/** Whether any schema of the document is `readOnly` or `writeOnly`. */
export function hasReadWrite(document: Record<string, unknown>): boolean {
  let found = false;
  walkDocument(document, {
    keywords(node) {
      if (node.readOnly === true || node.writeOnly === true) found = true;
    },
  });
  return found;
}
