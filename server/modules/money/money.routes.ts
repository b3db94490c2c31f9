import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorBody } from '../../../contract/errors.ts';
import {
  Adjustment,
  BalanceList,
  BalanceListQuery,
  CoveredLeadList,
  CoveredLeadsQuery,
  CreateAdjustment,
  IdParams,
  LedgerPayout,
  MarkRunPaid,
  PaymentDetails,
  PayoutRun,
  PublisherMoney,
  RunList,
  RunListQuery,
  RunPreview,
  RunSelection,
  Statement,
  UpdatePaymentDetails,
  VoidRun,
} from '../../../contract/money.ts';
import { currentUser } from '../../auth/guard.ts';
import { sendCsv } from '../../db/csv.ts';
import { toMoney } from '../../db/money.ts';
import { respondIdempotently } from '../../http/idempotency.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import type { Storage } from '../../storage/storage.ts';
import { listBalances } from './balances.service.ts';
import { balanceOf } from './figures.ts';
import { ledgerSettings } from './ledger.service.ts';
import { getPaymentDetails, updatePaymentDetails } from './payment-details.service.ts';
import { genericCsvLines } from './payment-files/generic.ts';
import {
  confirmRun,
  createAdjustment,
  getRun,
  listRuns,
  markRunPaid,
  previewRun,
  voidRun,
} from './runs.service.ts';
import {
  getLedgerPayout,
  getStatement,
  listCoveredLeads,
  readLogo,
  statementCsv,
  statementPdf,
} from './statements.service.ts';

const formats = ['json', 'csv', 'pdf'] as const;
const suffix = { json: '', csv: '.csv', pdf: '.pdf' } as const;

/** Answers a statement as JSON, CSV or PDF (a download named after the payout). */
async function sendStatement(
  reply: FastifyReply,
  opts: { db: Parameters<typeof getStatement>[0]['db']; storage: Storage },
  payoutId: string,
  format: 'pdf' | 'csv' | 'json',
  publisherId?: string,
) {
  const statement = await getStatement({ db: opts.db, payoutId, publisherId });
  const name = `statement-${statement.date.slice(0, 10)}-${payoutId.slice(0, 8)}`;
  if (format === 'json') return statement;
  if (format === 'csv')
    return sendCsv(reply, `statement-${payoutId.slice(0, 8)}`, statementCsv(statement));
  const bytes = await statementPdf(statement, await readLogo(opts.db, opts.storage));
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${name}.pdf"`)
    .header('cache-control', 'no-store')
    .send(Buffer.from(bytes));
}

const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody };

