import { and, asc, eq, sql } from 'drizzle-orm';
import type {
  ClearFraudFlags,
  ConfirmFraudFlags,
  FraudFlag,
  FraudFlagList,
  FraudFlagListQuery,
  LeadFraud,
  PublisherFraudScore,
} from '../../../contract/fraud.ts';
import type { DbOrTx } from '../../db/client.ts';
import { cappedCount, listPage, newestFirst, pageOf } from '../../db/list-query.ts';
import { oneOrNotFound, type RecordRead } from '../../db/rows.ts';
import { auditLog, fraudFlags, leads, statusCounts, users } from '../../db/schema.ts';
import type { AdminWrite } from '../audit/index.ts';
import { blockFor } from './blocklist.service.ts';

/**
 * The flags the rules raise (issue 32 item 4): the Fraud queue (keyset pages, newest first, per
 * status), confirm (the calls are rejected with the admin's reason, as a status set by hand)
 * and clear (the flags close; a held call goes back to approved), a lead's flags, and each
 * publisher's score.
 */

/** Validated ids as one PostgreSQL array parameter (drizzle spreads a JS array into a list). */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

const publisherName = sql<string>`coalesce(nullif(${users.name}, ''), ${users.email})`;

const selectFlags = (db: DbOrTx, sortKey = sql<string | null>`null`) =>
  db
    .select({
      id: fraudFlags.id,
      leadId: fraudFlags.leadId,
      publisherId: fraudFlags.publisherId,
      publisherName,
      rule: fraudFlags.rule,
      action: fraudFlags.action,
      status: fraudFlags.status,
      reason: fraudFlags.reason,
      figures: fraudFlags.figures,
      caller: leads.caller,
      leadStatus: leads.status,
      createdAt: fraudFlags.createdAt,
      resolvedAt: fraudFlags.resolvedAt,
      resolutionNote: fraudFlags.resolutionNote,
      sortKey,
    })
    .from(fraudFlags)
    .innerJoin(leads, eq(leads.id, fraudFlags.leadId))
    .innerJoin(users, eq(users.id, fraudFlags.publisherId));

type Row = Awaited<ReturnType<ReturnType<typeof selectFlags>['execute']>>[number];

const toFlag = (r: Row): FraudFlag => ({
  id: r.id,
  lead_id: r.leadId,
  publisher_id: r.publisherId,
  publisher_name: r.publisherName,
  rule: r.rule as FraudFlag['rule'],
  action: r.action,
  status: r.status,
  reason: r.reason,
  figures: r.figures,
  caller: r.caller,
  lead_status: r.leadStatus,
  created_at: r.createdAt.toISOString(),
  resolved_at: r.resolvedAt?.toISOString() ?? null,
  resolution_note: r.resolutionNote,
});

/** The Fraud queue: one status (open by default), newest first, by rule or publisher. */
export async function listFraudFlags(opts: {
  db: DbOrTx;
  query: FraudFlagListQuery;
}): Promise<FraudFlagList> {
  const { db, query } = opts;
  const where = and(
    eq(fraudFlags.status, query.status),
    query.rule ? eq(fraudFlags.rule, query.rule) : undefined,
    query.publisher_id ? eq(fraudFlags.publisherId, query.publisher_id) : undefined,
  );
  return listPage({
    query,
    // fraud_flags_status_created_idx: (status, created_at desc, id desc).
    keyset: newestFirst(fraudFlags),
    rows: (w) => pageOf(selectFlags(db, w.sortKey).$dynamic(), where, w),
    // The whole queue of a status: its count kept as flags change (drizzle/0059), one read.
    count: () =>
      query.rule || query.publisher_id
        ? cappedCount(db, db.select({ one: sql`1` }).from(fraudFlags).where(where))
        : flagsOfStatus(db, query.status),
    toItem: toFlag,
  });
}

/** The flags of a status, counted as they change (status_counts, drizzle/0059): exact. */
async function flagsOfStatus(db: DbOrTx, status: string) {
  const [row] = await db
    .select({ n: statusCounts.n })
    .from(statusCounts)
    .where(and(eq(statusCounts.entity, 'fraud_flag'), eq(statusCounts.status, status)));
  return { total: Number(row?.n ?? 0), exact: true };
}

/**
 * Confirms open flags: their calls are rejected with the reason (a status set by hand, so no
 * event or rule changes it again) and the flags close as confirmed. One transaction, audited
 * per lead.
 */
export async function confirmFraudFlags(
  opts: AdminWrite<ConfirmFraudFlags>,
): Promise<{ changed: number }> {
  const { db, actor, input } = opts;
  const reason = `Fraud confirmed: ${input.reason}`;
  return db.transaction(async (tx) => {
    const rows = (
      (await tx.execute(sql`
      with picked as (
        update fraud_flags f set status = 'confirmed', resolved_at = now(),
          resolved_by = ${actor.id}::uuid, resolution_note = ${input.reason}
        where f.id = any(${uuidArray(input.ids)}::uuid[]) and f.status = 'open'
        returning f.lead_id
      ),
      before as materialized (
        select l.id, l.status, l.status_reason from leads l
        where l.id in (select lead_id from picked) for update
      ),
      changed as (
        update leads l set status = 'rejected', status_reason = ${reason},
          status_overridden_at = now()
        from before b where l.id = b.id
        returning l.id, b.status as old_status, b.status_reason as old_reason
      ),
      audited as (
        insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, before, after)
        select ${actor.id}::uuid, ${actor.email}, 'lead.fraud_confirmed', 'lead', c.id::text,
          jsonb_build_object('status', c.old_status, 'status_reason', c.old_reason),
          jsonb_build_object('status', 'rejected', 'status_reason', ${reason}::text)
        from changed c returning 1
      )
      select (select count(*) from picked)::int as changed, (select count(*) from audited)::int as a`)) as unknown as {
        rows: { changed: number }[];
      }
    ).rows;
    return { changed: Number(rows[0]?.changed ?? 0) };
  });
}

