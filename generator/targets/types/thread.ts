/**
 * The `types` target's declarations computed in a worker thread, so that
 * loading TypeScript and openapi-typescript, their transform and printing
 * (most of a large document's run) overlap loading, modelling, the other
 * targets and writing on the main thread (decision 0031). The worker is
 * started before the document is loaded (`Target.warmUp`) and loads the
 * packages while the main thread reads the spec; it is handed the document
 * as loaded, before the model is built from it, finds the operations and
 * their ids as the model does (`findOperations`), and answers once. The
 * target uses the answer only if those ids are the model's.
 *
 * It is used only when it can pay: from the compiled package (a worker runs
 * JavaScript), for a large document, with a core free for it (below).
 * Whatever goes wrong in the thread (the document cannot be posted, the
 * worker fails to start or throws), the declarations are computed again on
 * the main thread, so an error reaches the user as it would without it.
 */
import { existsSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { idleCoresSinceStart } from '../../cpu.js';
import type { DocumentDeclarations, OperationId } from './declarations.js';

/** What the main thread posts: the bundled document as loaded. */
export interface ThreadRequest {
  openapi: Record<string, unknown>;
}

/** What the worker answers: the declarations and the operation ids they used, or that it failed (the main thread then computes them itself). */
export type ThreadAnswer = { declarations: DocumentDeclarations; operations: OperationId[] } | { failed: true };

/**
 * `TEAMCHAT_TYPES_THREAD`: `off` keeps the types target on the main thread,
 * `on` uses the thread wherever it can run. Unset, the thread is used for a
 * spec of `THREAD_MIN_SPEC_BYTES` or more when a core is free for it: two
 * cores or more, and at least half a core idle on average while the command
 * started (`generator/cpu.ts`); where that was not measured (a program
 * calling the generator, no `/proc/stat`), a load average over the last
 * minute that leaves one idle. On busy cores the thread only adds its own
 * CPU time (its start-up, the document copied across) and the wait does
 * not shrink (decision 0031).
 */
const SWITCH = 'TEAMCHAT_TYPES_THREAD';

/**
 * A spec root file smaller than this leaves the target too little work to
 * share: the worker's start and its own loading of TypeScript cost about as
 * long as the whole target on the main thread (our 22-operation document,
 * about 230 KB as one JSON file). A document split into many files is judged by
 * its root file alone.
 */
export const THREAD_MIN_SPEC_BYTES = 512 * 1024;

/** Cores idle on average since the command started (`idleCoresSinceStart`) that count as one free for the thread. */
export const THREAD_MIN_IDLE_CORES = 0.5;

/**
 * Whether to use the thread, given `TEAMCHAT_TYPES_THREAD`, the spec root
 * file's size, the cores, the last minute's load average, and the cores idle
 * since the command started (undefined: not measured).
 */
export function threadWanted(setting: string | undefined, specBytes: number, cores: number, load: number, idle?: number): boolean {
  if (setting === 'off') return false;
  if (setting === 'on') return true;
  if (specBytes < THREAD_MIN_SPEC_BYTES || cores < 2) return false;
  return idle === undefined ? load <= cores - 1 : idle >= THREAD_MIN_IDLE_CORES;
}

export class TypesThread {
  readonly #worker: Worker;
  /** Settles with undefined once the worker has failed or exited without answering. */
  readonly #ended: Promise<undefined>;
  #answer: Promise<ThreadAnswer | undefined> | undefined;

  constructor(script: URL) {
    this.#worker = new Worker(script);
    // An idle worker never keeps the process alive; it is held only while a document is in it.
    this.#worker.unref();
    this.#ended = new Promise((settle) => {
      this.#worker.once('error', () => settle(undefined));
      this.#worker.once('exit', () => settle(undefined));
    });
  }

  /** Hands the worker the bundled document as loaded, before the model adds anything to it. */
  loaded(openapi: Record<string, unknown>): void {
    if (this.#answer !== undefined) return;
    this.#answer = new Promise<ThreadAnswer | undefined>((settle) => {
      this.#worker.once('message', settle);
      void this.#ended.then(settle);
    });
    try {
      this.#worker.postMessage({ openapi } satisfies ThreadRequest);
      // Held while the document is in it, so the process waits for the answer.
      this.#worker.ref();
    } catch {
      this.stop();
    }
  }

  /** The declarations, or undefined when the thread could not give them or used other operation ids than `operations` (the model's). */
  async declarations(operations: readonly OperationId[]): Promise<DocumentDeclarations | undefined> {
    const answer = await this.#answer;
    this.stop();
    if (answer === undefined || !('declarations' in answer) || !sameOperations(answer.operations, operations)) return undefined;
    return answer.declarations;
  }

  stop(): void {
    void this.#worker.terminate();
  }
}

function sameOperations(a: readonly OperationId[], b: readonly OperationId[]): boolean {
  return a.length === b.length && a.every((x, i) => x.path === b[i]!.path && x.method === b[i]!.method && x.id === b[i]!.id);
}

/** A worker for the declarations of the spec at `spec`, or undefined where one would not pay or cannot run. */
export function startTypesThread(spec: string): TypesThread | undefined {
  const size = statSync(spec, { throwIfNoEntry: false })?.size ?? 0;
  const cores = availableParallelism();
  if (!threadWanted(process.env[SWITCH], size, cores, loadavg()[0]!, idleCoresSinceStart(cores))) return undefined;
  const script = new URL('./worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.js') || !existsSync(fileURLToPath(script))) return undefined;
  try {
    return new TypesThread(script);
  } catch {
    return undefined;
  }
}
