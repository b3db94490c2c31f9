import { and, eq, type SQL, sql } from 'drizzle-orm';
import { PDFDocument, type PDFFont, type PDFImage, rgb, StandardFonts } from 'pdf-lib';
import type { PageQuery } from '../../../contract/list.ts';
import {
  type CoveredLeadList,
  formatCurrency,
  type LedgerPayout,
  type Statement,
  type StatementLine,
} from '../../../contract/money.ts';
import type { DbOrTx } from '../../db/client.ts';
import { csvLine } from '../../db/csv.ts';
import { cappedCount, keyset, listPage } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { leads, offers, payoutLines, payouts, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { notFound } from '../../errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { cents, centsMoney, rowsOf } from './ledger.service.ts';

/**
 * A payout's statement (issue 14): its leads by offer and day, reversals, adjustments, credits,
 * and the total, which is the sum of the lines (the payout's amount). Publishers read only
 * their own (`publisherId`), admins any.
 */

async function payoutOf(db: DbOrTx, id: string, publisherId?: string) {
  const [p] = await db
    .select({
      id: payouts.id,
      runId: payouts.runId,
      publisherId: payouts.publisherId,
      amount: payouts.amount,
      notes: payouts.notes,
      date: payouts.date,
      status: payouts.status,
      reference: payouts.reference,
      periodFrom: payouts.periodFrom,
      periodTo: payouts.periodTo,
      name: users.name,
      email: users.email,
    })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.publisherId))
    .where(and(eq(payouts.id, id), publisherId ? eq(payouts.publisherId, publisherId) : undefined));
  // Someone else's payout answers as a missing one: its existence is not told.
  if (!p) throw notFound('Payout');
  return p;
}

const REASON_LABEL: Record<string, string> = {
  bonus: 'Bonus',
  clawback: 'Clawback',
  correction: 'Correction',
};

export async function getStatement(opts: {
  db: DbOrTx;
  payoutId: string;
  publisherId?: string;
}): Promise<Statement> {
  const { db } = opts;
  const p = await payoutOf(db, opts.payoutId, opts.publisherId);
  const settings = await getSettings(db);
  const tz = settings.timezone;
  const leadRows = await rowsOf<{
    kind: 'lead' | 'reversal';
    day: string;
    offer: string;
    n: number;
    amount: string;
  }>(
    db,
    sql`select pl.kind, to_char(l.timestamp at time zone ${tz}, 'YYYY-MM-DD') as day,
               o.title as offer, count(*)::int as n, sum(pl.amount)::text as amount
        from ${payoutLines} pl
        join ${leads} l on l.id = pl.lead_id
        join ${offers} o on o.id = l.offer_id
        where pl.payout_id = ${p.id} and pl.kind in ('lead', 'reversal')
        group by 1, 2, 3
        order by 1, 2, 3`,
  );
  const otherRows = await rowsOf<{
    kind: 'adjustment' | 'advance' | 'credit';
    amount: string;
    reason: string | null;
    note: string | null;
  }>(
    db,
    sql`select pl.kind, pl.amount::text as amount, a.reason, a.note
        from ${payoutLines} pl
        left join payout_adjustments a on a.id = pl.adjustment_id
        where pl.payout_id = ${p.id} and pl.kind in ('adjustment', 'advance', 'credit')
        order by pl.kind, pl.id`,
  );
  const lines: StatementLine[] = [];
  for (const r of leadRows) {
    lines.push({
      kind: r.kind,
      day: r.day,
      offer: r.offer,
      leads: r.n,
      amount: toMoney(r.amount),
      description:
        r.kind === 'lead'
          ? `${r.n} approved lead${r.n === 1 ? '' : 's'}`
          : `${r.n} paid lead${r.n === 1 ? '' : 's'} no longer approved (taken back)`,
    });
  }
  for (const r of otherRows) {
    const description =
      r.kind === 'adjustment'
        ? `${REASON_LABEL[r.reason ?? ''] ?? 'Adjustment'}: ${r.note ?? ''}`.trim()
        : r.kind === 'advance'
          ? `Advance on earnings${p.notes ? `: ${p.notes}` : ''}`
          : 'Paid earlier without lead detail (advances, earlier payouts), deducted';
    lines.push({
      kind: r.kind,
      day: null,
      offer: null,
      leads: 0,
      amount: toMoney(r.amount),
      description,
    });
  }
  // A payout from before payout runs has no lines: the statement states it as one line.
  if (!leadRows.length && !otherRows.length) {
    lines.push({
      kind: 'advance',
      day: null,
      offer: null,
      leads: 0,
      amount: toMoney(p.amount),
      description: `Payout recorded before itemised statements${p.notes ? `: ${p.notes}` : ''}`,
    });
  }
  // The total is the sum of the lines, in exact cents.
  const total = [...leadRows.map((r) => r.amount), ...otherRows.map((r) => r.amount)].reduce(
    (s, a) => s + cents(a),
    0n,
  );
  return {
    payout_id: p.id,
    run_id: p.runId,
    publisher_name: p.name,
    publisher_email: p.email,
    date: p.date.toISOString(),
    status: p.status,
    reference: p.reference,
    period_from: p.periodFrom,
    period_to: p.periodTo,
    lines,
    total: leadRows.length || otherRows.length ? centsMoney(total) : toMoney(p.amount),
    currency: settings.currency,
    network: { name: settings.companyName, support_email: settings.supportEmail },
  };
}

