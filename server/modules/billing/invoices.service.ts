import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { BILLING_MESSAGES, type BuyerInvoice } from '../../../contract/buyer-billing.ts';
import { type Db, type DbOrTx, rowsOf } from '../../db/client.ts';
import { csvLine } from '../../db/csv.ts';
import { centsMoney } from '../../db/money.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { buyerInvoiceLines, buyerInvoices, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { badRequest } from '../../errors.ts';
import { moneyFormat } from '../money/index.ts';
import { toInvoice } from './billing.service.ts';

/**
 * Monthly invoices of postpaid buyers (issue 31, item 6): per month of the network's time zone,
 * one line per campaign and day of billed calls and one per accepted return (a credit, on the
 * day it was accepted); the total is the sum of the lines, in cents. Written once: an invoice
 * of a month that has one is that invoice.
 */

type Line = {
  kind: 'calls' | 'return';
  day: string;
  campaignId: string | null;
  campaignName: string;
  calls: number;
  amountCents: bigint;
};

/** The lines of `buyerId`'s month (`YYYY-MM-01`) in time zone `tz`, read from the leads and returns. */
async function monthLines(db: DbOrTx, buyerId: string, month: string, tz: string): Promise<Line[]> {
  const from = sql`(${month}::date::timestamp at time zone ${tz})`;
  const to = sql`((${month}::date + interval '1 month')::timestamp at time zone ${tz})`;
  const rows = await rowsOf<{
    kind: 'calls' | 'return';
    day: string;
    campaign_id: string;
    campaign_name: string;
    calls: number;
    cents: string;
  }>(
    db,
    sql`
    select 'calls' as kind, to_char((l."timestamp" at time zone ${tz})::date, 'YYYY-MM-DD') as day,
           c.id as campaign_id, c.name as campaign_name, count(*)::int as calls,
           sum(round(l.billed_amount * 100))::bigint as cents
      from campaigns c join leads l on l.campaign_id = c.id
     where c.buyer_id = ${buyerId}::uuid and l.billed_amount is not null
       and l."timestamp" >= ${from} and l."timestamp" < ${to}
     group by 2, 3, 4
    union all
    select 'return', to_char((r.decided_at at time zone ${tz})::date, 'YYYY-MM-DD'), c.id, c.name,
           count(*)::int, -sum(round(r.amount * 100))::bigint
      from call_returns r join campaigns c on c.id = r.campaign_id
     where r.buyer_id = ${buyerId}::uuid and r.status = 'accepted'
       and r.decided_at >= ${from} and r.decided_at < ${to}
     group by 2, 3, 4
     order by 2, 1, 4`,
  );
  return rows.map((r) => ({
    kind: r.kind,
    day: r.day,
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    calls: Number(r.calls),
    amountCents: BigInt(r.cents),
  }));
}

/** The first day of the month before the current one in `tz` (`YYYY-MM-01`). */
async function lastMonth(db: DbOrTx, tz: string): Promise<string> {
  const r = await rowsOf<{ m: string }>(
    db,
    sql`select to_char(date_trunc('month', (now() at time zone ${tz})) - interval '1 month', 'YYYY-MM-DD') as m`,
  );
  return r[0]!.m;
}

/**
 * The buyer's invoice of `month` (`YYYY-MM`, a month that has ended in the network's time
 * zone): made from its lines in one transaction, or the one already made.
 */
export async function generateInvoice(
  db: Db,
  buyerId: string,
  month: string,
): Promise<BuyerInvoice> {
  const { timezone: tz, currency } = await getSettings(db);
  const first = `${month}-01`;
  if (first > (await lastMonth(db, tz))) throw badRequest(BILLING_MESSAGES.notPastMonth);
  return db.transaction(async (tx) => {
    await oneOrNotFound(
      tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, buyerId), eq(users.role, 'buyer'))),
      'Buyer',
    );
    const lines = await monthLines(tx, buyerId, first, tz);
    const total = lines.reduce((s, l) => s + l.amountCents, 0n);
    const [made] = await tx
      .insert(buyerInvoices)
      .values({ buyerId, month: first, currency, timeZone: tz, totalCents: total })
      .onConflictDoNothing()
      .returning();
    if (made && lines.length > 0) {
      await tx.insert(buyerInvoiceLines).values(lines.map((l) => ({ ...l, invoiceId: made.id })));
    }
    if (made) return toInvoice(made);
    const [existing] = await tx
      .select()
      .from(buyerInvoices)
      .where(and(eq(buyerInvoices.buyerId, buyerId), eq(buyerInvoices.month, first)));
    return toInvoice(existing!);
  });
}

/**
 * The monthly job: last month's invoice of every postpaid buyer who had billed calls or
 * credited returns in it and has none yet. Runs hourly, so it invoices on the 1st in the
 * network's time zone and catches up after a stop.
 */
