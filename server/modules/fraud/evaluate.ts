import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, DbOrTx } from '../../db/client.ts';
import { fraudFlags, users } from '../../db/schema.ts';
import { emitEventsOf } from '../../events/emit.ts';
import { underPressure } from '../../jobs/pressure.ts';
import { registerJob } from '../../jobs/runtime.ts';
import { appLinks } from '../../notify/links.ts';
import { notifyAdmins } from '../../notify/notify.ts';
import { callerCheck, MicroBatcher, onCallWritten, type WrittenCall } from '../ingest/index.ts';
import { currentRules } from './rules.ts';

/**
 * The fraud rules on calls as they arrive (issue 32 item 4). The postback endpoint tells this
 * module of each call it wrote (`onCallWritten`, after the write's commit, never waiting for
 * it); calls are evaluated in batches of their own (one `fraud_evaluate` statement per batch,
 * one batch at a time per instance, whatever arrived meanwhile leaves as the next batch), so
 * ingestion never waits for the rules. The rules read maintained counters (calls per caller
 * and per publisher-hour), never the leads (drizzle/…_fraud.sql). New flags then make their
 * `fraud.flagged` webhook events and, for a publisher's velocity flag, the admins' alert
 * (once per publisher per hour).
 */

/** Calls per evaluation statement. */
const FRAUD_BATCH_MAX = 1000;
/**
 * While the call postbacks queue up (server/jobs/pressure.ts), a batch waits this long for more
 * calls: one statement for a few hundred calls costs less than ten for a few dozen each (c=50,
 * 2 cores, one A/B: 1,853 / 2,074 → 2,149 / 2,106 acknowledged calls a second, the two ingest
 * rows; bench/ingest-yield-2026-11-28.md).
 */
const FRAUD_GATHER_MS = 100;

type Item = {
  id: string;
  caller: string | null;
  anomaly: string | null;
  anomaly_figures: Record<string, string | null> | null;
};

/** What libphonenumber says of the caller, and whether it is the tracking number itself. */
export function callerAnomaly(
  call: WrittenCall,
  country: string,
): Pick<Item, 'caller' | 'anomaly' | 'anomaly_figures'> {
  if (!call.caller) return { caller: null, anomaly: null, anomaly_figures: null };
  const caller = callerCheck(call.caller, country);
  const tracking = call.tracking ? callerCheck(call.tracking, country).e164 : null;
  const figures = { caller: call.caller, tracking_number: call.tracking };
  if (!caller.valid) {
    return {
      caller: caller.e164,
      anomaly: `Caller ${call.caller} is not a valid or allocated phone number (libphonenumber, read as a ${country} number without a country code)`,
      anomaly_figures: { ...figures, kind: 'invalid_number' },
    };
  }
  if (tracking && caller.e164 === tracking) {
    return {
      caller: caller.e164,
      anomaly: `Caller ${caller.e164} is the tracking number the call came in on`,
      anomaly_figures: { ...figures, kind: 'caller_is_tracking_number' },
    };
  }
  return { caller: caller.e164, anomaly: null, anomaly_figures: null };
}

type EvaluatedRow = {
  out_lead: string;
  out_publisher: string;
  out_flags: { id: string; rule: string }[];
  out_alert: boolean;
};

/** Evaluates one batch of written calls; answers the leads that got new flags. */
export async function evaluateCalls(
  db: Db,
  calls: WrittenCall[],
  opts: { publicUrl: string },
): Promise<EvaluatedRow[]> {
  if (!calls.length) return [];
  const snap = await currentRules(db);
  const items: Item[] = calls.map((c) => ({ id: c.id, ...callerAnomaly(c, snap.phoneCountry) }));
  const result = await db.execute(sql`
    select out_lead, out_publisher, out_flags, out_alert
    from fraud_evaluate(${JSON.stringify(items)}::jsonb, ${JSON.stringify(snap.rules)}::jsonb)`);
  const rows = (result as unknown as { rows: EvaluatedRow[] }).rows;
  if (rows.length) await announce(db, rows, opts.publicUrl);
  return rows;
}

/**
 * The new flags' webhook events (one statement for the batch, which reads the flags only when an
 * endpoint subscribes to `fraud.flagged`), and the admins' velocity alerts (at most one per
 * publisher and hour, so rarely more than none).
 */
