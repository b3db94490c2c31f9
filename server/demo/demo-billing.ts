import { and, asc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import { ApproveCampaign } from '../../contract/campaigns.ts';
import type { Actor } from '../auth/guard.ts';
import type { Db } from '../db/client.ts';
import { callReturns, campaigns, leads } from '../db/schema.ts';
import { generateInvoice, recordDeposit, setBillingMode } from '../modules/billing/index.ts';
import { approveCampaign, decideReturn } from '../modules/campaigns/index.ts';

const DAY = 86_400_000;

/**
 * The demo buyer's side of the network (issue 31, item 8): two of their campaigns approved on
 * offers the demo's calls go to, the approved calls of the last 60 days delivered and billed to
 * them (through the billing trigger, by judging them), one return of last month accepted and
 * credited, and last month's invoice; another buyer prepaid with a deposit. The calls are the
 * demo's own (no lead is added), so the seeding stays as fast as it was.
 */
export async function seedDemoBuyerBilling(opts: {
  db: Db;
  now: number;
  admin: Actor;
  buyerId: string;
  /** Another active buyer, shown prepaid with a deposit. */
  prepaidBuyerId?: string;
  offerIds: string[];
  publicUrl: string;
}): Promise<{ campaigns: number; billed: number; invoices: number }> {
  const { db, now, admin } = opts;
  const mine = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(eq(campaigns.buyerId, opts.buyerId))
    .orderBy(asc(campaigns.createdAt))
    .limit(2);
  const picked = mine.slice(0, Math.min(mine.length, opts.offerIds.length));
  const since = new Date(now - 60 * DAY);
  for (const [i, c] of picked.entries()) {
    await db
      .update(campaigns)
      .set({ startDate: since.toISOString().slice(0, 10), endDate: null, budget: '50000.00' })
      .where(eq(campaigns.id, c.id));
    await approveCampaign({
      db,
      actor: admin,
      id: c.id,
      input: ApproveCampaign.parse({ offer_id: opts.offerIds[i], price_per_call: 35 + 10 * i }),
      publicUrl: opts.publicUrl,
    });
    // Delivered: the offer's approved calls since then are judged, so the trigger bills them.
    await db
      .update(leads)
      .set({ judgedAt: sql`${leads.timestamp}` })
      .where(
        and(
          eq(leads.offerId, opts.offerIds[i]!),
          eq(leads.status, 'approved'),
          gte(leads.timestamp, since),
          sql`${leads.judgedAt} is null`,
        ),
      );
  }
  const billed = await db
    .select({
      id: leads.id,
      at: leads.timestamp,
      campaignId: leads.campaignId,
      amount: leads.billedAmount,
    })
    .from(leads)
    .innerJoin(campaigns, eq(campaigns.id, leads.campaignId))
    .where(and(eq(campaigns.buyerId, opts.buyerId), isNotNull(leads.billedAmount)))
    .orderBy(asc(leads.timestamp));

  // Last month (UTC days 3-18, whatever the network's zone): one call returned and accepted.
  const first = new Date(now);
  const lastMonth = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() - 1, 1));
  const from = lastMonth.getTime() + 3 * DAY;
  const returned = billed.find((l) => l.at.getTime() >= from && l.at.getTime() < from + 15 * DAY);
  if (returned) {
    const [ret] = await db
      .insert(callReturns)
      .values({
        leadId: returned.id,
        campaignId: returned.campaignId!,
        buyerId: opts.buyerId,
        reason: 'The caller was looking for a different service.',
        amount: returned.amount!,
        createdAt: new Date(returned.at.getTime() + DAY),
      })
      .returning({ id: callReturns.id });
    await decideReturn({
      db,
      actor: admin,
      id: ret!.id,
      input: { note: 'Confirmed on the recording.' },
      accept: true,
      publicUrl: opts.publicUrl,
    });
    await db
      .update(callReturns)
      .set({ decidedAt: new Date(returned.at.getTime() + 2 * DAY) })
      .where(eq(callReturns.id, ret!.id));
  }
  await generateInvoice(db, opts.buyerId, lastMonth.toISOString().slice(0, 7));
  if (opts.prepaidBuyerId) {
    const other = { db, actor: admin, id: opts.prepaidBuyerId };
    await setBillingMode({ ...other, input: { mode: 'prepaid' } });
    await recordDeposit({
      ...other,
      input: { amount: 2500, note: 'Wire transfer, first deposit' },
    });
  }
  return { campaigns: picked.length, billed: billed.length, invoices: 1 };
}
