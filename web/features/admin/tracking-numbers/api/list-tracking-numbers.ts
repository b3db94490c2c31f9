import { useListQuery } from '@/lib/api-queries.ts';
import type { EndpointQuery } from '@/lib/api-routes.ts';
import { trackingNumberRoutes, trackingNumbersKey } from './tracking-number-routes.ts';

export type TrackingNumberListParams = EndpointQuery<typeof trackingNumberRoutes.list>;

/** GET /api/v1/admin/tracking-numbers: one page, newest first, searched by digits or name. */
export function useTrackingNumbers(params: TrackingNumberListParams) {
  return useListQuery(trackingNumbersKey, trackingNumberRoutes.list, params);
}
