/** The spec's operations as the acceptance tests need them, read from the bundled document (not the generator's model). */
import { loadBundled, operations } from '../spec/document.js';

export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  tags: string[];
}

export async function specOperations(): Promise<SpecOperation[]> {
  const { doc } = await loadBundled();
  return operations(doc)
    .map(({ operationId, method, path, operation }) => ({
      operationId,
      method,
      path,
      summary: typeof operation.summary === 'string' ? operation.summary : '',
      tags: Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    }))
    .sort((a, b) => (a.operationId < b.operationId ? -1 : 1));
}

/** Every operation the API description defines; the suites assert they cover this many. */
export const OPERATION_COUNT = 22;
