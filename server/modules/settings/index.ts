/**
 * Settings: the branding anyone may read (`/api/v1/public/settings`), the admin's settings, and
 * `saveSettingsSection` for a capability that keeps its own fields on the settings row.
 */

export { adminSettingsRoutes } from './admin-settings.routes.ts';
export { publicSettingsRoutes } from './public-settings.routes.ts';
export { saveSettingsSection } from './settings.service.ts';
