/** The branding anyone may read: `/api/v1/public/settings`. */
export { publicSettingsRoutes } from './public-settings.routes.ts';
