import type { PublicSettings } from '@contract/settings.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client.ts';
import { apiRoutes } from './api-routes.ts';

/** Query key of the public branding; invalidate it after the admin saves settings or a logo. */
export const publicSettingsKey = ['public-settings'] as const;

export function getPublicSettings(): Promise<PublicSettings> {
  return apiCall(apiRoutes.publicSettings);
}

/**
 * Company name, logo, welcome message, support e-mail: read by sidebars and the login page.
 * Re-read every minute and when the tab regains focus, so a new logo or name shows without a
 * rebuild or a reload.
 */
export function usePublicSettings() {
  return useQuery({
    queryKey: publicSettingsKey,
    queryFn: getPublicSettings,
    staleTime: 30_000,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
}
