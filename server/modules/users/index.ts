/**
 * Accounts: `/api/v1/me`, and admin accounts made outside the web (the first admin at start,
 * `npm run create-admin` through the running portal).
 */
export { createAdmin, ensureFirstAdmin, resetMfaByEmail } from './admin-account.service.ts';
export { meRoutes } from './me.routes.ts';
