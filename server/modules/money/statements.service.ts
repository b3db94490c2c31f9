import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PageQuery } from '../../../contract/list.ts';
import {
  type CoveredLeadList,
  type LedgerPayout,
  lineKinds,
  type Statement,
  type StatementLine,
  type StatementSection,
  statementNumber,
} from '../../../contract/money.ts';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { csvLine } from '../../db/csv.ts';
import { countRows, keyset, type ListRead, listPage, pageOf } from '../../db/list-query.ts';
import { amountCents, cents, centsMoney, centsText, toMoney } from '../../db/money.ts';
import { joinLeadAndOffer } from '../../db/refs.ts';
import { leads, offers, payoutLines, payouts, users } from '../../db/schema.ts';
import { getSettings, networkTimeZoneSql } from '../../db/settings.ts';
import { notFound } from '../../errors.ts';
import type { Storage } from '../../storage/storage.ts';
import {
  countText,
  durationText,
  KIND_NAMES,
  renderStatementPdf,
  type StatementLogo,
} from './statement-pdf.ts';

/**
 * A payout's statement (issues 14 and 27): numbered per publisher and year, one line per call
 * it pays, then reversals, adjustments, advances and credits, each kind a section with its
 * count and subtotal; the total is the sum of the lines (the payout's amount). The same lines
 * make the JSON, the CSV and the PDF. Publishers read only their own (`publisherId`), admins any.
 */

