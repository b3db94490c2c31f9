import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireRole } from '../../auth/guard.ts';
import { adminMfaRoutes, adminUsersRoutes } from '../accounts/index.ts';
import { adminApplicationsRoutes } from '../applications/index.ts';
import { adminAuditRoutes } from '../audit/index.ts';
import { adminBillingRoutes } from '../billing/index.ts';
import { adminCampaignsRoutes } from '../campaigns/index.ts';
import { adminFraudRoutes } from '../fraud/index.ts';
import { adminIntegrationsRoutes, adminTrackingNumbersRoutes } from '../ingest/index.ts';
import {
  adminLeadActionsRoutes,
  adminLeadDetailRoutes,
  adminLeadImportsRoutes,
  adminLeadsRoutes,
} from '../leads/index.ts';
import {
  adminHoldRoutes,
  adminMoneyRoutes,
  adminPaymentFilesRoutes,
  adminPayoutsRoutes,
} from '../money/index.ts';
import { adminNotificationPreferencesRoutes } from '../notifications/index.ts';
import { adminOffersRoutes } from '../offers/index.ts';
import { adminPostbackRoutes, adminWebhooksRoutes } from '../outbound/index.ts';
import { adminReportsRoutes, adminStatsRoutes } from '../reports/index.ts';
import { adminSettingsRoutes } from '../settings/index.ts';
import { adminSignatureRoutes } from '../signatures/index.ts';

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
  await app.register(adminBillingRoutes);
  await app.register(adminSettingsRoutes);
  await app.register(adminAuditRoutes);
  await app.register(adminIntegrationsRoutes);
  await app.register(adminTrackingNumbersRoutes);
  await app.register(adminReportsRoutes);
  await app.register(adminMfaRoutes);
  await app.register(adminNotificationPreferencesRoutes);
  await app.register(adminWebhooksRoutes);
  await app.register(adminFraudRoutes);
  await app.register(adminPostbackRoutes);
  await app.register(adminSignatureRoutes);
};
