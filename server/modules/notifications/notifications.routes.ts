import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorBody } from '../../../contract/errors.ts';
import {
  MarkedRead,
  Notification,
  NotificationIdParams,
  NotificationList,
  NotificationListQuery,
  UnreadCount,
} from '../../../contract/notifications.ts';
import { currentUser, requireAuth } from '../../auth/guard.ts';
import { countUnread, listNotifications, markAllRead, markRead } from './notifications.service.ts';

const doc = { tags: ['me'], security: [{ bearer: [] }] };
const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody };

/**
 * /api/v1/me/notifications: the signed-in user's own notifications, whatever their role. The
 * check runs at onRequest, so a stranger learns nothing (not even a validation answer).
 */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/notifications',
    {
      schema: {
        ...doc,
        querystring: NotificationListQuery,
        response: { 200: NotificationList, ...errors },
      },
    },
    async (req) => listNotifications({ db: app.db, userId: currentUser(req).id, query: req.query }),
  );

  app.get(
    '/notifications/unread-count',
    { schema: { ...doc, response: { 200: UnreadCount, ...errors } } },
    async (req) => countUnread({ db: app.db, userId: currentUser(req).id }),
  );

  app.post(
    '/notifications/:id/read',
    {
      schema: {
        ...doc,
        params: NotificationIdParams,
        response: { 200: Notification, 404: ApiErrorBody, ...errors },
      },
    },
    async (req) => markRead({ db: app.db, userId: currentUser(req).id, id: req.params.id }),
  );

  app.post(
    '/notifications/read-all',
    { schema: { ...doc, response: { 200: MarkedRead, ...errors } } },
    async (req) => markAllRead({ db: app.db, userId: currentUser(req).id }),
  );
};
