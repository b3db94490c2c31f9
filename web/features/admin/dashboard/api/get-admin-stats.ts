import { useQuery } from '@tanstack/react-query';
import type { AdminStats } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export const adminStatsKey = ['admin', 'stats'] as const;

export function getAdminStats(): Promise<AdminStats> {
  return api<AdminStats>('admin/stats');
}

/** GET /api/v1/admin/stats: pending publishers, pending applications, total payouts. */
export function useAdminStats() {
  return useQuery({ queryKey: adminStatsKey, queryFn: getAdminStats });
}
