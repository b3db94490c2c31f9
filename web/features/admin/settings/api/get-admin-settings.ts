import type { AdminSettings } from '@contract/admin.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

export const adminSettingsKey = ['admin', 'settings'] as const;

export function getAdminSettings(): Promise<AdminSettings> {
  return apiCall(apiRoutes.admin.settings);
}

/** GET /api/v1/admin/settings: every field of the single settings row. */
export function useAdminSettings() {
  return useQuery({ queryKey: adminSettingsKey, queryFn: getAdminSettings });
}
