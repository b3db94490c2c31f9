import type { FastifyReply } from 'fastify';
import { IdParams } from '../../../contract/admin-common.ts';
import {
  BuyerBilling,
  BuyerInvoice,
  BuyerInvoiceList,
  DepositBody,
  GenerateInvoiceBody,
  SetBillingModeBody,
} from '../../../contract/buyer-billing.ts';
import { currentUser } from '../../auth/guard.ts';
import type { Db } from '../../db/client.ts';
import { sendCsv } from '../../db/csv.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin, type RouteKit, type ZodApp } from '../../http/route-kit.ts';
import { registerJob } from '../../jobs/runtime.ts';
import {
  adminBuyerBilling,
  getBuyerBilling,
  recordDeposit,
  setBillingMode,
} from './billing.service.ts';
import {
  generateInvoice,
  invoiceCsv,
  invoicePdf,
  invoiceWithLines,
  listInvoices,
  runMonthlyInvoices,
} from './invoices.service.ts';

/** The invoice `id` as PDF or CSV; `buyerId` set: only that buyer's own (another's is a 404). */
async function sendInvoice(
  db: Db,
  reply: FastifyReply,
  id: string,
  format: 'pdf' | 'csv',
  buyerId?: string,
) {
  const full = await invoiceWithLines(db, id, buyerId);
  const name = `invoice-${full.invoice.month.slice(0, 7)}-${id.slice(0, 8)}`;
  if (format === 'csv') return sendCsv(reply, name, invoiceCsv(full));
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${name}.pdf"`)
    .header('cache-control', 'no-store')
    .send(Buffer.from(await invoicePdf(db, full)));
}

/** `GET /invoices/:id.pdf` and `.csv` on `kit`. */
function invoiceFiles(
  app: ZodApp,
  kit: RouteKit,
  ownerOf: (req: Parameters<typeof currentUser>[0]) => string | undefined,
) {
  for (const format of ['pdf', 'csv'] as const) {
    kit.route('GET', `/invoices/:id.${format}`, { params: IdParams }, (req, reply) =>
      sendInvoice(app.db, reply, req.params.id, format, ownerOf(req)),
    );
  }
}

/**
 * The buyer's billing (issue 31, item 6), declared on the buyer area's kit (its hook checks the
 * role): `GET /billing`, `GET /invoices`, `GET /invoices/:id.pdf|.csv` (their own only).
 */
export function buyerBillingRoutes(app: ZodApp, kit: RouteKit): void {
  kit.route('GET', '/billing', { reply: BuyerBilling }, (req) =>
    getBuyerBilling(app.db, currentUser(req).id),
  );
  kit.route('GET', '/invoices', { reply: BuyerInvoiceList }, async (req) => ({
    items: await listInvoices(app.db, currentUser(req).id),
  }));
  invoiceFiles(app, kit, (req) => currentUser(req).id);
}

/**
 * A buyer's billing for the admin: `GET|PUT /buyers/:id/billing`, `POST /buyers/:id/deposits`,
 * `POST /buyers/:id/invoices {month}` (generate now), `GET /invoices/:id.pdf|.csv`; and the
 * hourly job that invoices last month's postpaid buyers.
 */
export const adminBillingRoutes = kitPlugin(adminDoc, (admin, app) => {
  registerJob(app, {
    name: 'buyer-invoices',
    scope: 'cluster',
    everyMs: 3_600_000,
    run: ({ db }) => runMonthlyInvoices(db),
  });
  const one = { params: IdParams, reply: BuyerBilling };
  admin.read('/buyers/:id/billing', one, adminBuyerBilling);
  admin.change('PUT', '/buyers/:id/billing', { ...one, body: SetBillingModeBody }, setBillingMode);
  admin.change(
    'POST',
    '/buyers/:id/deposits',
    { ...one, body: DepositBody, status: 201 },
    recordDeposit,
  );
  admin.change(
    'POST',
    '/buyers/:id/invoices',
    { params: IdParams, body: GenerateInvoiceBody, reply: BuyerInvoice },
    (o) => generateInvoice(o.db, o.id, o.input.month),
  );
  invoiceFiles(app, admin, () => undefined);
});
