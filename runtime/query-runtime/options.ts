/**
 * Query and mutation options of one operation: plain objects of the shapes
 * `@tanstack/query-core`'s observers read.
 */
import type {
  AnyDataTag,
  InferDataFromTag,
  InferErrorFromTag,
  MutationFunctionContext,
  MutationObserverOptions,
  QueryFunctionContext,
  QueryKey,
  QueryObserverOptions,
} from '@tanstack/query-core';
import { joinSignals } from './signals.js';

/** The `queryKey` and `queryFn` of one read, assignable wherever query-core's `QueryObserverOptions` is taken. */
export type OperationQueryOptions<K extends QueryKey & AnyDataTag> = QueryObserverOptions<
  InferDataFromTag<unknown, K>,
  InferErrorFromTag<unknown, K>,
  InferDataFromTag<unknown, K>,
  InferDataFromTag<unknown, K>,
  K
> & {
  queryKey: K;
  queryFn: (context: QueryFunctionContext<K>) => Promise<InferDataFromTag<unknown, K>>;
};

/** The `mutationKey` and `mutationFn` of one write, assignable wherever query-core's `MutationObserverOptions` is taken. */
export type OperationMutationOptions<Id extends string, V, TData, TError> = MutationObserverOptions<TData, TError, V> & {
  mutationKey: readonly [Id];
  mutationFn: (variables: V, context: MutationFunctionContext) => Promise<TData>;
};

/**
 * Options of one read: `queryFn` hands the operation the `signal` TanStack
 * Query gives it, so cancelling the query aborts the request. A `signal`
 * the caller put in the request options aborts it too.
 */
export function operationQueryOptions<K extends QueryKey & AnyDataTag, O extends { signal?: AbortSignal }>(
  queryKey: K,
  options: O | undefined,
  call: (options: O) => Promise<InferDataFromTag<unknown, K>>,
): OperationQueryOptions<K> {
  return {
    queryKey,
    queryFn: ({ signal }) => {
      const joined = joinSignals(options?.signal, signal);
      return call({ ...options, signal: joined.signal } as O).finally(joined.release);
    },
  };
}

/** Options of one write: the key is the operation's id, so `isMutating({ mutationKey })` can count its calls. */
export function operationMutationOptions<Id extends string, V, TData, TError>(
  id: Id,
  call: (variables: V) => Promise<TData>,
): OperationMutationOptions<Id, V, TData, TError> {
  return {
    mutationKey: [id],
    mutationFn: (variables) => call(variables),
  };
}