/** Admin → Payouts: balances, adjustments, payout runs, statements (issue 14). */
export const adminMoneyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/balances',
    { schema: { ...adminDoc, querystring: BalanceListQuery, response: { 200: BalanceList } } },
    async (req) => listBalances({ db: app.db, query: req.query }),
  );

  app.post(
    '/publishers/:id/adjustments',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: CreateAdjustment,
        response: { 201: Adjustment, ...errors },
      },
    },
    async (req, reply) =>
      respondIdempotently(req, reply, 201, (db) =>
        createAdjustment({ db, actor: actorOf(req), publisherId: req.params.id, input: req.body }),
      ),
  );

  app.post(
    '/payout-runs/preview',
    { schema: { ...adminDoc, body: RunSelection, response: { 200: RunPreview, ...errors } } },
    async (req) => previewRun({ db: app.db, selection: req.body }),
  );

  app.post(
    '/payout-runs',
    { schema: { ...adminDoc, body: RunSelection, response: { 201: PayoutRun, ...errors } } },
    async (req, reply) =>
      respondIdempotently(req, reply, 201, (db) =>
        confirmRun({ db, actor: actorOf(req), selection: req.body }),
      ),
  );

  app.get(
    '/payout-runs',
    { schema: { ...adminDoc, querystring: RunListQuery, response: { 200: RunList } } },
    async (req) => listRuns({ db: app.db, query: req.query }),
  );

  app.get(
    '/payout-runs/:id',
    { schema: { ...adminDoc, params: IdParams, response: { 200: PayoutRun, ...errors } } },
    async (req) => getRun(app.db, req.params.id),
  );

  app.get(
    '/payout-runs/:id/export.csv',
    { schema: { ...adminDoc, params: IdParams } },
    async (req, reply) =>
      // The generic CSV of payment-files/generic.ts; 404 before the download starts.
      sendCsv(
        reply,
        `payout-run-${req.params.id.slice(0, 8)}`,
        await genericCsvLines(app.db, req.params.id),
      ),
  );

  app.post(
    '/payout-runs/:id/paid',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: MarkRunPaid,
        response: { 200: PayoutRun, ...errors },
      },
    },
    async (req) =>
      markRunPaid({ db: app.db, actor: actorOf(req), id: req.params.id, input: req.body }),
  );

  app.post(
    '/payout-runs/:id/void',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: VoidRun,
        response: { 200: PayoutRun, ...errors },
      },
    },
    async (req) => voidRun({ db: app.db, actor: actorOf(req), id: req.params.id, input: req.body }),
  );

  app.get(
    '/payouts/:id',
    { schema: { ...adminDoc, params: IdParams, response: { 200: LedgerPayout, ...errors } } },
    async (req) => getLedgerPayout(app.db, req.params.id),
  );

  app.get(
    '/payouts/:id/leads',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        querystring: CoveredLeadsQuery,
        response: { 200: CoveredLeadList, ...errors },
      },
    },
    async (req) => listCoveredLeads({ db: app.db, payoutId: req.params.id, query: req.query }),
  );

  for (const format of formats) {
    app.get(
      `/payouts/:id/statement${suffix[format]}`,
      {
        schema: {
          ...adminDoc,
          params: IdParams,
          ...(format === 'json' && { response: { 200: Statement, ...errors } }),
        },
      },
      async (req, reply) =>
        sendStatement(reply, { db: app.db, storage: app.storage }, req.params.id, format),
    );
  }
};

const base = { tags: ['publisher'], security: [{ bearer: [] }] };

/** The publisher's own money: balance, payouts' statements and leads, payment details. */
export const publisherMoneyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/money',
    { schema: { ...base, response: { 200: PublisherMoney, ...errors } } },
    async (req) => {
      const id = currentUser(req).id;
      const [balance, payment, settings] = await Promise.all([
        balanceOf(app.db, id),
        getPaymentDetails(app.db, id),
        ledgerSettings(app.db),
      ]);
      return { balance, payment, min_payout: toMoney(settings.minPayout) };
    },
  );

  app.get(
    '/payment-details',
    { schema: { ...base, response: { 200: PaymentDetails, ...errors } } },
    async (req) => getPaymentDetails(app.db, currentUser(req).id),
  );

  app.put(
    '/payment-details',
    {
      schema: { ...base, body: UpdatePaymentDetails, response: { 200: PaymentDetails, ...errors } },
    },
    async (req) => {
      const u = currentUser(req);
      return updatePaymentDetails({
        db: app.db,
        publisher: { id: u.id, email: u.email, name: u.name },
        input: req.body,
        adminUrl: `${app.config.publicUrl}/admin/payouts?tab=balances`,
      });
    },
  );

  app.get(
    '/payouts/:id',
    { schema: { ...base, params: IdParams, response: { 200: LedgerPayout, ...errors } } },
    async (req) => getLedgerPayout(app.db, req.params.id, currentUser(req).id),
  );

  app.get(
    '/payouts/:id/leads',
    {
      schema: {
        ...base,
        params: IdParams,
        querystring: CoveredLeadsQuery,
        response: { 200: CoveredLeadList, ...errors },
      },
    },
    async (req) =>
      listCoveredLeads({
        db: app.db,
        payoutId: req.params.id,
        publisherId: currentUser(req).id,
        query: req.query,
      }),
  );

  for (const format of formats) {
    app.get(
      `/payouts/:id/statement${suffix[format]}`,
      {
        schema: {
          ...base,
          params: IdParams,
          ...(format === 'json' && { response: { 200: Statement, ...errors } }),
        },
      },
      async (req, reply) =>
        sendStatement(
          reply,
          { db: app.db, storage: app.storage },
          req.params.id,
          format,
          currentUser(req).id,
        ),
    );
  }
};
