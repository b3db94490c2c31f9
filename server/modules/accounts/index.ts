/**
 * Accounts: `/api/v1/me`; the admin's management of publisher and buyer accounts (approve,
 * reject, block, agreements); admin accounts made outside the web (the first admin at start,
 * `npm run create-admin` through the running portal) and two-factor resets.
 */
export { createAdmin, ensureFirstAdmin, resetMfaByEmail } from './admin-account.service.ts';
export { meRoutes } from './me.routes.ts';
export { adminMfaRoutes } from './mfa.routes.ts';
export { adminUsersRoutes } from './users.routes.ts';
