/**
 * The worker thread of `worker.ts`: loads TypeScript and openapi-typescript
 * as soon as it starts, then turns the one document it is sent into
 * declarations and ends.
 */
import { parentPort } from 'node:worker_threads';
import { openapiTypescriptTransform } from '../../cjs.js';
import type { DeclarationsReply, DeclarationsRequest } from './worker.js';
import { declarations } from './transform.js';

openapiTypescriptTransform();
const port = parentPort!;
port.once('message', ({ document, options }: DeclarationsRequest) => {
  let reply: DeclarationsReply;
  try {
    reply = { text: declarations(document, options) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
  port.close();
});
