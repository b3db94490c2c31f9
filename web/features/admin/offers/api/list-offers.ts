import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type OfferListParams = EndpointQuery<typeof apiRoutes.admin.offers>;

/** Every admin offers query starts with this key; invalidate it after any change. */
export const offersKey = ['admin', 'offers'] as const;

/** GET /api/v1/admin/offers: one page, searched, filtered and sorted on the server. */
export function useOffers(params: OfferListParams) {
  return useListQuery(offersKey, apiRoutes.admin.offers, params);
}
