import { type AnyColumn, and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  Campaign,
  CampaignList,
  CampaignListQuery,
  CreateCampaignInput,
  UpdateCampaignInput,
} from '../../../contract/buyer.ts';
import { CAMPAIGN_MESSAGES } from '../../../contract/buyer.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ListRead } from '../../db/list-query.ts';
import {
  countRows,
  keysetOf,
  listPage,
  type RowKey,
  searchAny,
  tableRows,
} from '../../db/list-query.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { campaigns } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { AppError } from '../../errors.ts';
import { emitEvent } from '../../events/emit.ts';
import { appLinks } from '../../notify/links.ts';
import { notifyAdmins } from '../../notify/notify.ts';
import { type CampaignRow, toCampaign } from './campaign-row.ts';

// Texts sort without regard to case; a blank text counts as empty and goes last like NULL.
// created_at is never empty: plain DESC lets campaigns_buyer_created_id_idx serve the default.
const lowerText = (column: AnyColumn) => sql`lower(nullif(btrim(${column}), ''))`;
const sortColumns = {
  created_at: campaigns.createdAt,
  name: lowerText(campaigns.name),
  goal: lowerText(campaigns.goal),
  target_audience: lowerText(campaigns.targetAudience),
  location: lowerText(campaigns.location),
  budget: campaigns.budget,
  start_date: campaigns.startDate,
  end_date: campaigns.endDate,
} as const;

/**
 * The buyer's own campaigns (nobody else's rows are ever read), searched by name, goal,
 * audience or location, newest first unless sorted otherwise; empty values sort last.
 */
export function listCampaigns(
  opts: ListRead<z.output<typeof CampaignListQuery>> & { buyerId: string },
): Promise<CampaignList> {
  const { db, buyerId, query } = opts;
  const where = and(
    eq(campaigns.buyerId, buyerId),
    searchAny(
      query.q,
      campaigns.name,
      campaigns.goal,
      campaigns.targetAudience,
      campaigns.location,
    ),
  );
  // Exact total: one buyer's campaigns are tens.
  return listPage({
    query,
    keyset: keysetOf(sortColumns, query, campaigns.id, { nullable: query.sort !== 'created_at' }),
    rows: tableRows(db, campaigns, where),
    count: () => countRows(db, campaigns, where, 'exact'),
    toItem: ({ sortKey: _, ...row }: CampaignRow & RowKey) => toCampaign(row),
  });
}

/** Creates a campaign owned by the signed-in buyer (the body is already validated). */
export async function createCampaign(opts: {
  db: DbOrTx;
  buyer: { id: string; email: string; name: string | null };
  input: CreateCampaignInput;
  /** The portal's address, for the admins' e-mail link. */
  publicUrl: string;
}): Promise<Campaign> {
  const { buyer, input } = opts;
  // The campaign and the admins' notifications are written together or not at all.
  return opts.db.transaction(async (tx) => {
    const campaign = await insertCampaign(tx, buyer.id, input);
    const who = buyer.name?.trim() || buyer.email;
    const { currency } = await getSettings(tx);
    const budget =
      campaign.budget === null
        ? 'no budget set'
        : `budget ${new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(campaign.budget)}`;
    await notifyAdmins(tx, {
      kind: 'campaign_created',
      title: `New campaign from ${who}: ${campaign.name}`,
      body: `${who} (${buyer.email}) created the campaign ${campaign.name} (${budget}).`,
      link: appLinks.adminCampaigns(campaign.name),
      publicUrl: opts.publicUrl,
    });
    await emitEvent(tx, 'campaign.created', {
      campaign: campaign as unknown as Record<string, unknown>,
      buyer_id: buyer.id,
    });
    return campaign;
  });
}

async function insertCampaign(
  db: DbOrTx,
  buyerId: string,
  input: CreateCampaignInput,
): Promise<Campaign> {
  const [row] = await db
    .insert(campaigns)
    .values({
      buyerId,
      name: input.name,
      goal: input.goal,
      targetAudience: input.target_audience,
      location: input.location,
      budget: input.budget === null ? null : input.budget.toFixed(2),
      startDate: input.start_date,
      endDate: input.end_date,
    })
    .returning();
  return toCampaign(row!);
}

/**
 * Changes the budget and dates of one of the buyer's own campaigns (another buyer's id is a
 * 404, as an unknown one). A key left out keeps the stored value; the end date may not come
 * before the start date, whichever of the two was sent.
 */
export async function updateCampaign(opts: {
  db: DbOrTx;
  buyerId: string;
  campaignId: string;
  input: UpdateCampaignInput;
}): Promise<Campaign> {
  const { buyerId, campaignId, input } = opts;
  return opts.db.transaction(async (tx) => {
    const mine = and(eq(campaigns.id, campaignId), eq(campaigns.buyerId, buyerId));
    const current = await oneOrNotFound(
      tx.select().from(campaigns).where(mine).for('update'),
      'Campaign',
    );
    const start = input.start_date === undefined ? current.startDate : input.start_date;
    const end = input.end_date === undefined ? current.endDate : input.end_date;
    if (start && end && end < start) {
      throw new AppError('validation_failed', CAMPAIGN_MESSAGES.endBeforeStart, {
        details: { end_date: [CAMPAIGN_MESSAGES.endBeforeStart] },
      });
    }
    const [row] = await tx
      .update(campaigns)
      .set({
        ...(input.budget !== undefined && {
          budget: input.budget === null ? null : input.budget.toFixed(2),
          // A new budget is watched afresh: its 80% and 100% mails go out again.
          alertedPct:
            input.budget !== null && Number(current.spent) >= 0.8 * input.budget
              ? Math.min(current.alertedPct, 80)
              : 0,
        }),
        startDate: start,
        endDate: end,
      })
      .where(mine)
      .returning();
    return toCampaign(row!);
  });
}
