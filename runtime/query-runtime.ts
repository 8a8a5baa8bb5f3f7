/**
 * What the generated `query.ts` builds its TanStack Query options with:
 * plain objects of the shapes `@tanstack/query-core` reads (and its React,
 * Vue, Solid and Svelte adapters with it), typed through type-only imports,
 * so this module loads nothing of TanStack Query at run time.
 */
import type {
  AnyDataTag,
  DataTag,
  InferDataFromTag,
  InferErrorFromTag,
  MutationFunctionContext,
  MutationObserverOptions,
  QueryFunctionContext,
  QueryKey,
  QueryObserverOptions,
} from '@tanstack/query-core';

/**
 * A query key, `[operationId, params]`, tagged with the data and error
 * types of its query so `queryClient.getQueryData(key)` and
 * `setQueryData(key, ...)` are typed.
 */
export type OperationQueryKey<Id extends string, P, TData, TError> = DataTag<readonly [Id, P], TData, TError>;

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

/** The key `K` names: `[id, params]`, absent params as `{}`, so a call with none and a call with `{}` share one entry. */
export function operationQueryKey<K extends readonly [string, unknown] & AnyDataTag>(id: K[0], params: K[1] | undefined): K {
  // The tag exists only in the type: at run time the key is the plain array TanStack Query hashes.
  return [id, params ?? {}] as unknown as K;
}

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

/** A signal of a request, and what to call once the request has settled. */
export interface JoinedSignal {
  signal: AbortSignal;
  release(): void;
}

/**
 * A signal that aborts when either does, with the reason of the first to
 * abort; needed only when the caller gives a signal too. `AbortSignal.any`
 * where the platform has it (Node 20.3, browsers since 2024); elsewhere
 * (Node 18, older browsers) a controller that listeners on both signals
 * abort, listeners that `release` removes, so that a long-lived signal of
 * the caller does not keep one per query it was given to.
 */
export function joinSignals(mine: AbortSignal | undefined, theirs: AbortSignal): JoinedSignal {
  if (mine === undefined || mine === theirs) return { signal: theirs, release: nothing };
  if (typeof AbortSignal.any === 'function') return { signal: AbortSignal.any([mine, theirs]), release: nothing };
  const controller = new AbortController();
  const signals = [mine, theirs];
  const release = (): void => signals.forEach((signal) => signal.removeEventListener('abort', abort));
  const abort = (event: Event): void => {
    release();
    controller.abort((event.target as AbortSignal).reason);
  };
  const first = signals.find((signal) => signal.aborted);
  if (first !== undefined) controller.abort(first.reason);
  else signals.forEach((signal) => signal.addEventListener('abort', abort));
  return { signal: controller.signal, release };
}

function nothing(): void {}
