/**
 * The worker thread of `thread.ts`: loads TypeScript and openapi-typescript
 * at once (while the main thread loads the document), then answers one
 * request with the document's declarations, its operations identified as
 * the model identifies them. A failure is answered as such, without its
 * details: the main thread computes the declarations again and reports the
 * error itself.
 */
import { parentPort } from 'node:worker_threads';
import { openapiTypescriptTransform } from '../../cjs.js';
import { SourceMap } from '../../load/source-map.js';
import { findOperations } from '../../model/operations.js';
import { BuildContext } from '../../model/context.js';
import { documentDeclarations } from './declarations.js';
import type { ThreadAnswer, ThreadRequest } from './thread.js';

const port = parentPort;
if (port !== null) {
  port.once('message', ({ openapi }: ThreadRequest) => {
    let answer: ThreadAnswer;
    try {
      // Where the document has a fault the model stops at, the main thread reports it: no places are needed here.
      const ctx = new BuildContext(openapi, new SourceMap('', ''));
      const operations = findOperations(ctx, openapi).map(({ path, method, id }) => ({ path, method, id }));
      answer = { declarations: documentDeclarations(openapi, operations, true), operations };
    } catch {
      answer = { failed: true };
    }
    port.postMessage(answer);
    port.close();
  });
  openapiTypescriptTransform();
}
