/** The signed-in user's notifications: `/api/v1/me/notifications` (written by server/notify). */
export { notificationsRoutes } from './notifications.routes.ts';
