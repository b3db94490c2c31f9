/**
 * Notifications: the signed-in user's (`/api/v1/me/notifications`, written by server/notify)
 * and the admin's e-mail choices.
 */
export { adminNotificationPreferencesRoutes } from './notification-preferences.routes.ts';
export { notificationsRoutes } from './notifications.routes.ts';
export { waitingForAdmins } from './notifications.service.ts';
