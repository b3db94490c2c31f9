import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireRole } from '../../auth/guard.ts';
import { adminAuditRoutes } from '../audit/index.ts';
import { adminHoldRoutes, adminMoneyRoutes, adminPaymentFilesRoutes } from '../money/index.ts';
import { adminApplicationsRoutes } from './applications.routes.ts';
import { adminCampaignsRoutes } from './campaigns.routes.ts';
import { adminIntegrationsRoutes } from './integrations.routes.ts';
import { adminLeadActionsRoutes } from './lead-actions.routes.ts';
import { adminLeadDetailRoutes } from './lead-detail.routes.ts';
import { adminLeadImportsRoutes } from './lead-imports.routes.ts';
import { adminLeadsRoutes } from './leads.routes.ts';
import { adminMfaRoutes } from './mfa.routes.ts';
import { adminNotificationPreferencesRoutes } from './notification-preferences.routes.ts';
import { adminOffersRoutes } from './offers.routes.ts';
import { adminPayoutsRoutes } from './payouts.routes.ts';
import { adminReportsRoutes } from './reports.routes.ts';
import { adminSettingsRoutes } from './settings.routes.ts';
import { adminStatsRoutes } from './stats.routes.ts';
import { adminTrackingNumbersRoutes } from './tracking-numbers.routes.ts';
import { adminUsersRoutes } from './users.routes.ts';

/**
 * Everything under /api/v1/admin. The role check runs at onRequest, before any body is read
 * or validated: a stranger gets 401 and another role 403, never a validation answer.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireRole('admin'));
  await app.register(adminStatsRoutes);
  await app.register(adminUsersRoutes);
  await app.register(adminOffersRoutes);
  await app.register(adminApplicationsRoutes);
  await app.register(adminLeadsRoutes);
  await app.register(adminLeadDetailRoutes);
  await app.register(adminLeadActionsRoutes);
  await app.register(adminLeadImportsRoutes);
  await app.register(adminPayoutsRoutes);
  await app.register(adminMoneyRoutes);
  await app.register(adminPaymentFilesRoutes);
  await app.register(adminHoldRoutes);
  await app.register(adminCampaignsRoutes);
  await app.register(adminSettingsRoutes);
  await app.register(adminAuditRoutes);
  await app.register(adminIntegrationsRoutes);
  await app.register(adminTrackingNumbersRoutes);
  await app.register(adminReportsRoutes);
  await app.register(adminMfaRoutes);
  await app.register(adminNotificationPreferencesRoutes);
};
