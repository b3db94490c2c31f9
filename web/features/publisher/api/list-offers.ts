import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

export type OffersQuery = EndpointQuery<typeof apiRoutes.publisher.offers>;

/** Active offers with this publisher's application status; the previous page stays while paging. */
export function useOffers(query: OffersQuery) {
  return useListQuery(publisherKeys.offers, apiRoutes.publisher.offers, query);
}
