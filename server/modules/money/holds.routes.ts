import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdParams,
  PayoutHoldState,
  ReleasePayoutHold,
  SetPayoutReview,
  SetTaxFormStatus,
  TaxForm,
} from '../../../contract/money.ts';
import { uploadRules } from '../../../contract/uploads.ts';
import { currentUser } from '../../auth/guard.ts';
import { actorOf, adminDoc, bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { storeFileThenWrite, uploadFields } from '../../storage/upload.ts';
import { getHoldState, releaseHold, setPayoutReview } from './holds.service.ts';
import { getTaxForm, saveTaxForm, setTaxFormStatus } from './tax-forms.service.ts';

const errors = errorReplies(400, 401, 403, 404, 409);

/** Admin: a publisher's payout holds and tax form (issue 27). Mounted under /admin. */
export const adminHoldRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = routeKit(app, adminDoc, errors);
  const publisher = { params: IdParams };
  const hold = { ...publisher, reply: PayoutHoldState };
  admin.route('GET', '/publishers/:id/payout-hold', hold, async (req) =>
    getHoldState(app.db, req.params.id),
  );

  admin.route(
    'PUT',
    '/publishers/:id/payout-hold',
    { ...hold, body: SetPayoutReview },
    async (req) =>
      setPayoutReview({
        db: app.db,
        actor: actorOf(req),
        publisherId: req.params.id,
        input: req.body,
      }),
  );

  admin.route(
    'POST',
    '/publishers/:id/payout-hold/release',
    { ...hold, body: ReleasePayoutHold },
    async (req) =>
      releaseHold({ db: app.db, actor: actorOf(req), publisherId: req.params.id, input: req.body }),
  );

  admin.route('GET', '/publishers/:id/tax-form', { ...publisher, reply: TaxForm }, async (req) =>
    getTaxForm(app.db, app.storage, req.params.id),
  );

  admin.route(
    'PATCH',
    '/publishers/:id/payment-details',
    { ...publisher, body: SetTaxFormStatus, reply: TaxForm },
    async (req) =>
      setTaxFormStatus({
        db: app.db,
        storage: app.storage,
        actor: actorOf(req),
        publisherId: req.params.id,
        input: req.body,
      }),
  );
};

/** The publisher's own tax form: read it, upload a new one (it becomes `submitted`). */
export const publisherTaxFormRoutes: FastifyPluginAsyncZod = async (app) => {
  const mine = routeKit(app, bearerDoc('publisher'), errors);
  mine.route('GET', '/tax-form', { reply: TaxForm }, async (req) =>
    getTaxForm(app.db, app.storage, currentUser(req).id),
  );

  mine.route(
    'PUT',
    '/tax-form',
    { consumes: ['multipart/form-data'], reply: TaxForm },
    async (req) => {
      const u = currentUser(req);
      await storeFileThenWrite(req, app.storage, {
        owner: u.id,
        fields: uploadFields(uploadRules.taxForm, 'tax_forms'),
        write: async (key) => {
          const { replacedKey } = await saveTaxForm({
            db: app.db,
            publisher: { id: u.id, email: u.email },
            key,
          });
          return { result: null, replacedKey };
        },
      });
      return getTaxForm(app.db, app.storage, u.id);
    },
  );
};
