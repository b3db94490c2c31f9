import type { DailyStats } from '@contract/admin.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { unlessPrefetched } from '@/lib/prefetch.ts';
import { adminStatsKey } from './get-admin-stats.ts';

export const dailyStatsKey = (days: number) => [...adminStatsKey, 'daily', days] as const;

export function getDailyStats(days: number): Promise<DailyStats> {
  return apiCall(apiRoutes.admin.dailyStats, { query: { days } });
}

/** The query of GET /api/v1/admin/stats/daily over `days` (the hook's and the prefetch's). */
export const dailyStatsQuery = (days: number) =>
  queryOptions({
    queryKey: dailyStatsKey(days),
    queryFn: () => getDailyStats(days),
    refetchOnMount: unlessPrefetched,
  });

/** GET /api/v1/admin/stats/daily: leads and payouts per UTC day, oldest first. */
export function useDailyStats(days = 30) {
  return useQuery(dailyStatsQuery(days));
}
