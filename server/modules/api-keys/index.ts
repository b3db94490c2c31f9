/**
 * Personal API keys (issue 30): the signed-in user's keys under /api/v1/me/api-keys. The guard
 * that accepts them and the table of routes each scope opens live in server/auth/ (guard.ts,
 * api-key-scopes.ts): infrastructure, which every /api/v1 route already passes through.
 */
export { apiKeyRoutes } from './api-keys.routes.ts';
