import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { formatCurrency } from '../../../contract/money.ts';
import type { ActivityItem, DailyPoint, PublisherOverview } from '../../../contract/publisher.ts';
import { addDays, dayIn } from '../../../contract/reports.ts';
import type { DbOrTx } from '../../db/client.ts';
import { toMoney } from '../../db/money.ts';
import {
  complianceQuestionnaires,
  leads,
  leadTotals,
  offerApplications,
  offers,
  payouts,
  users,
} from '../../db/schema.ts';
import { getSettings, networkTimeZone } from '../../db/settings.ts';
import { balanceOf } from '../money/index.ts';
import { dailyFigures } from './dashboard.queries.ts';

const ACTIVITY_LIMIT = 10;
const CHART_DAYS = 30;
const _DAY_MS = 86_400_000;

/**
 * The four cards, Recent Activity and the 30-day chart of one publisher. Lead figures come from
 * the maintained totals (server/modules/leads/lead-totals.ts); money figures from money/figures.ts, the one
 * definition every screen reads (issue 27): Total Earnings is earned, Pending Payouts is unpaid
 * (owed + in a run not yet paid), as the cards state under them.
 */
export async function getOverview(opts: {
  db: DbOrTx;
  publisherId: string;
  now?: Date;
}): Promise<PublisherOverview> {
  const { db, publisherId } = opts;
  const now = opts.now ?? new Date();
  const [cards, balance, recent, daily] = await Promise.all([
    getCards(db, publisherId),
    balanceOf(db, publisherId),
    listRecentActivity({ db, publisherId }),
    getDailySeries({ db, publisherId, now }),
  ]);
  return {
    applied_offers: Number(cards.applied),
    total_earnings: balance.earned,
    total_leads: Number(cards.leads),
    pending_payouts: balance.unpaid,
    balance,
    recent_activity: recent,
    daily,
  };
}

/** Two cards in one round trip: submitted applications and calls (maintained totals). */
async function getCards(db: DbOrTx, publisherId: string) {
  // Both drivers (pg and PGlite) answer raw SQL with `rows`.
  const res = (await db.execute(sql`
    select
      (select count(*)::int from ${offerApplications}
        where ${offerApplications.publisherId} = ${publisherId}
          and ${offerApplications.status} <> 'draft') as applied,
      (select coalesce(sum(${leadTotals.leads}), 0)::int from ${leadTotals}
        where ${leadTotals.publisherId} = ${publisherId}) as leads
  `)) as unknown as {
    rows: {
      applied: number | string;
      leads: number | string;
    }[];
  };
  return res.rows[0]!;
}

/**
 * Calls and earnings per day of the network's time zone for the last 30 days (today included),
 * zero-filled, from the report rollups: earnings are the payable calls' payout, as everywhere
 * else (a rejected or pending call earns nothing), and the days are the network's, as when a
 * range is picked.
 */
async function getDailySeries(opts: {
  db: DbOrTx;
  publisherId: string;
  now: Date;
}): Promise<DailyPoint[]> {
  const { db, publisherId, now } = opts;
  const tz = await networkTimeZone(db);
  const to = dayIn(tz, now);
  const days = await dailyFigures(db, {
    owner: publisherId,
    from: addDays(to, -(CHART_DAYS - 1)),
    to,
  });
  return days.map((d) => ({ date: d.date, leads: d.calls, earnings: d.payout }));
}

/**
 * The publisher's newest leads with their offer's title: the ten newest rows first, an index
 * walk on leads_publisher_ts_id_idx (publisher_id, timestamp desc, id desc; plain DESC is
 * NULLS FIRST, as the index is built), then the join on those ten only.
 */
async function listLatestLeads(db: DbOrTx, publisherId: string) {
  const latest = db
    .select({
      offerId: leads.offerId,
      payout: leads.payout,
      status: leads.status,
      duration: leads.callDuration,
      at: leads.timestamp,
    })
    .from(leads)
    .where(eq(leads.publisherId, publisherId))
    .orderBy(desc(leads.timestamp), desc(leads.id))
    .limit(ACTIVITY_LIMIT)
    .as('latest');
  return db
    .select({
      payout: latest.payout,
      status: latest.status,
      duration: latest.duration,
      at: latest.at,
      title: offers.title,
    })
    .from(latest)
    .innerJoin(offers, eq(offers.id, latest.offerId));
}

