import { eq, type SQL, sql } from 'drizzle-orm';
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
