import { and, eq, or, sql } from 'drizzle-orm';
import type { CampaignList, CampaignListQuery } from '../../../contract/admin.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countAll, likePattern, orderBy, pageWindow } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { campaigns, users } from '../../db/schema.ts';

const sortColumns = {
  created_at: campaigns.createdAt,
  name: campaigns.name,
  budget: campaigns.budget,
  start_date: campaigns.startDate,
} as const;

/** Every buyer's campaigns with the buyer's name and e-mail, newest first by default. */
export async function listCampaigns(opts: {
  db: DbOrTx;
  query: CampaignListQuery;
}): Promise<CampaignList> {
  const { db, query } = opts;
  const p = query.q ? likePattern(query.q) : undefined;
  const cond = and(
    query.buyer_id ? eq(campaigns.buyerId, query.buyer_id) : undefined,
    p
      ? or(
          sql`${campaigns.name} ilike ${p}`,
          sql`${users.name} ilike ${p}`,
          sql`${users.email} ilike ${p}`,
        )
      : undefined,
  );
  const { limit, offset } = pageWindow(query);
  const [rows, [count]] = await Promise.all([
    db
      .select({ c: campaigns, buyerName: users.name, buyerEmail: users.email })
      .from(campaigns)
      .innerJoin(users, eq(users.id, campaigns.buyerId))
      .where(cond)
      .orderBy(...orderBy(sortColumns[query.sort], query.order, campaigns.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: countAll() })
      .from(campaigns)
      .innerJoin(users, eq(users.id, campaigns.buyerId))
      .where(cond),
  ]);
  return {
    items: rows.map(({ c, buyerName, buyerEmail }) => ({
      id: c.id,
      buyer_id: c.buyerId,
      buyer_name: buyerName,
      buyer_email: buyerEmail,
      name: c.name,
      goal: c.goal,
      target_audience: c.targetAudience,
      location: c.location,
      budget: c.budget === null ? null : toMoney(c.budget),
      start_date: c.startDate,
      end_date: c.endDate,
      created_at: c.createdAt.toISOString(),
    })),
    total: count?.n ?? 0,
    page: query.page,
    page_size: query.page_size,
  };
}
