import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

export type PayoutsQuery = EndpointQuery<typeof apiRoutes.publisher.payouts>;

/** The publisher's own payouts, sorted on the server (newest first by default). */
export function usePayouts(query: PayoutsQuery) {
  return useListQuery(publisherKeys.payouts, apiRoutes.publisher.payouts, query);
}
