/** Settings: the branding anyone may read (`/api/v1/public/settings`) and the admin's settings. */

export { adminSettingsRoutes } from './admin-settings.routes.ts';
export { publicSettingsRoutes } from './public-settings.routes.ts';
