/**
 * Live updates (issue 32): GET /api/v1/live, the Server-Sent Events of the signed-in user's
 * calls and today's counters, fed on every instance by NOTIFY live_events
 * (server/modules/live/README.md).
 */
export { registerLive } from './live.hub.ts';
export { liveRoutes } from './live.routes.ts';
