import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminBuyer,
  AdminPublisher,
  AgreementUploaded,
  ApprovedPublisherList,
  ApprovedPublishersQuery,
  BulkDecidePublishers,
  BulkDecisionResult,
  BuyerList,
  BuyerListQuery,
  IdParams,
  PublisherDetail,
  PublisherList,
  PublisherListQuery,
  UpdateBuyerStatus,
  UpdatePublisherStatus,
} from '../../../contract/admin.ts';
import { uploadRules } from '../../../contract/uploads.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { signedLinker } from '../../storage/file-links.ts';
import { storeThenWrite, uploadFields } from '../../storage/upload.ts';
import {
  bulkDecidePublishers,
  findPublisher,
  getPublisherDetail,
  listApprovedPublishers,
  listBuyers,
  listPublishers,
  setPublisherAgreement,
  updateBuyerStatus,
  updatePublisherStatus,
} from './users.service.ts';

/** Publisher and buyer accounts: lists, details and the status transitions of spec §4. */
export const adminUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/publishers',
    { schema: { ...adminDoc, querystring: PublisherListQuery, response: { 200: PublisherList } } },
    async (req) => listPublishers({ db: app.db, query: req.query }),
  );

  app.get(
    '/publishers/:id',
    { schema: { ...adminDoc, params: IdParams, response: { 200: PublisherDetail } } },
    async (req) =>
      getPublisherDetail({ db: app.db, id: req.params.id, link: signedLinker(app.storage) }),
  );

  app.post(
    '/publishers/bulk',
    {
      schema: {
        ...adminDoc,
        body: BulkDecidePublishers,
        response: { 200: BulkDecisionResult },
      },
    },
    async (req) =>
      bulkDecidePublishers({
        db: app.db,
        actor: actorOf(req),
        input: req.body,
        loginUrl: `${app.config.publicUrl}/login`,
      }),
  );

  app.patch(
    '/publishers/:id',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: UpdatePublisherStatus,
        response: { 200: AdminPublisher },
      },
    },
    async (req) =>
      updatePublisherStatus({
        db: app.db,
        actor: actorOf(req),
        id: req.params.id,
        input: req.body,
        loginUrl: `${app.config.publicUrl}/login`,
      }),
  );

  app.get(
    '/buyers',
    { schema: { ...adminDoc, querystring: BuyerListQuery, response: { 200: BuyerList } } },
    async (req) => listBuyers({ db: app.db, query: req.query }),
  );

  app.patch(
    '/buyers/:id',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: UpdateBuyerStatus,
        response: { 200: AdminBuyer },
      },
    },
    async (req) =>
      updateBuyerStatus({ db: app.db, actor: actorOf(req), id: req.params.id, input: req.body }),
  );

  app.get(
    '/approved-publishers',
    {
      schema: {
        ...adminDoc,
        querystring: ApprovedPublishersQuery,
        response: { 200: ApprovedPublisherList },
      },
    },
    async (req) => listApprovedPublishers({ db: app.db, query: req.query }),
  );

  app.put(
    '/publishers/:id/agreement',
    {
      schema: {
        ...adminDoc,
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 200: AgreementUploaded },
      },
    },
    async (req) => {
      // Refuse before storing anything when the publisher does not exist.
      await findPublisher(app.db, req.params.id);
      const { publisher, key } = await storeThenWrite(req, app.storage, {
        owner: req.params.id,
        fields: uploadFields(uploadRules.agreement, 'marketing_agreements'),
        write: async (files) => {
          const key = files.file![0]!.key;
          const r = await setPublisherAgreement({
            db: app.db,
            actor: actorOf(req),
            id: req.params.id,
            key,
          });
          return { result: { publisher: r.publisher, key }, replacedKeys: [r.replacedKey] };
        },
      });
      return { publisher, agreement: await signedLinker(app.storage)(key) };
    },
  );
};
