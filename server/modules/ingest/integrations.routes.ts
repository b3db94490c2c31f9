import { z } from 'zod';
import { IdParams } from '../../../contract/admin.ts';
import {
  AdminIntegration,
  AttachExternalId,
  CreatedIntegration,
  CreateIntegration,
  ExternalIdList,
  ExternalIdListQuery,
  ExternalIdMapping,
  ExternalIdParams,
  IngestAnswer,
  IntegrationList,
  IntegrationListQuery,
  IntegrationTestRequest,
  IntegrationTestResult,
  RefusalList,
  RefusalListQuery,
  UpdateIntegration,
} from '../../../contract/integrations.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import {
  attachExternalId,
  createIntegration,
  detachExternalId,
  getIntegration,
  listExternalIds,
  listIntegrations,
  listRefusals,
  replayRefusal,
  revokeIntegration,
  updateIntegration,
} from './integrations.service.ts';
import { testPastedRequest } from './test-console.ts';

/**
 * Call-tracker integrations: keys (shown once, revocable), allowed sources, parameter names,
 * tracker ids attached to our publishers and offers, and the refused calls with their replay.
 */
export const adminIntegrationsRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.list(
    '/integrations',
    { query: IntegrationListQuery, reply: IntegrationList },
    listIntegrations,
  );

  admin.route(
    'POST',
    '/integrations',
    { body: CreateIntegration, reply: CreatedIntegration, status: 201 },
    async (req, reply) => {
      const created = await createIntegration({ db: app.db, actor: actorOf(req), input: req.body });
      // The key is in this answer only: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(created);
    },
  );

  admin.list(
    '/integrations/refusals',
    { query: RefusalListQuery, reply: RefusalList },
    listRefusals,
  );
  admin.act(
    '/integrations/refusals/:id/replay',
    { params: IdParams, reply: IngestAnswer },
    replayRefusal,
  );

  const one = { params: IdParams, reply: AdminIntegration };
  admin.read('/integrations/:id', one, getIntegration);
  admin.change(
    'PATCH',
    '/integrations/:id',
    { ...one, body: UpdateIntegration },
    updateIntegration,
  );

  // The test console: what a pasted request would do, field by field; nothing is written.
  admin.route(
    'POST',
    '/integrations/:id/test',
    { params: IdParams, body: IntegrationTestRequest, reply: IntegrationTestResult },
    async (req) =>
      testPastedRequest({
        db: app.db,
        publicUrl: app.config.publicUrl,
        id: req.params.id,
        input: req.body,
      }),
  );

  admin.act('/integrations/:id/revoke', one, revokeIntegration);

  admin.route(
    'GET',
    '/integrations/:id/external-ids',
    { params: IdParams, query: ExternalIdListQuery, reply: ExternalIdList },
    async (req) => listExternalIds({ db: app.db, id: req.params.id, query: req.query }),
  );
  admin.change(
    'PUT',
    '/integrations/:id/external-ids',
    { params: IdParams, body: AttachExternalId, reply: ExternalIdMapping },
    attachExternalId,
  );

  admin.route(
    'DELETE',
    '/integrations/:id/external-ids/:mappingId',
    { params: ExternalIdParams, reply: z.null(), status: 204 },
    async (req, reply) => {
      await detachExternalId({ ...admin.action(req), mappingId: req.params.mappingId });
      return reply.status(204).send(null);
    },
  );
});
