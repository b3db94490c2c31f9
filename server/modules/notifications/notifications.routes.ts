import {
  MarkedRead,
  Notification,
  NotificationIdParams,
  NotificationList,
  NotificationListQuery,
  UnreadCount,
} from '../../../contract/notifications.ts';
import { currentUser } from '../../auth/guard.ts';
import { errorReplies } from '../../http/route-helpers.ts';
import { mePlugin } from '../../http/route-kit.ts';
import { countUnread, listNotifications, markAllRead, markRead } from './notifications.service.ts';

/**
 * /api/v1/me/notifications: the signed-in user's own notifications, whatever their role. The
 * check runs at onRequest, so a stranger learns nothing (not even a validation answer).
 */
export const notificationsRoutes = mePlugin((mine) => {
  const me = mine.own;

  mine.list('/notifications', { query: NotificationListQuery, reply: NotificationList }, (o, req) =>
    listNotifications({ ...me(req), query: o.query }),
  );
  mine.route('GET', '/notifications/unread-count', { reply: UnreadCount }, async (req) =>
    countUnread({ ...me(req), role: currentUser(req).role }),
  );
  mine.route(
    'POST',
    '/notifications/:id/read',
    { params: NotificationIdParams, reply: Notification, errors: errorReplies(404) },
    async (req) => markRead({ ...me(req), id: req.params.id }),
  );
  mine.route('POST', '/notifications/read-all', { reply: MarkedRead }, async (req) =>
    markAllRead(me(req)),
  );
});
