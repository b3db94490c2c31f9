/**
 * The leads capability (see README.md): the admin's leads list, actions, detail, disputes and
 * CSV import, the publisher's leads and their detail, and the maintained lead totals.
 */
export { adminLeadActionsRoutes } from './lead-actions.routes.ts';
export { adminLeadDetailRoutes } from './lead-detail.routes.ts';
export { adminLeadImportsRoutes } from './lead-imports.routes.ts';
export { publisherLeadTotals } from './lead-totals.ts';
export { adminLeadsRoutes } from './leads.routes.ts';
export { listPublisherLeads, listPublisherPayouts } from './publisher-history.service.ts';
export { publisherLeadDetailRoutes } from './publisher-lead-detail.routes.ts';
