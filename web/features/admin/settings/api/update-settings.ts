import type { AdminSettings, UpdateSettings } from '@contract/admin.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publicSettingsKey } from '@/lib/public-settings.ts';
import { adminSettingsKey } from './get-admin-settings.ts';

export function updateSettings(body: UpdateSettings): Promise<AdminSettings> {
  return apiCall(apiRoutes.admin.updateSettings, { body });
}

/**
 * PATCH /api/v1/admin/settings. The public branding query is refreshed too, so every sidebar
 * and the login title show the new company name at once.
 */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(adminSettingsKey, saved);
      return queryClient.invalidateQueries({ queryKey: publicSettingsKey });
    },
  });
}
