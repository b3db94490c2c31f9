import {
  keepPreviousData,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { apiCall } from './api-client.ts';
import {
  type Endpoint,
  type EndpointBody,
  type EndpointQuery,
  type EndpointResult,
  get,
  put,
} from './api-routes.ts';

/**
 * One page of a server list: keyed `[...key, 'list', query]` (so invalidating `key` refreshes
 * it), aborted when the query changes, and the previous page stays on screen while the next loads.
 */
export function useListQuery<E extends Endpoint>(
  key: readonly unknown[],
  endpoint: E,
  query: EndpointQuery<E>,
  options: { staleTime?: number } = {},
) {
  return useQuery({
    queryKey: [...key, 'list', query],
    queryFn: ({ signal }) => apiCall(endpoint, { query, signal }),
    placeholderData: keepPreviousData,
    ...options,
  });
}

/**
 * One GET of `endpoint` (no query), keyed `key` and aborted when no longer wanted; `options` adds
 * what that read needs beyond it (`enabled`, `refetchInterval`, `staleTime`...).
 */
export const useGet = <E extends Endpoint>(
  key: readonly unknown[],
  endpoint: E,
  options: Omit<UseQueryOptions<EndpointResult<E>>, 'queryKey' | 'queryFn'> = {},
) =>
  useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiCall(endpoint, { signal }),
    ...options,
  });

/** A write: on success the queries under `refresh` (e.g. `['admin']`) are loaded again. */
export function useApiMutation<V, R>(
  mutationFn: (vars: V) => Promise<R>,
  refresh: readonly unknown[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: refresh }),
  });
}

/** A write of `endpoint` with the body it takes: `mutate(body)`. */
export const useSend = <E extends Endpoint>(endpoint: E, refresh: readonly unknown[]) =>
  useApiMutation((body: EndpointBody<E>) => apiCall(endpoint, { body }), refresh);

/** A write to one record, `route(id)`, with the body it takes: `mutate({ id, ...body })`. */
export const useSendTo = <E extends Endpoint>(
  route: (id: string) => E,
  refresh: readonly unknown[],
) =>
  useApiMutation(
    ({ id, ...body }: { id: string } & EndpointBody<E>) =>
      apiCall(route(id), { body: body as EndpointBody<E> }),
    refresh,
  );

/**
 * One document read with GET and replaced with PUT at `path` (a settings card's): its query,
 * keyed `key`, and its save, which loads the query again. Typed by the caller, whose screen is
 * the only one to call it.
 */
export function documentHooks<Saved, Body>(path: string, key: readonly unknown[]) {
  const read = get<Saved>(path);
  const save = put<Saved, unknown, Body>(path);
  return {
    useGet: () => useGet(key, read),
    useSave: () => useApiMutation((body: Body) => apiCall(save, { body }), key),
  };
}