async function announce(db: Db, rows: EvaluatedRow[], publicUrl: string): Promise<void> {
  const ids = rows.flatMap((r) => r.out_flags.map((f) => f.id));
  const flagged = (tx: DbOrTx) =>
    emitEventsOf(
      tx,
      'fraud.flagged',
      sql`select jsonb_build_object('flag_id', f.id, 'lead_id', f.lead_id,
          'publisher_id', f.publisher_id, 'rule', f.rule, 'action', f.action, 'reason', f.reason,
          'figures', f.figures,
          'created_at', to_char(f.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        ) as data, f.id as n
        from ${fraudFlags} f where f.id = any(${`{${ids.join(',')}}`}::uuid[])`,
    );
  const alerts = rows.filter((x) => x.out_alert);
  if (alerts.length === 0) {
    await flagged(db);
    return;
  }
  await db.transaction(async (tx) => {
    await flagged(tx);
    for (const r of alerts) {
      const [flag] = await tx
        .select({ reason: fraudFlags.reason })
        .from(fraudFlags)
        .where(
          and(
            inArray(fraudFlags.id, ids),
            eq(fraudFlags.leadId, r.out_lead),
            eq(fraudFlags.rule, 'publisher_velocity'),
          ),
        );
      const [pub] = await tx
        .select({ name: sql<string>`coalesce(nullif(${users.name}, ''), ${users.email})` })
        .from(users)
        .where(eq(users.id, r.out_publisher));
      await notifyAdmins(tx, {
        kind: 'fraud_velocity',
        title: `Call volume spike: ${pub?.name ?? 'a publisher'}`,
        body: flag?.reason ?? 'A publisher sent far more calls this hour than usual.',
        link: appLinks.adminPublisher(r.out_publisher),
        publicUrl,
      });
    }
  });
}

type Evaluator = { batcher: MicroBatcher<WrittenCall, null>; pending: Set<Promise<unknown>> };
const evaluators = new WeakMap<object, Evaluator>();

/** The database's evaluator: one batch at a time, failures logged (a call is never refused). */
function evaluatorOf(db: Db, publicUrl: string, log: (err: unknown) => void): Evaluator {
  let e = evaluators.get(db);
  if (!e) {
    const batcher = new MicroBatcher<WrittenCall, null>(
      async (calls) => {
        try {
          await evaluateCalls(db, calls, { publicUrl });
        } catch (err) {
          // A deadlock with a write of the same leads: once more, then give up (logged).
          try {
            await evaluateCalls(db, calls, { publicUrl });
          } catch {
            log(err);
          }
        }
        return calls.map(() => null);
      },
      {
        maxInFlight: 1,
        maxBatch: FRAUD_BATCH_MAX,
        gatherMs: () => (underPressure() ? FRAUD_GATHER_MS : 0),
      },
    );
    e = { batcher, pending: new Set() };
    evaluators.set(db, e);
  }
  return e;
}

/** Evaluates the postback endpoint's calls of this app's database, from now until it closes. */
export function registerFraud(app: FastifyInstance): void {
  const off = onCallWritten((db, call) => {
    if (db !== app.db) return;
    const e = evaluatorOf(db, app.config.publicUrl, (err) =>
      app.log.error({ err }, 'fraud rules: a batch could not be evaluated'),
    );
    const p = e.batcher.submit(call);
    e.pending.add(p);
    void p.finally(() => e.pending.delete(p));
  });
  app.addHook('onClose', async () => {
    off();
    await fraudSettled(app.db);
  });
  // Counters past every window a rule may read (hours ≤ 30 days; velocity's weeks ≤ 12).
  registerJob(app, {
    name: 'fraud-counters-retention',
    scope: 'cluster',
    everyMs: 3_600_000,
    run: ({ db }) => sweepOldCounters(db),
  });
}

/** Drops the counters no rule reads any more (caller hours after 31 days, publisher after 13 weeks). */
export async function sweepOldCounters(db: Db): Promise<void> {
  await db.execute(sql`delete from fraud_caller_hours where hour < now() - interval '31 days'`);
  await db.execute(sql`delete from fraud_publisher_hours where hour < now() - interval '13 weeks'`);
  await db.execute(sql`delete from fraud_alerts where hour < now() - interval '2 days'`);
}

/** Resolves when the calls written so far are evaluated (tests, shutdown). */
export async function fraudSettled(db: Db): Promise<void> {
  const e = evaluators.get(db);
  while (e?.pending.size) await Promise.allSettled([...e.pending]);
}
