import { inArray, ne, type SQL, sql } from 'drizzle-orm';
import {
  type BulkLeadStatus,
  type BulkLeadStatusResult,
  type LeadFilter,
  type LeadTotals,
  MAX_BULK_LEADS,
  reasonSentence,
} from '../../../contract/lead-actions.ts';
import { TOTAL_CAP } from '../../../contract/list.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { toMoney } from '../../db/money.ts';
import { leads } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../audit/index.ts';
import { maintainedLeadTotals } from './lead-totals.ts';
import { leadWhere } from './leads.service.ts';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown): Row[] => (r as { rows: Row[] }).rows;

/**
 * The count of the leads matching the list's filter and their money by status (issue 27 item
 * 1): payout of the approved ones (earned) and of the pending ones (under review) apart, and the
 * rejected ones counted without money. The maintained totals answer exactly when the filter
 * allows (no offer, whole days…); otherwise the matching rows are read up to the list's cap
 * (TOTAL_CAP + 1, a few ms however big the table): exact count and sums within the cap,
 * "10,000+" and no sums beyond it, as the list's own total.
 */
export async function leadTotals(opts: { db: DbOrTx; filter: LeadFilter }): Promise<LeadTotals> {
  const { db, filter } = opts;
  const kept = await maintainedLeadTotals(db, filter);
  if (kept?.byStatus) {
    const { approved, pending, rejected } = kept.byStatus;
    return {
      count: kept.leads,
      count_exact: true,
      earned: toMoney(approved.payout),
      under_review: toMoney(pending.payout),
      rejected: rejected.leads,
    };
  }
  const capped = db
    .select({ payout: leads.payout, status: leads.status })
    .from(leads)
    .where(leadWhere(filter))
    .limit(TOTAL_CAP + 1)
    .as('capped');
  const [row] = await db
    .select({
      n: sql<number>`count(*)::int`,
      earned: sql<string>`coalesce(sum(${capped.payout}) filter (where ${capped.status} = 'approved'), 0)::text`,
      underReview: sql<string>`coalesce(sum(${capped.payout}) filter (where ${capped.status} = 'pending'), 0)::text`,
      rejected: sql<number>`(count(*) filter (where ${capped.status} = 'rejected'))::int`,
    })
    .from(capped);
  const n = row?.n ?? 0;
  if (n > TOTAL_CAP) {
    // Too many to sum here; the maintained count (a publisher and a range) is still exact.
    return kept
      ? { count: kept.leads, count_exact: true, earned: null, under_review: null, rejected: null }
      : { count: TOTAL_CAP, count_exact: false, earned: null, under_review: null, rejected: null };
  }
  return {
    count: n,
    count_exact: true,
    earned: toMoney(row?.earned ?? '0'),
    under_review: toMoney(row?.underReview ?? '0'),
    rejected: Number(row?.rejected ?? 0),
  };
}

const tooMany = (max: number) =>
  new AppError(
    'too_many_leads',
    `This would change more than ${max.toLocaleString('en-US')} leads; one bulk action changes at most ${max.toLocaleString('en-US')} leads. Narrow the filter (for example by date) and repeat.`,
    { status: 422 },
  );

/**
 * Approves or rejects the picked leads, or every lead matching the filter, with one reason, in
 * one statement: the leads are locked and read (those with the status already are left alone,
 * at most MAX_BULK_LEADS + 1), updated (status, reason, status_overridden_at) and an audit row
 * written per lead with before and after, all set-based, so 100k leads are one statement and
 * one transaction, and the totals triggers fold them once. More than MAX_BULK_LEADS changes
 * nothing and answers 422. `dry_run` only counts.
 */
export async function bulkLeadStatus(opts: {
  db: Db;
  actor: Actor;
  input: BulkLeadStatus;
  /** The most leads one action changes (tests lower it). */
  max?: number;
}): Promise<BulkLeadStatusResult> {
  const { db, actor, input } = opts;
  const max = opts.max ?? MAX_BULK_LEADS;
  const target: SQL | undefined = input.ids
    ? inArray(leads.id, input.ids)
    : leadWhere(input.filter ?? {});
  const status = input.status;
  const dryRun = input.dry_run ?? false;
  const where = sql`${target ?? sql`true`} and ${ne(leads.status, status)}`;
  const limit = max + 1;
  if (dryRun) {
    const [row] = rowsOf(
      await db.execute(
        sql`select count(*)::int as n from (select 1 from ${leads} where ${where} limit ${limit}) c`,
      ),
    );
    const n = Number(row?.n ?? 0);
    if (n > max) throw tooMany(max);
    return { changed: n, dry_run: true };
  }
  const reason = reasonSentence(input.reason, input.note);
  const after = JSON.stringify({ status, status_reason: reason, reason: input.reason, bulk: true });
  return db.transaction(async (tx) => {
    const [row] = rowsOf(
      await tx.execute(sql`
        with picked as materialized (
          select ${leads.id} as id, ${leads.status} as status, ${leads.statusReason} as reason
          from ${leads} where ${where}
          limit ${limit}
          for update
        ),
        allowed as (select count(*) <= ${max} as ok from picked),
        changed as (
          update leads l
          set status = ${status}, status_reason = ${reason}, status_overridden_at = now()
          from picked p
          where l.id = p.id and (select ok from allowed)
          returning l.id, p.status as old_status, p.reason as old_reason
        ),
        audited as (
          insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, before, after)
          select ${actor.id}::uuid, ${actor.email}, 'lead.status', 'lead', c.id::text,
            jsonb_build_object('status', c.old_status, 'status_reason', c.old_reason),
            ${after}::jsonb
          from changed c
          returning 1
        )
        select (select count(*) from picked)::int as picked,
               (select count(*) from audited)::int as changed`),
    );
    const picked = Number(row?.picked ?? 0);
    if (picked > max) throw tooMany(max);
    return { changed: Number(row?.changed ?? 0), dry_run: false };
  });
}