/** The latest events of one publisher, newest first, from each source's own newest rows. */
async function listRecentActivity(opts: {
  db: DbOrTx;
  publisherId: string;
}): Promise<ActivityItem[]> {
  const { db, publisherId } = opts;
  const [apps, leadRows, payoutRows, [me], settings] = await Promise.all([
    db
      .select({
        status: offerApplications.status,
        createdAt: offerApplications.createdAt,
        updatedAt: offerApplications.updatedAt,
        io: offerApplications.ioDocumentUrl,
        submittedAt: complianceQuestionnaires.createdAt,
        title: offers.title,
      })
      .from(offerApplications)
      .innerJoin(offers, eq(offers.id, offerApplications.offerId))
      .leftJoin(
        complianceQuestionnaires,
        eq(complianceQuestionnaires.applicationId, offerApplications.id),
      )
      .where(
        and(eq(offerApplications.publisherId, publisherId), ne(offerApplications.status, 'draft')),
      )
      .orderBy(desc(offerApplications.updatedAt))
      .limit(ACTIVITY_LIMIT),
    listLatestLeads(db, publisherId),
    db
      .select({ amount: payouts.amount, notes: payouts.notes, at: payouts.date })
      .from(payouts)
      .where(eq(payouts.publisherId, publisherId))
      // payouts_publisher_date_id_idx (publisher_id, date desc, id desc): ten rows, no sort.
      .orderBy(desc(payouts.date), desc(payouts.id))
      .limit(ACTIVITY_LIMIT),
    db
      .select({ agreement: users.marketingAgreementUrl, updatedAt: users.updatedAt })
      .from(users)
      .where(eq(users.id, publisherId)),
    getSettings(db),
  ]);
  // Amounts in the network's currency, with its symbol (issue 14).
  const money = (v: string) => formatCurrency(toMoney(v), settings.currency);

  const events: { type: ActivityItem['type']; title: string; description: string; at: Date }[] = [];
  for (const a of apps) {
    events.push({
      type: 'application_submitted',
      title: 'Application submitted',
      description: `Your application for ${a.title} was sent for review.`,
      at: a.submittedAt ?? a.createdAt,
    });
    if (a.status === 'approved' && a.io) {
      events.push({
        type: 'io_uploaded',
        title: 'Campaign IO available',
        description: `Your application for ${a.title} was approved and its IO is ready to download.`,
        at: a.updatedAt,
      });
    } else if (a.status === 'approved') {
      events.push({
        type: 'application_approved',
        title: 'Application approved',
        description: `Your application for ${a.title} was approved.`,
        at: a.updatedAt,
      });
    } else if (a.status === 'rejected') {
      events.push({
        type: 'application_rejected',
        title: 'Application rejected',
        description: `Your application for ${a.title} was not approved.`,
        at: a.updatedAt,
      });
    }
  }
  for (const l of leadRows) {
    // A rejected lead pays nothing: $0.00, and what it would have paid said apart (issue 27).
    const paid =
      l.status === 'rejected'
        ? `${money('0')} (would have paid ${money(l.payout)})`
        : money(l.payout);
    events.push({
      type: 'lead',
      title: 'New lead',
      description: `${l.title}: ${paid}, ${l.duration} min, ${l.status}.`,
      at: l.at,
    });
  }
  for (const p of payoutRows) {
    events.push({
      type: 'payout',
      title: 'Payout recorded',
      description: `${money(p.amount)}${p.notes ? `: ${p.notes}` : ''}`,
      at: p.at,
    });
  }
  if (me?.agreement) {
    events.push({
      type: 'agreement',
      title: 'Agreement available',
      description: 'Your marketing agreement is ready in My Documents.',
      at: me.updatedAt,
    });
  }
  return events
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .slice(0, ACTIVITY_LIMIT)
    .map((e) => ({ ...e, at: e.at.toISOString() }));
}
