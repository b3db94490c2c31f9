import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DisputeIdParams,
  DisputeMessageInput,
  LeadIdParams,
  PublisherLeadDetail,
} from '../../../contract/lead-detail.ts';
import { uploadRules } from '../../../contract/uploads.ts';
import { currentUser } from '../../auth/guard.ts';
import { badRequest } from '../../errors.ts';
import { bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { receiveUploads, uploadFields, writeOrRemove } from '../../storage/upload.ts';
import { getPublisherLeadDetail } from './lead-detail.queries.ts';
import { assertCanDispute, openDispute, replyAsPublisher } from './publisher-disputes.service.ts';

const Created = z.object({ id: z.string() });

/**
 * /api/v1/publisher/leads/:id and the publisher's disputes: only their own leads (another
 * publisher's lead or dispute answers 404, as one that does not exist). Registered inside
 * publisherRoutes, so its role check applies.
 */
export const publisherLeadDetailRoutes: FastifyPluginAsyncZod = async (app) => {
  // Mails to the admins link to the lead in the admin area.
  const adminLeadUrl = (id: string) => `${app.config.publicUrl}/admin/leads/${id}`;
  const sign = (key: string) => app.storage.signedUrl(key);

  const mine = routeKit(app, bearerDoc('publisher'), errorReplies(400, 401, 403, 404));
  mine.route(
    'GET',
    '/leads/:id',
    { params: LeadIdParams, reply: PublisherLeadDetail },
    async (req) =>
      getPublisherLeadDetail({
        db: app.db,
        sign,
        id: req.params.id,
        publisherId: currentUser(req).id,
      }),
  );

  mine.route(
    'POST',
    '/leads/:id/disputes',
    {
      consumes: ['multipart/form-data'],
      description:
        'multipart/form-data: `message` (required text) and an optional `file` (pdf, png, jpg or mp3).',
      params: LeadIdParams,
      reply: Created,
      status: 201,
      errors: errorReplies(409, 413, 415),
    },
    async (req, reply) => {
      const user = currentUser(req);
      // Refuse before storing anything: not theirs, not disputable, or already disputed.
      await assertCanDispute({ db: app.db, publisherId: user.id, leadId: req.params.id });
      const { files, fields } = await receiveUploads(req, app.storage, {
        owner: user.id,
        files: uploadFields(uploadRules.dispute, 'lead_disputes'),
      });
      const file = files.file?.[0] ?? null;
      const result = await writeOrRemove({
        storage: app.storage,
        keys: file ? [file.key] : [],
        log: req.log,
        write: async () => {
          const input = DisputeMessageInput.safeParse(fields);
          if (!input.success) {
            const message = input.error.issues[0]?.message ?? 'Please write a message.';
            throw badRequest(message, { message: [message] });
          }
          return {
            result: await openDispute({
              db: app.db,
              publisher: { id: user.id, email: user.email, name: user.name },
              leadId: req.params.id,
              message: input.data.message,
              fileKey: file?.key ?? null,
              leadUrl: adminLeadUrl(req.params.id),
              publicUrl: app.config.publicUrl,
            }),
          };
        },
      });
      return reply.status(201).send(result);
    },
  );

  mine.route(
    'POST',
    '/disputes/:id/messages',
    {
      params: DisputeIdParams,
      body: DisputeMessageInput,
      reply: Created,
      status: 201,
      errors: errorReplies(409),
    },
    async (req, reply) => {
      const user = currentUser(req);
      const result = await replyAsPublisher({
        db: app.db,
        publisher: { id: user.id, email: user.email, name: user.name },
        disputeId: req.params.id,
        message: req.body.message,
        leadUrl: adminLeadUrl,
        publicUrl: app.config.publicUrl,
      });
      return reply.status(201).send(result);
    },
  );
};
