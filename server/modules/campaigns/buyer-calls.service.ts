import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type {
  BuyerCall,
  BuyerCallCsvQuery,
  BuyerCallList,
  BuyerCallListQuery,
  BuyerDashboard,
} from '../../../contract/buyer-calls.ts';
import { maskCaller } from '../../../contract/lead-detail.ts';
import { type DbOrTx, rowsOf } from '../../db/client.ts';
import { keysetCsv } from '../../db/csv.ts';
import { keyset, listPage, pageOf } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { callReturns, campaigns, leads } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { keysFigures } from '../reports/index.ts';
import { campaignRefColumns, joinCampaign, toCampaignRef } from './campaign-row.ts';

/**
 * The calls delivered to a buyer's campaigns (issue 31): the list (keyset on the leads'
 * (campaign, time, id) index), its CSV, and the dashboard's figures. A buyer reads only calls
 * of their own campaigns, and never the publisher, the payout or the tracker's details.
 */

/** The buyer's campaign ids as a subquery: every read is limited to them. */
const ownCampaigns = (db: DbOrTx, buyerId: string) =>
  db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.buyerId, buyerId));

const callWhere = (db: DbOrTx, buyerId: string, campaignId?: string) =>
  and(
    inArray(leads.campaignId, ownCampaigns(db, buyerId)),
    campaignId ? eq(leads.campaignId, campaignId) : undefined,
  );

const callKeyset = () => keyset('timestamp', leads.timestamp, 'desc', leads.id);

function selectCalls(db: DbOrTx, sortKey: SQL<string | null>) {
  return joinCampaign(
    db
      .select({
        id: leads.id,
        sortKey,
        timestamp: leads.timestamp,
        ...campaignRefColumns(campaigns.id),
        caller: leads.caller,
        state: leads.state,
        durationSeconds: leads.durationSeconds,
        billedAmount: leads.billedAmount,
        billReason: leads.billReason,
        recordingUrl: leads.recordingUrl,
        recordingKey: leads.recordingKey,
        returnStatus: callReturns.status,
      })
      .from(leads)
      .leftJoin(callReturns, eq(callReturns.leadId, leads.id))
      .$dynamic(),
    leads.campaignId,
  );
}
type CallRow = Awaited<ReturnType<ReturnType<typeof selectCalls>['execute']>>[number];

/** How a buyer sees a call: `sign` makes a stored recording playable (a signed URL). */
function toCall(r: CallRow, fullCaller: boolean, sign: (key: string) => string): BuyerCall {
  return {
    id: r.id,
    timestamp: r.timestamp.toISOString(),
    ...toCampaignRef(r),
    caller: fullCaller ? r.caller : maskCaller(r.caller),
    state: r.state,
    duration_seconds: r.durationSeconds,
    billable: r.billedAmount !== null,
    bill_reason: r.billReason,
    price: r.billedAmount === null ? null : toMoney(r.billedAmount),
    recording_url: r.recordingKey ? sign(r.recordingKey) : r.recordingUrl,
    return_status: r.returnStatus,
  };
}

type BuyerRead<Q> = { db: DbOrTx; buyerId: string; query: Q; sign: (key: string) => string };

export async function listBuyerCalls(opts: BuyerRead<BuyerCallListQuery>): Promise<BuyerCallList> {
  const { db, query } = opts;
  const { buyerSeesFullCaller } = await getSettings(db);
  const own = and(
    eq(campaigns.buyerId, opts.buyerId),
    query.campaign_id ? eq(campaigns.id, query.campaign_id) : undefined,
  );
  return listPage({
    query,
    keyset: callKeyset(),
    // The page's candidates: each of the buyer's campaigns' first rows past the cursor, read
    // from its own range of leads_campaign_ts_id_idx (a buyer's calls merged from a few ranges,
    // never a walk of the whole leads index filtered by campaign), merged and cut to the window
    // there, so only the window's leads are fetched and joined (with the campaigns' filter
    // outside too, the planner fetched every candidate once per campaign: 510 lookups, 31 ms).
    rows: (w) => {
      const dir = sql.raw(w.direction);
      const n = w.limit + w.offset;
      return pageOf(
        selectCalls(db, w.sortKey),
        sql`${leads.id} in (select x.id from ${campaigns} cross join lateral (
            select ${leads.id}, ${leads.timestamp} from ${leads}
            where ${leads.campaignId} = ${campaigns.id} and ${w.after ?? sql`true`}
            order by ${sql.join(w.orderBy, sql`, `)} limit ${n}) x
          where ${own} order by x."timestamp" ${dir}, x.id ${dir} limit ${n})`,
        w,
      );
    },
    // Exact, from the report's campaign months (a few hundred index entries), not the leads.
    count: async () => ({
      total: (
        await keysFigures(db, {
          dim: 'campaign',
          keys: sql`select id::text from campaigns where ${own}`,
        })
      ).calls,
      exact: true,
    }),
    toItem: (r) => toCall(r, buyerSeesFullCaller, opts.sign),
  });
}

