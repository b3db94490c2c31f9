import type { AdminRangeStats } from '@contract/reports.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';
import { adminStatsKey } from './get-admin-stats.ts';

export type RangeStatsParams = EndpointQuery<typeof apiRoutes.admin.rangeStats>;

export function getRangeStats(query: RangeStatsParams): Promise<AdminRangeStats> {
  return apiCall(apiRoutes.admin.rangeStats, { query });
}

/**
 * GET /api/v1/admin/stats/range: payouts and calls over the picked days (network zone); off
 * (`enabled` false) while the dashboard shows any date. The last answer stays while the next loads.
 */
export function useRangeStats(query: RangeStatsParams, enabled: boolean) {
  return useQuery({
    queryKey: [...adminStatsKey, 'range', query],
    queryFn: () => getRangeStats(query),
    enabled,
    placeholderData: keepPreviousData,
  });
}