async function payoutOf(db: DbOrTx, id: string, publisherId?: string) {
  const [p] = await db
    .select({
      ...getTableColumns(payouts),
      issuedOn: sql<string>`to_char(${payouts.date} at time zone ${networkTimeZoneSql}, 'YYYY-MM-DD')`,
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

/** "2026-10-01 to 2026-10-31"; open-ended periods say what they covered up to the payout. */
function periodLabel(from: string | null, to: string | null, issuedOn: string): string {
  if (from) return `${from} to ${to ?? issuedOn}`;
  return `All unpaid calls up to ${to ?? issuedOn}`;
}

/**
 * A payout's statement: one line per call it pays, then its reversals, adjustments, advances
 * and credits, each kind a section with its count and subtotal; the total is the sum of the
 * lines (the payout's amount), in exact cents. Days are days of the network's zone.
 */
export async function getStatement(opts: {
  db: DbOrTx;
  payoutId: string;
  publisherId?: string;
}): Promise<Statement> {
  const { db } = opts;
  const p = await payoutOf(db, opts.payoutId, opts.publisherId);
  const settings = await getSettings(db);
  const tz = settings.timezone;
  const callRows = await rowsOf<{
    kind: 'lead' | 'reversal';
    lead_id: string;
    call_id: string | null;
    seconds: number;
    day: string;
    offer: string;
    amount: string;
  }>(
    db,
    sql`select pl.kind, l.id as lead_id, l.external_call_id as call_id,
               coalesce(l.duration_seconds, l.call_duration * 60)::int as seconds,
               to_char(l.timestamp at time zone ${tz}, 'YYYY-MM-DD') as day,
               o.title as offer, pl.amount::text as amount
        from ${payoutLines} pl
        join ${leads} l on l.id = pl.lead_id
        join ${offers} o on o.id = l.offer_id
        where pl.payout_id = ${p.id} and pl.kind in ('lead', 'reversal')
        order by pl.kind = 'reversal', l.timestamp, l.id`,
  );
  const otherRows = await rowsOf<{
    kind: 'adjustment' | 'advance' | 'credit';
    amount: string;
    day: string | null;
    reason: string | null;
    note: string | null;
  }>(
    db,
    sql`select pl.kind, pl.amount::text as amount, a.reason, a.note,
               to_char(a.created_at at time zone ${tz}, 'YYYY-MM-DD') as day
        from ${payoutLines} pl
        left join payout_adjustments a on a.id = pl.adjustment_id
        where pl.payout_id = ${p.id} and pl.kind in ('adjustment', 'advance', 'credit')
        order by array_position(array['adjustment', 'advance', 'credit'], pl.kind::text),
                 a.created_at, pl.id`,
  );
  const lines: { line: StatementLine; cents: bigint }[] = [];
  for (const r of callRows) {
    lines.push({
      cents: cents(r.amount),
      line: {
        kind: r.kind,
        day: r.day,
        offer: r.offer,
        lead_id: r.lead_id,
        // Lead ids are time-ordered (UUIDv7): their head is the same for a minute's leads, their
        // last group is random, so that is the short id.
        call_id: r.call_id ?? r.lead_id.slice(-12),
        duration_seconds: r.seconds,
        amount: toMoney(r.amount),
        description:
          r.kind === 'lead' ? 'Approved call' : 'Paid call no longer approved, taken back',
      },
    });
  }
  for (const r of otherRows) {
    const description =
      r.kind === 'adjustment'
        ? `${REASON_LABEL[r.reason ?? ''] ?? 'Adjustment'}: ${r.note ?? ''}`.trim()
        : r.kind === 'advance'
          ? `Advance on earnings${p.notes ? `: ${p.notes}` : ''}`
          : 'Paid earlier without call detail (advances, earlier payouts), deducted';
    lines.push({
      cents: cents(r.amount),
      line: {
        kind: r.kind,
        day: r.kind === 'adjustment' ? r.day : null,
        offer: null,
        lead_id: null,
        call_id: null,
        duration_seconds: null,
        amount: toMoney(r.amount),
        description,
      },
    });
  }
  // A payout from before payout runs has no lines: the statement states it as one line.
  if (!lines.length) {
    lines.push({
      cents: cents(p.amount),
      line: {
        kind: 'advance',
        day: null,
        offer: null,
        lead_id: null,
        call_id: null,
        duration_seconds: null,
        amount: toMoney(p.amount),
        description: `Payout recorded before itemised statements${p.notes ? `: ${p.notes}` : ''}`,
      },
    });
  }
  const sections: StatementSection[] = [];
  for (const kind of lineKinds) {
    const of = lines.filter((l) => l.line.kind === kind);
    if (!of.length) continue;
    sections.push({
      kind,
      title: KIND_NAMES[kind].title,
      count: of.length,
      subtotal: centsMoney(of.reduce((sum, l) => sum + l.cents, 0n)),
    });
  }
  const issuedOn = p.issuedOn;
  return {
    payout_id: p.id,
    number: statementNumber(p.statementYear, p.statementSeq),
    run_id: p.runId,
    publisher_name: p.name,
    publisher_email: p.email,
    date: p.date.toISOString(),
    issued_on: issuedOn,
    status: p.status,
    reference: p.reference,
    period_from: p.periodFrom,
    period_to: p.periodTo,
    period_label: periodLabel(p.periodFrom, p.periodTo, issuedOn),
    timezone: tz,
    lines: lines.map((l) => l.line),
    sections,
    // The total is the sum of the lines, in exact cents (the payout's amount).
    total: centsMoney(lines.reduce((sum, l) => sum + l.cents, 0n)),
    currency: settings.currency,
    network: {
      name: settings.companyName,
      support_email: settings.supportEmail,
      address: settings.companyAddress?.trim() || null,
    },
  };
}

/**
 * The statement as CSV: one row per line (one per call), each with the statement's number,
 * then a subtotal row per section and the total row (marked in `type`).
 */
export async function* statementCsv(s: Statement): AsyncGenerator<string> {
  yield csvLine([
    'statement',
    'type',
    'date',
    'offer',
    'call_id',
    'duration',
    'description',
    'amount',
    'currency',
  ]);
  const amount = (v: number) => centsText(amountCents(v));
  for (const l of s.lines) {
    yield csvLine([
      s.number,
      KIND_NAMES[l.kind].one,
      l.day,
      l.offer,
      l.call_id,
      durationText(l.duration_seconds),
      l.description,
      amount(l.amount),
      s.currency,
    ]);
  }
  for (const section of s.sections) {
    yield csvLine([
      s.number,
      'subtotal',
      '',
      '',
      '',
      '',
      `${section.title}: ${countText(section.kind, section.count)}`,
      amount(section.subtotal),
      s.currency,
    ]);
  }
  yield csvLine([
    s.number,
    'total',
    '',
    '',
    '',
    '',
    s.sections.map((x) => countText(x.kind, x.count)).join(', '),
    amount(s.total),
    s.currency,
  ]);
}

/** The statement as a PDF (see statement-pdf.ts). */
export const statementPdf = renderStatementPdf;

/** The network logo's bytes for the PDF (PNG or JPEG only; SVG is left out). */
export async function readLogo(db: DbOrTx, storage: Storage): Promise<StatementLogo | undefined> {
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
export async function listCoveredLeads(
  opts: ListRead<PageQuery> & { payoutId: string; publisherId?: string },
): Promise<CoveredLeadList> {
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
      pageOf(
        joinLeadAndOffer(
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
            .$dynamic(),
          payoutLines.leadId,
        ),
        where,
        w,
      ),
    count: () => countRows(db, payoutLines, where, 'capped'),
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
    statement_number: statementNumber(p.statementYear, p.statementSeq),
  };
}
