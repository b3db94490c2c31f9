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
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { signedLinker } from '../../storage/file-links.ts';
import { storeFileThenWrite, uploadFields } from '../../storage/upload.ts';
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
export const adminUsersRoutes = kitPlugin(adminDoc, (admin, app) => {
  const loginUrl = `${app.config.publicUrl}/login`;
  admin.list('/publishers', { query: PublisherListQuery, reply: PublisherList }, listPublishers);

  admin.route('GET', '/publishers/:id', { params: IdParams, reply: PublisherDetail }, async (req) =>
    getPublisherDetail({ db: app.db, id: req.params.id, link: signedLinker(app.storage) }),
  );

  admin.command(
    '/publishers/bulk',
    { body: BulkDecidePublishers, reply: BulkDecisionResult },
    (o) => bulkDecidePublishers({ ...o, loginUrl }),
  );

  admin.change(
    'PATCH',
    '/publishers/:id',
    { params: IdParams, body: UpdatePublisherStatus, reply: AdminPublisher },
    (o) => updatePublisherStatus({ ...o, loginUrl }),
  );

  admin.list('/buyers', { query: BuyerListQuery, reply: BuyerList }, listBuyers);
  admin.change(
    'PATCH',
    '/buyers/:id',
    { params: IdParams, body: UpdateBuyerStatus, reply: AdminBuyer },
    updateBuyerStatus,
  );
  admin.list(
    '/approved-publishers',
    { query: ApprovedPublishersQuery, reply: ApprovedPublisherList },
    listApprovedPublishers,
  );

  admin.route(
    'PUT',
    '/publishers/:id/agreement',
    { consumes: ['multipart/form-data'], params: IdParams, reply: AgreementUploaded },
    async (req) => {
      // Refuse before storing anything when the publisher does not exist.
      await findPublisher(app.db, req.params.id);
      const { publisher, key } = await storeFileThenWrite(req, app.storage, {
        owner: req.params.id,
        fields: uploadFields(uploadRules.agreement, 'marketing_agreements'),
        write: async (key) => {
          const r = await setPublisherAgreement({ ...admin.action(req), key });
          return { result: { publisher: r.publisher, key }, replacedKey: r.replacedKey };
        },
      });
      return { publisher, agreement: await signedLinker(app.storage)(key) };
    },
  );
});
