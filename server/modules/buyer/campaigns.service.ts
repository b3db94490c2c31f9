import { type AnyColumn, and, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type {
  Campaign,
  CampaignList,
  CampaignSortKey,
  CreateCampaignInput,
} from '../../../contract/buyer.ts';
import type { SortOrder } from '../../../contract/publisher.ts';
import type { DbOrTx } from '../../db/client.ts';
import { likePattern, orderBy } from '../../db/list-query.ts';
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

// Texts sort without regard to case; a blank text counts as empty and goes last like NULL.
// created_at is never empty: plain DESC lets campaigns_buyer_created_idx serve the default.
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
export async function listCampaigns(opts: {
  db: DbOrTx;
  buyerId: string;
  page: number;
  pageSize: number;
  q?: string;
  sort?: CampaignSortKey;
  order?: SortOrder;
}): Promise<CampaignList> {
  const { db, buyerId, page, pageSize, sort = 'created_at', order = 'desc' } = opts;
  const filters: SQL[] = [eq(campaigns.buyerId, buyerId)];
  if (opts.q) {
    const pattern = likePattern(opts.q);
    filters.push(
      or(
        ilike(campaigns.name, pattern),
        ilike(campaigns.goal, pattern),
        ilike(campaigns.targetAudience, pattern),
        ilike(campaigns.location, pattern),
      )!,
    );
  }
  const where = and(...filters);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(campaigns)
      .where(where)
      .orderBy(
        ...orderBy(sortColumns[sort], order, campaigns.id, { nullable: sort !== 'created_at' }),
      )
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(campaigns).where(where),
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