export async function runMonthlyInvoices(db: Db): Promise<number> {
  const { timezone: tz } = await getSettings(db);
  const month = await lastMonth(db, tz);
  const due = await rowsOf<{ buyer_id: string }>(
    db,
    sql`
    select distinct c.buyer_id from campaigns c
     where not exists (select 1 from buyer_billing b where b.buyer_id = c.buyer_id and b.mode = 'prepaid')
       and not exists (select 1 from buyer_invoices i where i.buyer_id = c.buyer_id and i.month = ${month}::date)
       and (exists (select 1 from campaign_spend_days d where d.campaign_id = c.id
                     and d.day >= ${month}::date and d.day < ${month}::date + interval '1 month')
            or exists (select 1 from call_returns r where r.campaign_id = c.id and r.status = 'accepted'
                     and r.decided_at >= ${month}::date::timestamp at time zone ${tz}
                     and r.decided_at < (${month}::date + interval '1 month')::timestamp at time zone ${tz}))`,
  );
  for (const r of due) await generateInvoice(db, r.buyer_id, month.slice(0, 7));
  return due.length;
}

/** The buyer's invoices, newest first. */
export async function listInvoices(db: DbOrTx, buyerId: string): Promise<BuyerInvoice[]> {
  const rows = await db
    .select()
    .from(buyerInvoices)
    .where(eq(buyerInvoices.buyerId, buyerId))
    .orderBy(desc(buyerInvoices.month));
  return rows.map(toInvoice);
}

/** One invoice with its lines; `buyerId` set: that buyer's own (another's is a 404). */
export async function invoiceWithLines(db: DbOrTx, id: string, buyerId?: string) {
  const where = buyerId
    ? and(eq(buyerInvoices.id, id), eq(buyerInvoices.buyerId, buyerId))
    : eq(buyerInvoices.id, id);
  const row = await oneOrNotFound(
    db
      .select({ inv: buyerInvoices, email: users.email, name: users.name })
      .from(buyerInvoices)
      .innerJoin(users, eq(users.id, buyerInvoices.buyerId))
      .where(where),
    'Invoice',
  );
  const lines = await db
    .select()
    .from(buyerInvoiceLines)
    .where(eq(buyerInvoiceLines.invoiceId, id))
    .orderBy(asc(buyerInvoiceLines.day), asc(buyerInvoiceLines.id));
  return { invoice: row.inv, buyer: row.name || row.email, lines };
}
type FullInvoice = Awaited<ReturnType<typeof invoiceWithLines>>;

const lineLabel = (l: FullInvoice['lines'][number]) =>
  l.kind === 'calls'
    ? `${l.calls} billed call${l.calls === 1 ? '' : 's'}`
    : `Return credited (${l.calls})`;

/** The invoice as CSV: a header, one row per line, the total last. */
export async function* invoiceCsv(f: FullInvoice): AsyncIterable<string> {
  yield csvLine(['day', 'campaign', 'kind', 'calls', `amount (${f.invoice.currency})`]);
  for (const l of f.lines) {
    yield csvLine([l.day, l.campaignName, l.kind, l.calls, centsMoney(l.amountCents)]);
  }
  yield csvLine(['total', '', '', '', centsMoney(f.invoice.totalCents)]);
}

/** The invoice as a PDF (A4): the network, the buyer, the month, the lines and the total. */
export async function invoicePdf(db: DbOrTx, f: FullInvoice): Promise<Uint8Array> {
  const { companyName } = await getSettings(db);
  const pdf = await PDFDocument.create();
  const month = f.invoice.month.slice(0, 7);
  pdf.setTitle(`Invoice ${month}`);
  pdf.setAuthor(companyName);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const money = moneyFormat(f.invoice.currency);
  let page = pdf.addPage([595.28, 841.89]);
  let y = 790;
  const text = (s: string, x: number, size = 10, b = false) =>
    page.drawText(s, { x, y, size, font: b ? bold : font });
  const right = (s: string, x: number, size = 10, b = false) =>
    page.drawText(s, {
      x: x - (b ? bold : font).widthOfTextAtSize(s, size),
      y,
      size,
      font: b ? bold : font,
    });
  text(companyName, 50, 16, true);
  y -= 24;
  text(`Invoice for ${month} (${f.invoice.timeZone})`, 50, 12);
  y -= 16;
  text(`Buyer: ${f.buyer}`, 50);
  y -= 28;
  const header = () => {
    text('Day', 50, 10, true);
    text('Campaign', 130, 10, true);
    text('Item', 330, 10, true);
    right('Amount', 545, 10, true);
    y -= 16;
  };
  header();
  for (const l of f.lines) {
    if (y < 70) {
      page = pdf.addPage([595.28, 841.89]);
      y = 790;
      header();
    }
    text(l.day, 50);
    text(l.campaignName.slice(0, 34), 130);
    text(lineLabel(l), 330);
    right(money(centsMoney(l.amountCents)), 545);
    y -= 14;
  }
  if (f.lines.length === 0) {
    text('No billed calls or returns this month.', 50);
    y -= 14;
  }
  y -= 10;
  text('Total', 330, 11, true);
  right(money(centsMoney(f.invoice.totalCents)), 545, 11, true);
  return pdf.save();
}
