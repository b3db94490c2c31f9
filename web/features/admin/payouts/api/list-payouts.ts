import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type PayoutListParams = EndpointQuery<typeof apiRoutes.admin.payouts>;
/** The payouts list's filters and sort (also what the CSV export takes). */
export type PayoutFilterParams = EndpointQuery<typeof apiRoutes.admin.payoutsCsv>;

/** Every admin payouts query starts with this key; invalidate it after any change. */
export const payoutsKey = ['admin', 'payouts'] as const;

/** GET /api/v1/admin/payouts: one page with publisher names, newest first by default. */
export function usePayouts(params: PayoutListParams) {
  return useListQuery(payoutsKey, apiRoutes.admin.payouts, params);
}
