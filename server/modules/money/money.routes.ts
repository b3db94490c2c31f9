import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import { actorOf, adminDoc, bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import { type RouteKit, routeKit, type ZodApp } from '../../http/route-kit.ts';
import { registerJob } from '../../jobs/runtime.ts';
import type { Storage } from '../../storage/storage.ts';
import { listBalances } from './balances.service.ts';
import { balanceOf, foldNetworkBalance } from './figures.ts';
import { foldPayoutHolds } from './holds.service.ts';
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

const errors = errorReplies(400, 401, 403, 404);

/**
 * A payout as the ledger keeps it, the leads it covered, and its statement in each format; a
 * publisher reads only their own (`ownerOf` answers their id), an admin any (undefined).
 */
function ledgerRoutes(
  app: ZodApp,
  kit: RouteKit,
  ownerOf: (req: FastifyRequest) => string | undefined,
) {
  kit.route('GET', '/payouts/:id', { params: IdParams, reply: LedgerPayout }, async (req) =>
    getLedgerPayout(app.db, req.params.id, ownerOf(req)),
  );

  kit.route(
    'GET',
    '/payouts/:id/leads',
    { params: IdParams, query: CoveredLeadsQuery, reply: CoveredLeadList },
    async (req) =>
      listCoveredLeads({
        db: app.db,
        payoutId: req.params.id,
        publisherId: ownerOf(req),
        query: req.query,
      }),
  );

  for (const format of formats) {
    kit.route(
      'GET',
      `/payouts/:id/statement${suffix[format]}`,
      { params: IdParams, ...(format === 'json' && { reply: Statement }) },
      async (req, reply) =>
        sendStatement(
          reply,
          { db: app.db, storage: app.storage },
          req.params.id,
          format,
          ownerOf(req),
        ),
    );
  }
}

/** Admin → Payouts: balances, adjustments, payout runs, statements (issue 14). */
export const adminMoneyRoutes: FastifyPluginAsyncZod = async (app) => {
  // The network balance's parts (drizzle/0056) folded into one row: a minute's writes add a few
  // hundred parts at most at the bench's ingestion rate, and the dashboard sums what is there.
  registerJob(app, {
    name: 'network-balance-fold',
    scope: 'cluster',
    everyMs: 60_000,
    run: ({ db }) => foldNetworkBalance(db),
  });
  // The held payouts' parts (drizzle/0057), likewise: one row per combination of conditions.
  registerJob(app, {
    name: 'payout-holds-fold',
    scope: 'cluster',
    everyMs: 60_000,
    run: ({ db }) => foldPayoutHolds(db),
  });
  // Lists document no error answers; the other routes their 400, 401, 403 and 404.
  const lists = routeKit(app, adminDoc);
  const admin = routeKit(app, adminDoc, errors);
  lists.list('/balances', { query: BalanceListQuery, reply: BalanceList }, listBalances);

  admin.route(
    'POST',
    '/publishers/:id/adjustments',
    { params: IdParams, body: CreateAdjustment, reply: Adjustment, status: 201 },
    async (req, reply) =>
      respondIdempotently(req, reply, 201, (db) =>
        createAdjustment({ db, actor: actorOf(req), publisherId: req.params.id, input: req.body }),
      ),
  );

  admin.route(
    'POST',
    '/payout-runs/preview',
    { body: RunSelection, reply: RunPreview },
    async (req) => previewRun({ db: app.db, selection: req.body }),
  );

  admin.route(
    'POST',
    '/payout-runs',
    { body: RunSelection, reply: PayoutRun, status: 201 },
    async (req, reply) =>
      respondIdempotently(req, reply, 201, (db) =>
        confirmRun({ db, actor: actorOf(req), selection: req.body }),
      ),
  );

  lists.list('/payout-runs', { query: RunListQuery, reply: RunList }, listRuns);
  admin.route('GET', '/payout-runs/:id', { params: IdParams, reply: PayoutRun }, async (req) =>
    getRun(app.db, req.params.id),
  );

  lists.route('GET', '/payout-runs/:id/export.csv', { params: IdParams }, async (req, reply) =>
    // The generic CSV of payment-files/generic.ts; 404 before the download starts.
    sendCsv(
      reply,
      `payout-run-${req.params.id.slice(0, 8)}`,
      await genericCsvLines(app.db, req.params.id),
    ),
  );

  const run = { params: IdParams, reply: PayoutRun };
  admin.change('POST', '/payout-runs/:id/paid', { ...run, body: MarkRunPaid }, markRunPaid);
  admin.change('POST', '/payout-runs/:id/void', { ...run, body: VoidRun }, voidRun);
  ledgerRoutes(app, admin, () => undefined);
};

/** The publisher's own money: balance, payouts' statements and leads, payment details. */
export const publisherMoneyRoutes: FastifyPluginAsyncZod = async (app) => {
  const mine = routeKit(app, bearerDoc('publisher'), errors);
  mine.route('GET', '/money', { reply: PublisherMoney }, async (req) => {
    const id = currentUser(req).id;
    const [balance, payment, settings] = await Promise.all([
      balanceOf(app.db, id),
      getPaymentDetails(app.db, id),
      ledgerSettings(app.db),
    ]);
    return { balance, payment, min_payout: toMoney(settings.minPayout) };
  });

  mine.route('GET', '/payment-details', { reply: PaymentDetails }, async (req) =>
    getPaymentDetails(app.db, currentUser(req).id),
  );

  mine.route(
    'PUT',
    '/payment-details',
    { body: UpdatePaymentDetails, reply: PaymentDetails },
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

  ledgerRoutes(app, mine, (req) => currentUser(req).id);
};
