import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
export const adminIntegrationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/integrations',
    {
      schema: {
        ...adminDoc,
        querystring: IntegrationListQuery,
        response: { 200: IntegrationList },
      },
    },
    async (req) => listIntegrations({ db: app.db, query: req.query }),
  );

  app.post(
    '/integrations',
    { schema: { ...adminDoc, body: CreateIntegration, response: { 201: CreatedIntegration } } },
    async (req, reply) => {
      const created = await createIntegration({ db: app.db, actor: actorOf(req), input: req.body });
      // The key is in this answer only: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/integrations/refusals',
    { schema: { ...adminDoc, querystring: RefusalListQuery, response: { 200: RefusalList } } },
    async (req) => listRefusals({ db: app.db, query: req.query }),
  );

  app.post(
    '/integrations/refusals/:id/replay',
    { schema: { ...adminDoc, params: IdParams, response: { 200: IngestAnswer } } },
    async (req) => replayRefusal({ db: app.db, actor: actorOf(req), id: req.params.id }),
  );

  app.get(
    '/integrations/:id',
    { schema: { ...adminDoc, params: IdParams, response: { 200: AdminIntegration } } },
    async (req) => getIntegration({ db: app.db, id: req.params.id }),
  );

  app.patch(
    '/integrations/:id',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: UpdateIntegration,
        response: { 200: AdminIntegration },
      },
    },
    async (req) =>
      updateIntegration({ db: app.db, actor: actorOf(req), id: req.params.id, input: req.body }),
  );

  // The test console: what a pasted request would do, field by field; nothing is written.
  app.post(
    '/integrations/:id/test',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: IntegrationTestRequest,
        response: { 200: IntegrationTestResult },
      },
    },
    async (req) =>
      testPastedRequest({
        db: app.db,
        publicUrl: app.config.publicUrl,
        id: req.params.id,
        input: req.body,
      }),
  );

  app.post(
    '/integrations/:id/revoke',
    { schema: { ...adminDoc, params: IdParams, response: { 200: AdminIntegration } } },
    async (req) => revokeIntegration({ db: app.db, actor: actorOf(req), id: req.params.id }),
  );

  app.get(
    '/integrations/:id/external-ids',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        querystring: ExternalIdListQuery,
        response: { 200: ExternalIdList },
      },
    },
    async (req) => listExternalIds({ db: app.db, id: req.params.id, query: req.query }),
  );

  app.put(
    '/integrations/:id/external-ids',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: AttachExternalId,
        response: { 200: ExternalIdMapping },
      },
    },
    async (req) =>
      attachExternalId({ db: app.db, actor: actorOf(req), id: req.params.id, input: req.body }),
  );

  app.delete(
    '/integrations/:id/external-ids/:mappingId',
    { schema: { ...adminDoc, params: ExternalIdParams, response: { 204: z.null() } } },
    async (req, reply) => {
      await detachExternalId({
        db: app.db,
        actor: actorOf(req),
        id: req.params.id,
        mappingId: req.params.mappingId,
      });
      return reply.status(204).send(null);
    },
  );
};
