/**
 * Outbound (issue 30): the operator's signed webhooks, the publishers' postbacks, and the one
 * delivery engine under both (server/modules/outbound/README.md).
 */
export { registerOutbound } from './outbound.job.ts';
export { adminPostbackRoutes, publisherPostbackRoutes } from './postbacks.routes.ts';
export { adminWebhooksRoutes } from './webhooks.routes.ts';