/**
 * Clears open flags. A call held by them (pending, not set by hand, payable by its offer's
 * rules) with no other open hold goes back to approved with the reason it had before the hold.
 */
export async function clearFraudFlags(
  opts: AdminWrite<ClearFraudFlags>,
): Promise<{ changed: number }> {
  const { db, actor, input } = opts;
  const note = input.note ?? null;
  return db.transaction(async (tx) => {
    // Two statements: the leads' guard (leads_fraud_guard) must see the flags closed.
    const picked = (
      (await tx.execute(sql`
      update fraud_flags f set status = 'cleared', resolved_at = now(),
        resolved_by = ${actor.id}::uuid, resolution_note = ${note}::text
      where f.id = any(${uuidArray(input.ids)}::uuid[]) and f.status = 'open'
      returning f.id, f.lead_id, f.action, f.held_from`)) as unknown as {
        rows: { id: string; lead_id: string; action: string; held_from: string | null }[];
      }
    ).rows;
    if (!picked.length) return { changed: 0 };
    const held = picked.filter((p) => p.action === 'hold');
    const released = new Set<string>();
    for (const p of held) {
      const r = (
        (await tx.execute(sql`
        update leads l set status = 'approved',
          status_reason = coalesce(${p.held_from}::text, 'Payable: cleared after fraud review')
        where l.id = ${p.lead_id}::uuid and l.status = 'pending' and l.status_overridden_at is null
          and l.rule_outcome = 'payable' and l.status_reason like 'Held for review:%'
          and not exists (select 1 from fraud_flags o where o.lead_id = l.id
                            and o.status = 'open' and o.action = 'hold')
        returning l.id`)) as unknown as { rows: { id: string }[] }
      ).rows;
      if (r.length) released.add(p.lead_id);
    }
    await tx.insert(auditLog).values(
      picked.map((p) => ({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'lead.fraud_cleared',
        entityType: 'lead',
        entityId: p.lead_id,
        before: { flag: p.id, status: 'open' },
        after: { flag: p.id, status: 'cleared', note, released: released.has(p.lead_id) },
      })),
    );
    return { changed: picked.length };
  });
}

/** A lead's flags (oldest first) and the blocklist entry of its caller, for its detail. */
export async function leadFraud(opts: RecordRead): Promise<LeadFraud> {
  const { db, id } = opts;
  const lead = await oneOrNotFound(
    db.select({ caller: leads.caller }).from(leads).where(eq(leads.id, id)),
    'Lead',
  );
  const flags = await selectFlags(db)
    .where(eq(fraudFlags.leadId, id))
    .orderBy(asc(fraudFlags.createdAt));
  return {
    flags: flags.map(toFlag),
    caller: lead.caller,
    blocked: await blockFor(db, lead.caller),
  };
}

/**
 * A publisher's score over 7 and 30 days: flagged calls per 100 calls (a confirmed flag counts
 * twice), capped at 100. Calls from the rules' hourly counters, flags from their index.
 */
export async function publisherFraudScore(opts: RecordRead): Promise<PublisherFraudScore> {
  const { db, id } = opts;
  await oneOrNotFound(
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, id), eq(users.role, 'publisher'))),
    'Publisher',
  );
  const windows = await Promise.all(
    [7, 30].map(async (days) => {
      const [row] = (
        (await db.execute(sql`
        select
          (select coalesce(sum(h.calls), 0) from fraud_publisher_hours h
            where h.publisher_id = ${id}::uuid and h.hour > now() - make_interval(days => ${days}))::int as calls,
          count(distinct f.lead_id)::int as flagged_calls,
          count(*) filter (where f.status = 'confirmed')::int as confirmed,
          count(*) filter (where f.status = 'open')::int as open
        from fraud_flags f
        where f.publisher_id = ${id}::uuid and f.created_at > now() - make_interval(days => ${days})`)) as unknown as {
          rows: { calls: number; flagged_calls: number; confirmed: number; open: number }[];
        }
      ).rows;
      const calls = Number(row?.calls ?? 0);
      const flagged = Number(row?.flagged_calls ?? 0);
      const confirmed = Number(row?.confirmed ?? 0);
      const score = calls
        ? Math.min(100, Math.round(((flagged + confirmed) * 1000) / calls) / 10)
        : 0;
      return {
        days,
        calls,
        flagged_calls: flagged,
        confirmed,
        open: Number(row?.open ?? 0),
        score,
      };
    }),
  );
  return { publisher_id: id, windows };
}
