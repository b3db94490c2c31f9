import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcceptDispute,
  AdminDisputeList,
  AdminLeadDetail,
  DeclineDispute,
  DisputeIdParams,
  DisputeListQuery,
  DisputeMessageInput,
  DisputeStatus,
  LeadIdParams,
} from '../../../contract/lead-detail.ts';
import { uploadRules } from '../../../contract/uploads.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { storeThenWrite, uploadFields } from '../../storage/upload.ts';
import { decideDispute, listDisputes, replyAsAdmin } from './disputes.service.ts';
import { getAdminLeadDetail } from './lead-detail.queries.ts';
import { setLeadRecording } from './lead-detail.service.ts';

const Created = z.object({ id: z.string() });
const Decided = z.object({ id: z.string(), status: DisputeStatus });

/** One lead opened (GET /leads/:id), its stored recording, and the publishers' disputes. */
export const adminLeadDetailRoutes: FastifyPluginAsyncZod = async (app) => {
  const sign = (key: string) => app.storage.signedUrl(key);
  // Mails to publishers link to the lead in their own area.
  const publisherLeadUrl = (id: string) => `${app.config.publicUrl}/dashboard/leads/${id}`;

  app.get(
    '/leads/:id',
    { schema: { ...adminDoc, params: LeadIdParams, response: { 200: AdminLeadDetail } } },
    async (req) => getAdminLeadDetail({ db: app.db, sign, id: req.params.id }),
  );

  // Keeps a recording in the portal's storage (mp3), played on the detail through a signed URL.
  app.put(
    '/leads/:id/recording',
    {
      schema: {
        ...adminDoc,
        consumes: ['multipart/form-data'],
        params: LeadIdParams,
        response: { 200: AdminLeadDetail },
      },
    },
    async (req) => {
      // Refuse before storing anything when the lead does not exist.
      await getAdminLeadDetail({ db: app.db, sign, id: req.params.id });
      await storeThenWrite(req, app.storage, {
        owner: 'leads',
        fields: uploadFields(uploadRules.recording, 'recordings'),
        write: async (files) => {
          const replaced = await setLeadRecording({
            db: app.db,
            actor: actorOf(req),
            id: req.params.id,
            key: files.file![0]!.key,
          });
          return { result: null, replacedKeys: [replaced] };
        },
      });
      return getAdminLeadDetail({ db: app.db, sign, id: req.params.id });
    },
  );

  app.get(
    '/disputes',
    { schema: { ...adminDoc, querystring: DisputeListQuery, response: { 200: AdminDisputeList } } },
    async (req) => listDisputes({ db: app.db, query: req.query }),
  );

  app.post(
    '/disputes/:id/messages',
    {
      schema: {
        ...adminDoc,
        params: DisputeIdParams,
        body: DisputeMessageInput,
        response: { 201: Created },
      },
    },
    async (req, reply) => {
      const r = await replyAsAdmin({
        db: app.db,
        actor: actorOf(req),
        disputeId: req.params.id,
        message: req.body.message,
        leadUrl: publisherLeadUrl,
      });
      return reply.status(201).send(r);
    },
  );

  app.post(
    '/disputes/:id/accept',
    {
      schema: {
        ...adminDoc,
        params: DisputeIdParams,
        body: AcceptDispute,
        response: { 200: Decided },
      },
    },
    async (req) =>
      decideDispute({
        db: app.db,
        actor: actorOf(req),
        disputeId: req.params.id,
        decision: 'accepted',
        message: req.body.message ?? null,
        leadUrl: publisherLeadUrl,
      }),
  );

  app.post(
    '/disputes/:id/decline',
    {
      schema: {
        ...adminDoc,
        params: DisputeIdParams,
        body: DeclineDispute,
        response: { 200: Decided },
      },
    },
    async (req) =>
      decideDispute({
        db: app.db,
        actor: actorOf(req),
        disputeId: req.params.id,
        decision: 'declined',
        message: req.body.message,
        leadUrl: publisherLeadUrl,
      }),
  );
};
