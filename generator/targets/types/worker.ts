/**
 * openapi-typescript's declarations in a worker thread. Loading TypeScript
 * and openapi-typescript and running the transform are most of the `types`
 * target's time and need nothing but the document, so the pipeline starts
 * the worker (`warmDeclarations`) before it loads the spec: the modules load
 * on the second core while the spec is loaded and modelled, and the
 * transform runs while the targets after `types` run. Only the compiled
 * package uses a worker (a thread cannot run the TypeScript sources tests
 * import); without a warm worker, or when it fails to start, the transform
 * runs in this thread. Either way the text is the same.
 */
import { Worker } from 'node:worker_threads';
import type { OpenAPI3 } from 'openapi-typescript';
import { declarations, type TransformOptions } from './transform.js';

export interface DeclarationsRequest {
  document: OpenAPI3;
  options: TransformOptions;
}

export type DeclarationsReply = { text: string } | { error: string };

const WORKER_URL = new URL('./declarations-worker.js', import.meta.url);

/** The worker started for the next run of the target, not yet handed a document. */
let warm: Worker | undefined;

/** Starts the worker the next `declarationsOf` will use, when running compiled; a no-op otherwise or when one is waiting. */
export function warmDeclarations(): void {
  if (warm !== undefined || !import.meta.url.endsWith('.js')) return;
  let worker: Worker;
  try {
    worker = new Worker(WORKER_URL);
  } catch {
    return;
  }
  warm = worker;
  // A run that stops before the types target (a spec error) must not wait for the worker.
  worker.unref();
  // Until it is handed a document, a failing worker only means the transform runs here.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    if (warm === worker) warm = undefined;
  });
}

/** The declarations of `document`: in the warm worker when there is one, else in this thread. */
export async function declarationsOf(document: OpenAPI3, options: TransformOptions): Promise<string> {
  const worker = warm;
  warm = undefined;
  if (worker === undefined) return declarations(document, options);
  const reply = await new Promise<DeclarationsReply | undefined>((resolve) => {
    worker.ref();
    worker.once('message', (message: DeclarationsReply) => resolve(message));
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
    worker.postMessage({ document, options } satisfies DeclarationsRequest);
  });
  if (reply === undefined) return declarations(document, options);
  if ('error' in reply) throw new Error(reply.error);
  return reply.text;
}
