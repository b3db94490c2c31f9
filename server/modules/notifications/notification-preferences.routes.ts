import {
  NotificationPreferences,
  UpdateNotificationPreferences,
} from '../../../contract/notifications.ts';
import { currentUser } from '../../auth/guard.ts';
import { adminDoc, errorReplies } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from './notification-preferences.service.ts';

/** /api/v1/admin/notification-preferences: which events e-mail the signed-in admin. */
export const adminNotificationPreferencesRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.route('GET', '/notification-preferences', { reply: NotificationPreferences }, async (req) =>
    getNotificationPreferences({ db: app.db, userId: currentUser(req).id }),
  );
  admin.route(
    'PUT',
    '/notification-preferences',
    {
      body: UpdateNotificationPreferences,
      reply: NotificationPreferences,
      errors: errorReplies(400),
    },
    async (req) =>
      updateNotificationPreferences({
        db: app.db,
        userId: currentUser(req).id,
        input: req.body,
      }),
  );
});
