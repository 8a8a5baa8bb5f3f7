/**
 * Uses of the committed `generated/query.ts` that must type-check against
 * `@tanstack/query-core` (`types.test.ts` compiles this file with strict
 * options); each `@ts-expect-error` must really be an error.
 */
import {
  QueryClient,
  type DataTag,
  type MutationObserverOptions,
  type QueryKey,
  type QueryObserverOptions,
} from '@tanstack/query-core';
import { connect } from '../../../../generated/client/connect.js';
import type { GetMessageResponse, GetOwnUserResponse, UpdateStatusResponse } from '../../../../generated/types.js';
import {
  getMessageQueryKey,
  getMessageQueryOptions,
  getOwnUserQueryOptions,
  updateStatusMutationOptions,
  createVideoCallMutationOptions,
  type ClientError,
  type GetMessageQueryKey,
  type GetOwnUserQueryKey,
} from '../../../../generated/query.js';

const connection = connect({ baseUrl: 'http://127.0.0.1:9991', email: 'member@example.com', apiKey: 'key' });
const client = new QueryClient();

// What the adapters' useQuery / createQuery take is query-core's QueryObserverOptions.
export const read: QueryObserverOptions<GetMessageResponse, ClientError, GetMessageResponse, GetMessageResponse, GetMessageQueryKey> = getMessageQueryOptions(connection, {
  message_id: 1,
});
// Options spread with more of TanStack Query's own.
export const spread: QueryObserverOptions<GetMessageResponse, ClientError, string, GetMessageResponse, GetMessageQueryKey> = {
  ...getMessageQueryOptions(connection, { message_id: 1 }, { headers: { 'x-trace': '1' } }),
  staleTime: 60_000,
  select: (data) => data.message.content,
};
export const noParams: QueryObserverOptions<GetOwnUserResponse, ClientError, GetOwnUserResponse, GetOwnUserResponse, GetOwnUserQueryKey> = getOwnUserQueryOptions(connection);
// Any query key, as `queryClient.invalidateQueries` takes it.
export const anyKey: QueryKey = getOwnUserQueryOptions(connection).queryKey;

// The adapters infer data and error types from the options, as this signature (react-query's useQuery, in short) does.
declare function useQuery<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  options: QueryObserverOptions<TQueryFnData, TError, TData, TQueryFnData, TQueryKey>,
): { data: TData | undefined; error: TError | null };
const inferred = useQuery(getMessageQueryOptions(connection, { message_id: 1 }));
export const inferredData: GetMessageResponse | undefined = inferred.data;
export const inferredError: ClientError | null = inferred.error;
// @ts-expect-error -- the inferred error is the client's, not any Error
export const notAnyError: null | { notAnError: true } = inferred.error;
declare function useMutation<TData, TError, TVariables>(options: MutationObserverOptions<TData, TError, TVariables>): { mutate(variables: TVariables): void; error: TError | null };
const mutation = useMutation(updateStatusMutationOptions(connection));
mutation.mutate({ status_text: 'away' });
export const mutationError: ClientError | null = mutation.error;

// And MutationObserverOptions what their useMutation / createMutation take.
export const write: MutationObserverOptions<UpdateStatusResponse, ClientError, { status_text?: string }> = updateStatusMutationOptions(connection);

// The key is tagged: cached data and errors read back typed.
const key: DataTag<readonly ['get-message', { message_id: number }], GetMessageResponse, ClientError> = getMessageQueryKey({ message_id: 1 });
const cached: GetMessageResponse | undefined = client.getQueryData(key);
const state = client.getQueryState(getMessageQueryKey({ message_id: 1 }));
const failure: ClientError | null | undefined = state?.error;

async function use(): Promise<void> {
  const fetched: GetMessageResponse = await client.fetchQuery(getMessageQueryOptions(connection, { message_id: 1 }));
  const content: string = fetched.message.content;
  const done: UpdateStatusResponse = await client.getMutationCache().build(client, updateStatusMutationOptions(connection)).execute({ status_text: 'away' });
  // An operation without required parameters: the mutation takes none.
  await client.getMutationCache().build(client, createVideoCallMutationOptions(connection)).execute();
  void [content, done];
  // @ts-expect-error -- message_id is required
  getMessageQueryOptions(connection, {});
  // @ts-expect-error -- message_id is a number
  getMessageQueryKey({ message_id: '1' });
  // @ts-expect-error -- status_text is a string
  await client.getMutationCache().build(client, updateStatusMutationOptions(connection)).execute({ status_text: 1 });
  // @ts-expect-error -- the data of a read is its success body
  const wrong: string = await client.fetchQuery(getMessageQueryOptions(connection, { message_id: 1 }));
  void wrong;
}

export const uses = [use, cached, failure];