export async function* buyerCallsCsv(opts: BuyerRead<BuyerCallCsvQuery>): AsyncGenerator<string> {
  const { db, query } = opts;
  const { buyerSeesFullCaller } = await getSettings(db);
  const where = callWhere(db, opts.buyerId, query.campaign_id);
  yield* keysetCsv({
    header: [
      'id',
      'time',
      'campaign',
      'caller',
      'state',
      'duration_seconds',
      'billable',
      'reason',
      'price',
      'return',
    ],
    keyset: callKeyset(),
    select: (sortKey) => selectCalls(db, sortKey),
    where,
    line: (r) => {
      const c = toCall(r, buyerSeesFullCaller, () => '');
      return [
        c.id,
        c.timestamp,
        c.campaign_name,
        c.caller,
        c.state,
        c.duration_seconds,
        c.billable ? 'yes' : 'no',
        c.bill_reason,
        c.price,
        c.return_status,
      ];
    },
  });
}

/**
 * Spend today and this month (the maintained campaign_spend_days, days of the network's time
 * zone) against the live campaigns' budgets, the last 30 days for the burn-down, and this
 * month's calls delivered and billable with their average duration.
 */
export async function buyerDashboard(opts: {
  db: DbOrTx;
  buyerId: string;
}): Promise<BuyerDashboard> {
  const { db, buyerId } = opts;
  const today = sql`(now() at time zone coalesce((select timezone from settings where id = 1), 'UTC'))::date`;
  const [head] = await rowsOf<{
    budget: string | null;
    spent_total: string;
    today: string;
    end_date: string | null;
  }>(
    db,
    sql`select
        (select sum(c.budget) from campaigns c where c.buyer_id = ${buyerId}
           and c.status in ('active', 'paused'))::text as budget,
        coalesce((select sum(c.spent) from campaigns c where c.buyer_id = ${buyerId}), 0)::text as spent_total,
        ${today}::text as today,
        (select case when bool_and(c.end_date is not null) then max(c.end_date)::text end
           from campaigns c where c.buyer_id = ${buyerId} and c.status in ('active', 'paused')
           and c.budget is not null) as end_date`,
  );
  const day = head!.today;
  const month = `${day.slice(0, 8)}01`;
  // The buyer's spend days, read by the primary key (campaign, day) of each of their campaigns.
  const spendDays = sql`campaign_spend_days d
    where d.campaign_id = any(array(select id from campaigns where buyer_id = ${buyerId}))`;
  // This month's calls from the maintained rollups, never the leads: those delivered and their
  // seconds from the report's campaign month, the billable ones from the campaigns' spend days (an
  // accepted return gives its call back there).
  const [delivered, [spend], days] = await Promise.all([
    keysFigures(db, {
      dim: 'campaign',
      keys: sql`select id::text from campaigns where buyer_id = ${buyerId}`,
      month,
    }),
    rowsOf<{ spend_today: string; spend_month: string; billable: number }>(
      db,
      sql`select coalesce(sum(d.spent) filter (where d.day = ${day}::date), 0)::text as spend_today,
                 coalesce(sum(d.spent), 0)::text as spend_month,
                 coalesce(sum(d.calls), 0)::int as billable
          from ${spendDays} and d.day >= ${month}::date`,
    ),
    rowsOf<{ day: string; spent: string; calls: number }>(
      db,
      sql`select d.day::text as day, sum(d.spent)::text as spent, sum(d.calls)::int as calls
          from ${spendDays} and d.day > ${day}::date - 30
          group by d.day order by d.day`,
    ),
  ]);
  return {
    spend_today: toMoney(spend!.spend_today),
    spend_month: toMoney(spend!.spend_month),
    budget: head!.budget === null ? null : toMoney(head!.budget),
    spent_total: toMoney(head!.spent_total),
    today: head!.today,
    end_date: head!.end_date,
    calls_delivered: delivered.calls,
    calls_billable: spend!.billable,
    avg_duration_seconds: delivered.calls ? Math.round(delivered.seconds / delivered.calls) : null,
    days: days.map((d) => ({ day: d.day, spent: toMoney(d.spent), calls: d.calls })),
  };
}
