import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type BuyerListParams = EndpointQuery<typeof apiRoutes.admin.buyers>;

/** Every admin buyers query starts with this key; invalidate it after any change. */
export const buyersKey = ['admin', 'buyers'] as const;

/** GET /api/v1/admin/buyers: one page, filtered and sorted on the server. */
export function useBuyers(params: BuyerListParams) {
  return useListQuery(buyersKey, apiRoutes.admin.buyers, params);
}
