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
import { kitPlugin } from '../../http/route-kit.ts';
import { storeFileThenWrite, uploadFields } from '../../storage/upload.ts';
import { decideDispute, listDisputes, replyAsAdmin } from './disputes.service.ts';
import { getAdminLeadDetail } from './lead-detail.queries.ts';
import { setLeadRecording } from './lead-detail.service.ts';

const Created = z.object({ id: z.string() });
const Decided = z.object({ id: z.string(), status: DisputeStatus });

/** One lead opened (GET /leads/:id), its stored recording, and the publishers' disputes. */
export const adminLeadDetailRoutes = kitPlugin(adminDoc, (admin, app) => {
  const sign = (key: string) => app.storage.signedUrl(key);
  // Mails to publishers link to the lead in their own area.
  const publisherLeadUrl = (id: string) => `${app.config.publicUrl}/dashboard/leads/${id}`;

  const lead = { params: LeadIdParams, reply: AdminLeadDetail };
  admin.route('GET', '/leads/:id', lead, async (req) =>
    getAdminLeadDetail({ db: app.db, sign, id: req.params.id }),
  );

  // Keeps a recording in the portal's storage (mp3), played on the detail through a signed URL.
  admin.route(
    'PUT',
    '/leads/:id/recording',
    { consumes: ['multipart/form-data'], ...lead },
    async (req) => {
      // Refuse before storing anything when the lead does not exist.
      await getAdminLeadDetail({ db: app.db, sign, id: req.params.id });
      await storeFileThenWrite(req, app.storage, {
        owner: 'leads',
        fields: uploadFields(uploadRules.recording, 'recordings'),
        write: async (key) => ({
          result: null,
          replacedKey: await setLeadRecording({ ...admin.action(req), key }),
        }),
      });
      return getAdminLeadDetail({ db: app.db, sign, id: req.params.id });
    },
  );

  admin.list('/disputes', { query: DisputeListQuery, reply: AdminDisputeList }, listDisputes);

  admin.route(
    'POST',
    '/disputes/:id/messages',
    { params: DisputeIdParams, body: DisputeMessageInput, reply: Created, status: 201 },
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

  // Accepting a dispute may say why (declining must); both answer the dispute's new status.
  const decisions = [
    { path: 'accept', decision: 'accepted', body: AcceptDispute },
    { path: 'decline', decision: 'declined', body: DeclineDispute },
  ] as const;
  for (const { path, decision, body } of decisions) {
    admin.route(
      'POST',
      `/disputes/:id/${path}`,
      { params: DisputeIdParams, body, reply: Decided },
      async (req) =>
        decideDispute({
          db: app.db,
          actor: actorOf(req),
          disputeId: req.params.id,
          decision,
          message: req.body.message ?? null,
          leadUrl: publisherLeadUrl,
        }),
    );
  }
});
