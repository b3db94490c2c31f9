import type { DeliveryDetail, DeliveryList, DeliveryListQuery } from '@contract/outbound.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation, useListQuery } from '@/lib/api-queries.ts';
import { type Endpoint, get, post, type QueryOf } from '@/lib/api-routes.ts';

/**
 * One delivery log's endpoints (an admin's webhook endpoint, a publisher's postbacks as the
 * publisher or the admin sees them). Typed here, beside the hooks, as the API keys' are: only
 * signed-in screens call them and web/lib/api-routes.ts is in the /login bundle.
 */
export type DeliveryRoutes = {
  /** The query key every query of this log starts with (Replay reloads them). */
  key: readonly unknown[];
  list: Endpoint<DeliveryList, QueryOf<typeof DeliveryListQuery>>;
  detail: (id: string) => Endpoint<DeliveryDetail>;
  replay: (id: string) => Endpoint<DeliveryDetail>;
};

const enc = encodeURIComponent;

/** The routes of a log: its list path, and its deliveries' base path (detail, replay). */
export function deliveryRoutes(
  key: readonly unknown[],
  listPath: string,
  deliveriesBase: string,
): DeliveryRoutes {
  return {
    key,
    list: get(listPath),
    detail: (id) => get(`${deliveriesBase}/${enc(id)}`),
    replay: (id) => post(`${deliveriesBase}/${enc(id)}/replay`),
  };
}

/** One page of the log, newest first. */
export function useDeliveries(r: DeliveryRoutes, query: QueryOf<typeof DeliveryListQuery>) {
  return useListQuery(r.key, r.list, query);
}

/** One delivery with its attempts (request headers, answer status, first 2 KB of the body). */
export function useDelivery(r: DeliveryRoutes, id: string | null) {
  return useQuery({
    queryKey: [...r.key, 'detail', id],
    queryFn: ({ signal }) => apiCall(r.detail(id ?? ''), { signal }),
    enabled: id !== null,
  });
}

/** Sends the same request again (same webhook-id), as a new try. */
export const useReplayDelivery = (r: DeliveryRoutes) =>
  useApiMutation((id: string) => apiCall(r.replay(id)), r.key);
