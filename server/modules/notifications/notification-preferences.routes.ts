import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorBody } from '../../../contract/errors.ts';
import {
  NotificationPreferences,
  UpdateNotificationPreferences,
} from '../../../contract/notifications.ts';
import { currentUser } from '../../auth/guard.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from './notification-preferences.service.ts';

/** /api/v1/admin/notification-preferences: which events e-mail the signed-in admin. */
export const adminNotificationPreferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/notification-preferences',
    { schema: { ...adminDoc, response: { 200: NotificationPreferences } } },
    async (req) => getNotificationPreferences({ db: app.db, userId: currentUser(req).id }),
  );

  app.put(
    '/notification-preferences',
    {
      schema: {
        ...adminDoc,
        body: UpdateNotificationPreferences,
        response: { 200: NotificationPreferences, 400: ApiErrorBody },
      },
    },
    async (req) =>
      updateNotificationPreferences({
        db: app.db,
        userId: currentUser(req).id,
        input: req.body,
      }),
  );
};
