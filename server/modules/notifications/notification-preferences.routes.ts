import {
  NotificationPreferences,
  UpdateNotificationPreferences,
} from '../../../contract/notifications.ts';
import { adminDoc, errorReplies } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from './notification-preferences.service.ts';

/** /api/v1/admin/notification-preferences: which events e-mail the signed-in admin. */
export const adminNotificationPreferencesRoutes = kitPlugin(adminDoc, (admin) => {
  admin.route('GET', '/notification-preferences', { reply: NotificationPreferences }, async (req) =>
    getNotificationPreferences(admin.own(req)),
  );
  admin.route(
    'PUT',
    '/notification-preferences',
    {
      body: UpdateNotificationPreferences,
      reply: NotificationPreferences,
      errors: errorReplies(400),
    },
    async (req) => updateNotificationPreferences({ ...admin.own(req), input: req.body }),
  );
});
