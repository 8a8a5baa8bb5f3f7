/** Query keys: `[operationId, params]`, tagged with the data and error types of their query. */
import type { AnyDataTag, DataTag } from '@tanstack/query-core';

/**
 * A query key, `[operationId, params]`, tagged with the data and error
 * types of its query so `queryClient.getQueryData(key)` and
 * `setQueryData(key, ...)` are typed.
 */
export type OperationQueryKey<Id extends string, P, TData, TError> = DataTag<readonly [Id, P], TData, TError>;

/** The key `K` names: `[id, params]`, absent params as `{}`, so a call with none and a call with `{}` share one entry. */
export function operationQueryKey<K extends readonly [string, unknown] & AnyDataTag>(id: K[0], params: K[1] | undefined): K {
  // The tag exists only in the type: at run time the key is the plain array TanStack Query hashes.
  return [id, params ?? {}] as unknown as K;
}
