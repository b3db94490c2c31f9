import { count, desc, eq } from 'drizzle-orm';
import type { Campaign, CampaignList, CreateCampaignInput } from '../../../contract/buyer.ts';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns } from '../../db/schema.ts';

type CampaignRow = typeof campaigns.$inferSelect;

function toCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    buyer_id: row.buyerId,
    name: row.name,
    goal: row.goal,
    target_audience: row.targetAudience,
    location: row.location,
    budget: row.budget === null ? null : Number(row.budget),
    start_date: row.startDate,
    end_date: row.endDate,
    created_at: row.createdAt.toISOString(),
  };
}

/** The buyer's own campaigns, newest first; nobody else's rows are ever read. */
export async function listCampaigns(opts: {
  db: DbOrTx;
  buyerId: string;
  page: number;
  pageSize: number;
}): Promise<CampaignList> {
  const { db, buyerId, page, pageSize } = opts;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(campaigns)
      .where(eq(campaigns.buyerId, buyerId))
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(campaigns).where(eq(campaigns.buyerId, buyerId)),
  ]);
  return { items: rows.map(toCampaign), total: totalRow?.n ?? 0, page, page_size: pageSize };
}

/** Creates a campaign owned by the signed-in buyer (the body is already validated). */
export async function createCampaign(opts: {
  db: DbOrTx;
  buyerId: string;
  input: CreateCampaignInput;
}): Promise<Campaign> {
  const { db, buyerId, input } = opts;
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
