/**
 * What the generated `query/<operation>.ts` modules build their TanStack
 * Query options with: `keys.ts` (query keys), `options.ts` (query and
 * mutation options) and `signals.ts` (a caller's signal joined with the
 * query's). Plain objects of the shapes `@tanstack/query-core` reads (and
 * its React, Vue, Solid and Svelte adapters with it), typed through
 * type-only imports, so nothing of TanStack Query loads at run time.
 */
export { operationQueryKey } from './keys.js';
export type { OperationQueryKey } from './keys.js';
export { operationMutationOptions, operationQueryOptions } from './options.js';
export type { OperationMutationOptions, OperationQueryOptions } from './options.js';
export { joinSignals } from './signals.js';
export type { JoinedSignal } from './signals.js';
