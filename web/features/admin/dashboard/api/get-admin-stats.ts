import type { AdminStats } from '@contract/admin.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { unlessPrefetched } from '@/lib/prefetch.ts';

export const adminStatsKey = ['admin', 'stats'] as const;

export function getAdminStats(): Promise<AdminStats> {
  return apiCall(apiRoutes.admin.stats);
}

/** The query of GET /api/v1/admin/stats (the hook's, and the first load's prefetch). */
export const adminStatsQuery = queryOptions({
  queryKey: adminStatsKey,
  queryFn: getAdminStats,
  refetchOnMount: unlessPrefetched,
});

/** GET /api/v1/admin/stats: pending publishers, pending applications, total payouts. */
export function useAdminStats() {
  return useQuery(adminStatsQuery);
}
