import { useQuery } from '@tanstack/react-query';
import type { AdminSettings } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export const adminSettingsKey = ['admin', 'settings'] as const;

export function getAdminSettings(): Promise<AdminSettings> {
  return api<AdminSettings>('admin/settings');
}

/** GET /api/v1/admin/settings: every field of the single settings row. */
export function useAdminSettings() {
  return useQuery({ queryKey: adminSettingsKey, queryFn: getAdminSettings });
}
