import type {
  NotificationPreferences,
  UpdateNotificationPreferences,
} from '@contract/notifications.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useGet } from '@/lib/api-queries.ts';
import { get, put } from '@/lib/api-routes.ts';

/** Outside web/lib/api-routes.ts on purpose: that file is in the /login bundle. */
const preferencesRoute = {
  get: get<NotificationPreferences>('admin/notification-preferences'),
  put: put<NotificationPreferences, undefined, UpdateNotificationPreferences>(
    'admin/notification-preferences',
  ),
} as const;

export const notificationPreferencesKey = ['admin', 'notification-preferences'] as const;

/** GET /api/v1/admin/notification-preferences: which events e-mail the signed-in admin. */
export const useNotificationPreferences = () =>
  useGet(notificationPreferencesKey, preferencesRoute.get);

/** PUT: saves the choices; the answer is the whole set. */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateNotificationPreferences) => apiCall(preferencesRoute.put, { body }),
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesKey, saved),
  });
}
