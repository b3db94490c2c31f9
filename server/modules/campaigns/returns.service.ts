import { and, eq, type SQL, sql } from 'drizzle-orm';
import {
  type CallReturn,
  type DecideReturn,
  RETURN_MESSAGES,
  type ReturnCallBody,
  type ReturnList,
  type ReturnListQuery,
} from '../../../contract/buyer-calls.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { countRows, type ListRead, listPage, newestFirst, pageOf } from '../../db/list-query.ts';
import { cents, toMoney } from '../../db/money.ts';
import { oneOrNotFound, onUniqueViolation } from '../../db/rows.ts';
import { callReturns, campaigns, leads, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { conflict } from '../../errors.ts';
import { type AdminEdit, writeAudit } from '../audit/index.ts';
import { creditBuyer } from '../billing/index.ts';
import { tellBuyer } from './buyer-notify.ts';
import { campaignRefColumns, joinCampaign, toCampaignRef } from './campaign-row.ts';

/**
 * Returns (issue 31, item 5): a buyer returns a billed call of their own within the Settings'
 * window, once; an admin accepts (the price is credited back: the campaign's spend, its day's
 * spend and the lead's revenue go down by it) or declines. The publisher's payout is a separate
 * decision (the lead's own status).
 */

const selectReturns = (db: DbOrTx, sortKey: SQL<string | null> = sql`null`) =>
  joinCampaign(
    db
      .select({
        id: callReturns.id,
        r: callReturns,
        sortKey,
        ...campaignRefColumns(callReturns.campaignId),
        buyerEmail: users.email,
      })
      .from(callReturns)
      .innerJoin(users, eq(users.id, callReturns.buyerId))
      .$dynamic(),
    callReturns.campaignId,
  );
type Joined = Awaited<ReturnType<ReturnType<typeof selectReturns>['execute']>>[number];

const toReturn = (row: Joined): CallReturn => {
  const { r } = row;
  return {
    id: r.id,
    lead_id: r.leadId,
    ...toCampaignRef(row),
    buyer_id: r.buyerId,
    buyer_email: row.buyerEmail,
    reason: r.reason,
    note: r.note,
    amount: toMoney(r.amount),
    status: r.status,
    decision_note: r.decisionNote,
    decided_at: r.decidedAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
  };
};

const oneReturn = async (db: DbOrTx, id: string) =>
  toReturn(await oneOrNotFound(selectReturns(db).where(eq(callReturns.id, id)), 'Return'));

/** The buyer's return of one of their billed calls (another buyer's call is a 404). */
export async function returnCall(opts: {
  db: Db;
  buyerId: string;
  leadId: string;
  input: ReturnCallBody;
}): Promise<CallReturn> {
  return opts.db.transaction(async (tx) => {
    const call = await oneOrNotFound(
      tx
        .select({
          id: leads.id,
          campaignId: leads.campaignId,
          billed: leads.billedAmount,
          at: leads.timestamp,
        })
        .from(leads)
        .innerJoin(campaigns, eq(campaigns.id, leads.campaignId))
        .where(and(eq(leads.id, opts.leadId), eq(campaigns.buyerId, opts.buyerId))),
      'Call',
    );
    if (call.billed === null) throw conflict(RETURN_MESSAGES.notBillable);
    const { buyerReturnDays } = await getSettings(tx);
    if (call.at.getTime() < Date.now() - buyerReturnDays * 86_400_000) {
      throw conflict(RETURN_MESSAGES.tooLate(buyerReturnDays));
    }
    const amount = call.billed;
    return onUniqueViolation(
      async () => {
        const [row] = await tx
          .insert(callReturns)
          .values({
            leadId: call.id,
            campaignId: call.campaignId!,
            buyerId: opts.buyerId,
            reason: opts.input.reason,
            note: opts.input.note || null,
            amount,
          })
          .returning({ id: callReturns.id });
        return oneReturn(tx, row!.id);
      },
      () => conflict(RETURN_MESSAGES.already),
    );
  });
}

export function listReturns(opts: ListRead<ReturnListQuery>): Promise<ReturnList> {
  const { db, query } = opts;
  const where = query.status ? eq(callReturns.status, query.status) : undefined;
  return listPage({
    query,
    keyset: newestFirst(callReturns),
    rows: (w) => pageOf(selectReturns(db, w.sortKey), where, w),
    count: () => countRows(db, callReturns, where, 'exact'),
    toItem: toReturn,
  });
}

/** Accepts (credits the price back) or declines a pending return, audited, the buyer told. */
export async function decideReturn(
  opts: AdminEdit<DecideReturn> & { accept: boolean; publicUrl: string },
): Promise<CallReturn> {
  return opts.db.transaction(async (tx) => {
    const before = await oneOrNotFound(
      tx.select().from(callReturns).where(eq(callReturns.id, opts.id)).for('update'),
      'Return',
    );
    if (before.status !== 'pending') throw conflict(RETURN_MESSAGES.decided);
    const status = opts.accept ? 'accepted' : 'declined';
    await tx
      .update(callReturns)
      .set({
        status,
        decisionNote: opts.input.note || null,
        decidedBy: opts.actor.id,
        decidedAt: new Date(),
      })
      .where(eq(callReturns.id, opts.id));
    if (opts.accept) {
      const amount = before.amount;
      await tx
        .update(campaigns)
        .set({ spent: sql`greatest(${campaigns.spent} - ${amount}::numeric, 0)` })
        .where(eq(campaigns.id, before.campaignId));
      await tx.execute(sql`
        update campaign_spend_days d set spent = greatest(d.spent - ${amount}::numeric, 0),
               calls = greatest(d.calls - 1, 0)
          from leads l
         where l.id = ${before.leadId}::uuid and d.campaign_id = ${before.campaignId}::uuid
           and d.day = (l."timestamp" at time zone coalesce((select timezone from settings where id = 1), 'UTC'))::date`);
      await tx
        .update(leads)
        .set({ revenue: sql`greatest(coalesce(${leads.revenue}, 0) - ${amount}::numeric, 0)` })
        .where(eq(leads.id, before.leadId));
      await creditBuyer(tx, before.buyerId, cents(amount));
    }
    const after = await oneReturn(tx, opts.id);
    await writeAudit(tx, {
      actor: opts.actor,
      action: `call_return.${opts.accept ? 'accept' : 'decline'}`,
      entityType: 'call_return',
      entityId: opts.id,
      before: { status: before.status },
      after: { status, amount: after.amount },
    });
    await tellBuyer(tx, before.buyerId, {
      kind: 'call_return_decided',
      title: opts.accept ? 'Return accepted' : 'Return declined',
      body: opts.accept
        ? `Your return of a call to ${after.campaign_name} was accepted: ${after.amount.toFixed(2)} is credited back.`
        : `Your return of a call to ${after.campaign_name} was declined${after.decision_note ? `: ${after.decision_note}` : '.'}`,
      publicUrl: opts.publicUrl,
    });
    return after;
  });
}
