import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Campaign } from '../../../contract/buyer.ts';
import type { AdminCampaign } from '../../../contract/campaigns.ts';
import type { DbOrTx } from '../../db/client.ts';
import { toMoney } from '../../db/money.ts';
import { campaigns, offers, users } from '../../db/schema.ts';
import { openHoursOf } from '../offers/index.ts';

/** A campaign row between the database and the contract: the buyer's and the admin's view. */
export type CampaignRow = typeof campaigns.$inferSelect;

const money = (v: string | null) => (v === null ? null : toMoney(v));

/** The campaign as its buyer sees it. */
export function toCampaign(c: CampaignRow): Campaign {
  return {
    id: c.id,
    buyer_id: c.buyerId,
    name: c.name,
    goal: c.goal,
    target_audience: c.targetAudience,
    location: c.location,
    budget: money(c.budget),
    start_date: c.startDate,
    end_date: c.endDate,
    created_at: c.createdAt.toISOString(),
    status: c.status,
    status_reason: c.statusReason,
    paused_by: c.pausedBy,
    price_per_call: money(c.pricePerCall),
    buffer_seconds: c.bufferSeconds,
    daily_cap: c.dailyCap,
    spent: toMoney(c.spent),
  };
}

/** The campaign as the admin sees it: its buyer, its offer and every term. */
export function toAdminCampaign(
  c: CampaignRow,
  joined: { buyerName: string | null; buyerEmail: string; offerTitle: string | null },
): AdminCampaign {
  return {
    ...toCampaign(c),
    buyer_name: joined.buyerName,
    buyer_email: joined.buyerEmail,
    offer_id: c.offerId,
    offer_title: joined.offerTitle,
    allowed_states: c.allowedStates,
    open_hours: openHoursOf(c),
    approved_at: c.approvedAt?.toISOString() ?? null,
  };
}

/** Campaigns with their buyer and offer, as toAdminCampaign takes them (list and one). */
export const selectAdminCampaigns = (db: DbOrTx, sortKey: SQL<string | null> = sql`null`) =>
  db
    .select({
      id: campaigns.id,
      sortKey,
      c: campaigns,
      buyerName: users.name,
      buyerEmail: users.email,
      offerTitle: offers.title,
    })
    .from(campaigns)
    .innerJoin(users, eq(users.id, campaigns.buyerId))
    .leftJoin(offers, eq(offers.id, campaigns.offerId))
    .$dynamic();

/**
 * The buyer campaign a call or its return was delivered to (contract's `campaignRef`): its id
 * column and the name of the campaign `joinCampaign` joins, and the answer's fields.
 */
export const campaignRefColumns = <C extends AnyPgColumn>(campaignId: C) => ({
  campaignId,
  campaignName: campaigns.name,
});
export const toCampaignRef = (r: { campaignId: string; campaignName: string }) => ({
  campaign_id: r.campaignId,
  campaign_name: r.campaignName,
});
/** Joins the row's campaign, which campaignRefColumns reads (a `$dynamic()` select). */
export const joinCampaign = <Q extends PgSelect>(select: Q, campaignId: AnyPgColumn) =>
  select.innerJoin(campaigns, eq(campaigns.id, campaignId));
