import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorBody } from '../../../contract/errors.ts';
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
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { storeThenWrite, uploadFields } from '../../storage/upload.ts';
import { getHoldState, releaseHold, setPayoutReview } from './holds.service.ts';
import { getTaxForm, saveTaxForm, setTaxFormStatus } from './tax-forms.service.ts';

const errors = {
  400: ApiErrorBody,
  401: ApiErrorBody,
  403: ApiErrorBody,
  404: ApiErrorBody,
  409: ApiErrorBody,
};

/** Admin: a publisher's payout holds and tax form (issue 27). Mounted under /admin. */
export const adminHoldRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/publishers/:id/payout-hold',
    { schema: { ...adminDoc, params: IdParams, response: { 200: PayoutHoldState, ...errors } } },
    async (req) => getHoldState(app.db, req.params.id),
  );

  app.put(
    '/publishers/:id/payout-hold',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: SetPayoutReview,
        response: { 200: PayoutHoldState, ...errors },
      },
    },
    async (req) =>
      setPayoutReview({
        db: app.db,
        actor: actorOf(req),
        publisherId: req.params.id,
        input: req.body,
      }),
  );

  app.post(
    '/publishers/:id/payout-hold/release',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: ReleasePayoutHold,
        response: { 200: PayoutHoldState, ...errors },
      },
    },
    async (req) =>
      releaseHold({ db: app.db, actor: actorOf(req), publisherId: req.params.id, input: req.body }),
  );

  app.get(
    '/publishers/:id/tax-form',
    { schema: { ...adminDoc, params: IdParams, response: { 200: TaxForm, ...errors } } },
    async (req) => getTaxForm(app.db, app.storage, req.params.id),
  );

  app.patch(
    '/publishers/:id/payment-details',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: SetTaxFormStatus,
        response: { 200: TaxForm, ...errors },
      },
    },
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

const base = { tags: ['publisher'], security: [{ bearer: [] }] };

/** The publisher's own tax form: read it, upload a new one (it becomes `submitted`). */
export const publisherTaxFormRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/tax-form',
    { schema: { ...base, response: { 200: TaxForm, ...errors } } },
    async (req) => getTaxForm(app.db, app.storage, currentUser(req).id),
  );

  app.put(
    '/tax-form',
    {
      schema: {
        ...base,
        consumes: ['multipart/form-data'],
        response: { 200: TaxForm, ...errors },
      },
    },
    async (req) => {
      const u = currentUser(req);
      await storeThenWrite(req, app.storage, {
        owner: u.id,
        fields: uploadFields(uploadRules.taxForm, 'tax_forms'),
        write: async (files) => {
          const { replacedKey } = await saveTaxForm({
            db: app.db,
            publisher: { id: u.id, email: u.email },
            key: files.file![0]!.key,
          });
          return { result: null, replacedKeys: [replacedKey] };
        },
      });
      return getTaxForm(app.db, app.storage, u.id);
    },
  );
};
