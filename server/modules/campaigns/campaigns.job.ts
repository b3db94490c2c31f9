import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { NotificationKind } from '../../../contract/notifications.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import { registerJob } from '../../jobs/runtime.ts';
import { tellBuyer } from './buyer-notify.ts';

/**
 * The campaigns' clock (issue 31): pauses the active campaigns whose end date has passed,
 * resumes the ones the daily cap paused on an earlier day, and mails the buyers the alerts the
 * billing trigger wrote (80% and 100% of the budget, every automatic pause). Days are the
 * network's time zone's.
 */
export const CAMPAIGN_CHECK_INTERVAL_MS = 15_000;

const alertTitles: Record<string, { kind: NotificationKind; title: string }> = {
  budget_80: { kind: 'campaign_budget', title: '80% of the budget spent' },
  budget_100: { kind: 'campaign_budget', title: 'Budget spent: campaign paused' },
  paused: { kind: 'campaign_paused', title: 'Campaign paused' },
};

export async function runCampaignChecks(db: Db, publicUrl: string): Promise<number> {
  let done = 0;
  await db.transaction(async (tx) => {
    const today = sql`(now() at time zone coalesce((select timezone from settings where id = 1), 'UTC'))::date`;
    const paused = await rowsOf<{ ok: boolean }>(
      tx,
      sql`select campaign_pause(c.id, 'end_date',
            format('The end date %s has passed.', c.end_date), 'paused') as ok
          from campaigns c where c.status = 'active' and c.end_date < ${today}`,
    );
    const resumed = await rowsOf<{ id: string }>(
      tx,
      sql`update campaigns set status = 'active', paused_by = null, paused_at = null, status_reason = null
          where status = 'paused' and paused_by = 'daily_cap'
            and (paused_at at time zone coalesce((select timezone from settings where id = 1), 'UTC'))::date < ${today}
            and (end_date is null or end_date >= ${today})
          returning id`,
    );
    done += paused.length + resumed.length;
  });
  // Alerts, oldest first, each mailed once (SKIP LOCKED: two instances never mail one twice).
  await db.transaction(async (tx) => {
    const alerts = await rowsOf<{
      id: string;
      kind: string;
      message: string;
      name: string;
      buyer_id: string;
    }>(
      tx,
      sql`select a.id, a.kind, a.message, c.name, c.buyer_id from campaign_alerts a
          join campaigns c on c.id = a.campaign_id
          where a.mailed_at is null order by a.created_at limit 200
          for update of a skip locked`,
    );
    for (const a of alerts) {
      const t = alertTitles[a.kind]!;
      await tellBuyer(tx, a.buyer_id, {
        kind: t.kind,
        title: `${t.title}: ${a.name}`,
        body: `${a.name}: ${a.message}`,
        publicUrl,
      });
    }
    if (alerts.length) {
      await tx.execute(
        sql`update campaign_alerts set mailed_at = now() where id in (${sql.join(
          alerts.map((a) => sql`${a.id}::uuid`),
          sql`, `,
        )})`,
      );
    }
    done += alerts.length;
  });
  return done;
}

export function registerCampaignChecks(app: FastifyInstance): void {
  registerJob(app, {
    name: 'campaign-checks',
    scope: 'cluster',
    everyMs: CAMPAIGN_CHECK_INTERVAL_MS,
    run: ({ db }) => runCampaignChecks(db, app.config.publicUrl),
  });
}
