import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  DEFAULT_CURRENCY,
  type PaymentDetails,
  type RunPreviewItem,
} from '../../../contract/money.ts';
import { type DbOrTx, rowsOf } from '../../db/client.ts';
import { dateBounds } from '../../db/list-query.ts';
import { cents, centsMoney, toMoney } from '../../db/money.ts';
import { leads, publisherBalances, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { type Hold, holdSentence, isHeld } from './holds.service.ts';
import { NO_DETAILS } from './payment-details.service.ts';

/**
 * The publisher ledger (issue 14). Earned = approved leads' payouts + adjustments; paid = the
 * payouts; owed = earned − paid, kept per publisher in `publisher_balances` by triggers.
 *
 * What a run pays a publisher is worked out line by line here (`dueFor`):
 * - each approved lead of the period whose lines are even in number (never paid, or paid and
 *   taken back) gets a `lead` line of its payout, numbered next;
 * - each paid lead (odd lines) no longer approved, whatever its day, gets a `reversal` of what
 *   was paid; a paid lead whose payout changed is reversed and paid again at the new amount;
 * - each adjustment no payout has settled yet;
 * - money paid without lines (advances, payouts from before runs) is deducted as a `credit`.
 * The sum of these is exactly owed when the period covers every day.
 */

export type LedgerSettings = { currency: string; minPayout: string; timezone: string };

export async function ledgerSettings(db: DbOrTx): Promise<LedgerSettings> {
  const s = await getSettings(db);
  return { currency: s.currency ?? DEFAULT_CURRENCY, minPayout: s.minPayout, timezone: s.timezone };
}

// ---------------------------------------------------------------------------
// What a run would pay
// ---------------------------------------------------------------------------

export type DueLine =
  | { kind: 'lead' | 'reversal'; leadId: string; seq: number; amount: bigint }
  | { kind: 'adjustment'; adjustmentId: string; amount: bigint }
  | { kind: 'credit'; amount: bigint };

export type Due = {
  publisherId: string;
  lines: DueLine[];
  leads: number;
  leadsAmount: bigint;
  reversals: number;
  reversalsAmount: bigint;
  adjustmentsAmount: bigint;
  creditAmount: bigint;
  total: bigint;
};

export type Period = { from?: string | undefined; to?: string | undefined };

/** Everything one publisher is due in a run over `period` (see the module comment). */
export async function dueFor(db: DbOrTx, publisherId: string, period: Period): Promise<Due> {
  const inPeriod = dateBounds(leads.timestamp, period) ?? sql`true`;
  // Approved leads of the period that are not paid now (no lines, or paid and taken back).
  const unpaid = await rowsOf<{ id: string; payout: string; n: number }>(
    db,
    sql`select leads.id, leads.payout::text as payout, coalesce(x.n, 0)::int as n
        from ${leads}
        left join lateral (select count(*)::int as n from payout_lines pl where pl.lead_id = leads.id) x on true
        where leads.publisher_id = ${publisherId} and leads.status = 'approved' and ${inPeriod}
          and coalesce(x.n, 0) % 2 = 0
        order by leads.timestamp, leads.id`,
  );
  // Paid leads (odd lines) no longer approved, or approved at another payout: any day.
  const changed = await rowsOf<{
    id: string;
    payout: string;
    status: string;
    n: number;
    net: string;
  }>(
    db,
    sql`select l.id, l.payout::text as payout, l.status, x.n, x.net::text as net
        from (select lead_id, count(*)::int as n, sum(amount) as net from payout_lines
              where publisher_id = ${publisherId} and lead_id is not null group by lead_id) x
        join ${leads} l on l.id = x.lead_id
        where x.n % 2 = 1 and (l.status <> 'approved' or l.payout <> x.net)
        order by l.timestamp, l.id`,
  );
  const adjustments = await rowsOf<{ id: string; amount: string }>(
    db,
    sql`select a.id, a.amount::text as amount from payout_adjustments a
        where a.publisher_id = ${publisherId}
          and not exists (select 1 from payout_lines pl where pl.adjustment_id = a.id)
        order by a.created_at, a.id`,
  );
  // Money paid without lines for it: payouts from before runs, advances, minus credits used.
  const [unlinked] = await rowsOf<{ sum: string }>(
    db,
    sql`select (
          coalesce((select sum(amount) from payouts p where p.publisher_id = ${publisherId} and p.run_id is null), 0)
          + coalesce((select sum(amount) from payout_lines pl where pl.publisher_id = ${publisherId} and pl.kind in ('advance', 'credit')), 0)
        )::text as sum`,
  );

  const lines: DueLine[] = [];
  let leadsN = 0;
  let leadsAmount = 0n;
  let reversals = 0;
  let reversalsAmount = 0n;
  for (const r of unpaid) {
    const amount = cents(r.payout);
    lines.push({ kind: 'lead', leadId: r.id, seq: r.n + 1, amount });
    leadsN++;
    leadsAmount += amount;
  }
  for (const r of changed) {
    const back = -cents(r.net);
    lines.push({ kind: 'reversal', leadId: r.id, seq: r.n + 1, amount: back });
    reversals++;
    reversalsAmount += back;
    if (r.status === 'approved') {
      const amount = cents(r.payout);
      lines.push({ kind: 'lead', leadId: r.id, seq: r.n + 2, amount });
      leadsN++;
      leadsAmount += amount;
    }
  }
  let adjustmentsAmount = 0n;
  for (const a of adjustments) {
    const amount = cents(a.amount);
    lines.push({ kind: 'adjustment', adjustmentId: a.id, amount });
    adjustmentsAmount += amount;
  }
  const subtotal = leadsAmount + reversalsAmount + adjustmentsAmount;
  const available = cents(unlinked?.sum);
  let creditAmount = 0n;
  if (available > 0n && subtotal > 0n) {
    // bigint has no Math.min: the smaller of what is available and what is due.
    creditAmount = available < subtotal ? -available : -subtotal;
    lines.push({ kind: 'credit', amount: creditAmount });
  }
  return {
    publisherId,
    lines,
    leads: leadsN,
    leadsAmount,
    reversals,
    reversalsAmount,
    adjustmentsAmount,
    creditAmount,
    total: subtotal + creditAmount,
  };
}

export type Candidate = {
  id: string;
  name: string | null;
  email: string;
  status: string;
  owed: string;
};

/**
 * The publishers a selection names (only publishers), or every publisher owed ≥ threshold,
 * whatever their status: a blocked publisher who is owed money is listed as held (holds.service),
 * never left out without a word.
 */
export async function candidatesOf(
  db: DbOrTx,
  sel: { publisher_ids?: string[] | undefined; all_above_threshold?: boolean | undefined },
  minPayout: string,
): Promise<Candidate[]> {
  const cols = {
    id: users.id,
    name: users.name,
    email: users.email,
    status: users.status,
    owed: sql<string>`coalesce(${publisherBalances.owed}, 0)::text`,
  };
  const base = db
    .select(cols)
    .from(users)
    .leftJoin(publisherBalances, eq(publisherBalances.publisherId, users.id));
  if (sel.all_above_threshold) {
    return base
      .where(
        and(
          eq(users.role, 'publisher'),
          sql`${publisherBalances.owed} > 0`,
          sql`${publisherBalances.owed} >= ${minPayout}::numeric`,
        ),
      )
      .orderBy(users.id);
  }
  const ids = [...new Set(sel.publisher_ids ?? [])];
  if (!ids.length) return [];
  return base.where(and(eq(users.role, 'publisher'), inArray(users.id, ids))).orderBy(users.id);
}

/** Why a candidate has nothing to be paid (null: something is due); holds are apart. */
export function skipReason(due: Due): string | null {
  if (due.total <= 0n) {
    return due.lines.length
      ? 'Nothing to pay: the reversals and clawbacks are larger than what is due; they wait for the next run.'
      : 'Nothing to pay in this period.';
  }
  return null;
}

export function previewItem(
  c: Candidate,
  due: Due,
  payment: PaymentDetails | undefined,
  hold: Hold | undefined,
): RunPreviewItem {
  const skipped = skipReason(due);
  return {
    publisher_id: c.id,
    publisher_name: c.name,
    publisher_email: c.email,
    leads: due.leads,
    leads_amount: centsMoney(due.leadsAmount),
    reversals: due.reversals,
    reversals_amount: centsMoney(due.reversalsAmount),
    adjustments_amount: centsMoney(due.adjustmentsAmount),
    credit_amount: centsMoney(due.creditAmount),
    total: centsMoney(due.total),
    owed: toMoney(c.owed),
    skipped,
    held: !skipped && isHeld(hold) ? holdSentence(hold!.reasons) : null,
    hold_reasons: hold?.reasons ?? [],
    released:
      hold?.release && hold.reasons.length
        ? { note: hold.release.note, by_email: hold.release.byEmail }
        : null,
    payment: payment ?? NO_DETAILS,
  };
}
