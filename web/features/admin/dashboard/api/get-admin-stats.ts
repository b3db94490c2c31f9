import type { AdminStats } from '@contract/admin.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

export const adminStatsKey = ['admin', 'stats'] as const;

export function getAdminStats(): Promise<AdminStats> {
  return apiCall(apiRoutes.admin.stats);
}

/** GET /api/v1/admin/stats: pending publishers, pending applications, total payouts. */
export function useAdminStats() {
  return useQuery({ queryKey: adminStatsKey, queryFn: getAdminStats });
}