const KIND_LABEL: Record<StatementLine['kind'], string> = {
  lead: 'Leads',
  reversal: 'Reversal',
  adjustment: 'Adjustment',
  advance: 'Advance',
  credit: 'Credit',
};

const money2 = (v: number) => v.toFixed(2);

/** The statement as CSV: one line per statement line, then the total. */
export async function* statementCsv(s: Statement): AsyncGenerator<string> {
  yield csvLine(['type', 'day', 'offer', 'leads', 'description', 'amount', 'currency']);
  for (const l of s.lines) {
    yield csvLine([
      KIND_LABEL[l.kind],
      l.day,
      l.offer,
      l.leads || '',
      l.description,
      money2(l.amount),
      s.currency,
    ]);
  }
  yield csvLine(['Total', '', '', '', '', money2(s.total), s.currency]);
}

/** pdf-lib's standard fonts speak WinAnsi only: anything else becomes '?'. */
const winAnsi = (s: string) => s.replace(/[^\x20-\x7e\u00a0-\u00ff€]/g, '?');

/** The statement as a PDF: network name, logo and support e-mail, the lines, the total. */
export async function statementPdf(s: Statement, logo?: { bytes: Uint8Array; type: string }) {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Payout statement ${s.payout_id}`);
  pdf.setAuthor(s.network.name);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let image: PDFImage | undefined;
  try {
    if (logo?.type === 'image/png') image = await pdf.embedPng(logo.bytes);
    if (logo?.type === 'image/jpeg') image = await pdf.embedJpg(logo.bytes);
  } catch {
    image = undefined; // an unreadable logo leaves the name alone at the top
  }
  const fmt = (v: number) => formatCurrency(v, s.currency);
  const W = 595;
  const H = 842;
  const M = 48;
  let page = pdf.addPage([W, H]);
  let y = H - M;
  const text = (t: string, x: number, f: PDFFont = font, size = 10) =>
    page.drawText(winAnsi(t), { x, y, size, font: f, color: rgb(0.1, 0.1, 0.1) });
  const right = (t: string, xr: number, f: PDFFont = font, size = 10) =>
    page.drawText(winAnsi(t), { x: xr - f.widthOfTextAtSize(winAnsi(t), size), y, size, font: f });
  const clip = (t: string, max: number, f: PDFFont = font, size = 10) => {
    let out = winAnsi(t);
    while (out.length > 1 && f.widthOfTextAtSize(out, size) > max) out = out.slice(0, -2);
    return out.length < winAnsi(t).length ? `${out}…`.replace('…', '...') : out;
  };
  if (image) {
    const scale = Math.min(120 / image.width, 40 / image.height, 1);
    page.drawImage(image, {
      x: W - M - image.width * scale,
      y: y - 30,
      width: image.width * scale,
      height: image.height * scale,
    });
  }
  text(s.network.name, M, bold, 16);
  y -= 18;
  text(`Support: ${s.network.support_email}`, M);
  y -= 30;
  text('Payout statement', M, bold, 14);
  y -= 20;
  const period =
    s.period_from || s.period_to
      ? `${s.period_from ?? 'first unpaid lead'} to ${s.period_to ?? s.date.slice(0, 10)}`
      : 'all unpaid leads up to the payout date';
  for (const [k, v] of [
    ['Publisher', `${s.publisher_name ?? ''} <${s.publisher_email}>`],
    ['Payout', s.payout_id],
    ['Date', s.date.slice(0, 10)],
    ['Period', period],
    [
      'Status',
      s.status === 'paid' ? `Paid, reference ${s.reference ?? ''}` : 'Recorded, not yet paid',
    ],
  ] as const) {
    text(`${k}:`, M, bold);
    text(clip(v, W - 2 * M - 80), M + 80);
    y -= 14;
  }
  y -= 14;
  const cols = { day: M, offer: M + 70, desc: M + 230, leads: W - M - 90, amount: W - M };
  const header = () => {
    text('Day', cols.day, bold);
    text('Offer', cols.offer, bold);
    text('Description', cols.desc, bold);
    right('Leads', cols.leads, bold);
    right('Amount', cols.amount, bold);
    y -= 6;
    page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 0.5 });
    y -= 12;
  };
  header();
  for (const l of s.lines) {
    if (y < M + 40) {
      page = pdf.addPage([W, H]);
      y = H - M;
      header();
    }
    text(l.day ?? '', cols.day);
    text(clip(l.offer ?? '', 150), cols.offer);
    text(clip(l.description, cols.leads - cols.desc - 40), cols.desc);
    if (l.leads) right(String(l.leads), cols.leads);
    right(fmt(l.amount), cols.amount);
    y -= 14;
  }
  y -= 4;
  page.drawLine({ start: { x: M, y: y + 10 }, end: { x: W - M, y: y + 10 }, thickness: 0.5 });
  text('Total', cols.desc, bold, 11);
  right(fmt(s.total), cols.amount, bold, 11);
  return pdf.save();
}

/** The network logo's bytes for the PDF (PNG or JPEG only; SVG is left out). */
export async function readLogo(db: DbOrTx, storage: Storage) {
  const settings = await getSettings(db);
  if (!settings.logoUrl) return undefined;
  const file = await storage.read(settings.logoUrl).catch(() => null);
  if (!file || !/^image\/(png|jpeg)$/.test(file.contentType) || file.size > 5 * 1024 * 1024) {
    if (file) (file.stream as unknown as { destroy?: () => void }).destroy?.();
    return undefined;
  }
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(Buffer.from(c as Buffer));
  return { bytes: new Uint8Array(Buffer.concat(chunks)), type: file.contentType };
}

/** The leads a payout paid (or took back), page by page. */
export async function listCoveredLeads(opts: {
  db: DbOrTx;
  payoutId: string;
  publisherId?: string;
  query: PageQuery;
}): Promise<CoveredLeadList> {
  const { db } = opts;
  await payoutOf(db, opts.payoutId, opts.publisherId);
  const where: SQL = and(
    eq(payoutLines.payoutId, opts.payoutId),
    sql`${payoutLines.kind} in ('lead', 'reversal')`,
  )!;
  return listPage({
    query: opts.query,
    keyset: keyset('line', payoutLines.id, 'asc', payoutLines.id),
    rows: (w) =>
      db
        .select({
          id: payoutLines.id,
          leadId: leads.id,
          timestamp: leads.timestamp,
          offerTitle: offers.title,
          kind: payoutLines.kind,
          amount: payoutLines.amount,
          status: leads.status,
          sortKey: w.sortKey,
        })
        .from(payoutLines)
        .innerJoin(leads, eq(leads.id, payoutLines.leadId))
        .innerJoin(offers, eq(offers.id, leads.offerId))
        .where(and(where, w.after))
        .orderBy(...w.orderBy)
        .limit(w.limit)
        .offset(w.offset),
    count: () => cappedCount(db, db.select({ one: sql`1` }).from(payoutLines).where(where)),
    toItem: (r) => ({
      id: r.leadId,
      timestamp: r.timestamp.toISOString(),
      offer_title: r.offerTitle,
      kind: r.kind === 'reversal' ? ('reversal' as const) : ('lead' as const),
      amount: toMoney(r.amount),
      status: r.status,
    }),
  });
}

/** One payout with its ledger fields and the number of leads it paid. */
export async function getLedgerPayout(
  db: DbOrTx,
  id: string,
  publisherId?: string,
): Promise<LedgerPayout> {
  const p = await payoutOf(db, id, publisherId);
  const [n] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from payout_lines where payout_id = ${id} and kind = 'lead'`,
  );
  return {
    id: p.id,
    run_id: p.runId,
    amount: toMoney(p.amount),
    notes: p.notes,
    date: p.date.toISOString(),
    status: p.status,
    reference: p.reference,
    period_from: p.periodFrom,
    period_to: p.periodTo,
    leads: n?.n ?? 0,
  };
}
