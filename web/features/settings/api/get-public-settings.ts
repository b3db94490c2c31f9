import { useQuery } from '@tanstack/react-query';
import type { PublicSettings } from '../../../../contract/settings.ts';
import { api } from '../../../lib/api-client.ts';

export const publicSettingsKey = ['public-settings'] as const;

export function getPublicSettings(): Promise<PublicSettings> {
  return api<PublicSettings>('public/settings');
}

/** Company name, logo, welcome message, support e-mail: read by sidebars and the login page. */
export function usePublicSettings() {
  return useQuery({ queryKey: publicSettingsKey, queryFn: getPublicSettings, staleTime: 60_000 });
}
