import { eq, inArray, sql } from 'drizzle-orm';
import type { CallEvent, CallInput } from '../../contract/integrations.ts';
import type { LeadStatus } from '../../contract/roles.ts';
import type { Db } from '../db/client.ts';
import {
  auditLog,
  integrationExternalIds,
  integrations,
  leads,
  trackingNumbers,
} from '../db/schema.ts';
import { hashIntegrationKey, newIntegrationKey, upsertCall } from '../modules/ingest/index.ts';
import type { Random } from './random.ts';

/**
 * The demo's call tracker (issue 13): a "Ringba production" integration with the tracker's own
 * publisher and campaign ids attached, and calls that arrived through it event by event
 * (incoming, connected, completed, converted, payout, error; some repeated or late) through the
 * same upsert as the postback endpoint, so the offers' rules judge them as they would live. A
 * few are then decided by the admin by hand, with a reason.
 */

export const DEMO_INTEGRATION_NAME = 'Ringba production';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type DemoCallSource = {
  publisherId: string;
  offerId: string;
  /** When the publisher could send calls to the offer. */
  from: number;
  to: number;
  weight: number;
};

export type DemoIntegrationSummary = {
  name: string;
  /** The integration's key, printed once so the operator can fire a test postback. */
  key: string;
  calls: number;
  events: number;
  overridden: number;
  leads: Record<LeadStatus, number>;
};

const phone = (rand: Random) => `+1${rand.int(201, 989)}${String(rand.int(2_000_000, 9_999_999))}`;

const STATES = ['TX', 'FL', 'CA', 'AZ', 'GA', 'NC', 'OH', 'PA', 'NY', 'IL'];

/** The events a call fires, in the order the tracker sends them. */
function scenario(rand: Random, age: number): { events: CallEvent[]; seconds: number } {
  const seconds = Math.round(rand.around(260, 240, 8));
  if (age < 20 * 60_000 && rand.chance(0.5)) return { events: ['incoming', 'connected'], seconds };
  const roll = rand.next();
  if (roll < 0.07) return { events: ['incoming', 'error'], seconds: 0 };
  if (roll < 0.72) return { events: ['incoming', 'connected', 'completed'], seconds };
  if (roll < 0.86) return { events: ['incoming', 'connected', 'completed', 'converted'], seconds };
  return { events: ['incoming', 'connected', 'completed', 'converted', 'payout'], seconds };
}

/**
 * Creates the integration and `calls` calls over the last 14 days from the sources active then,
 * each through upsertCall event by event (10% of events sent twice, 5% late), then overrides a
 * few by hand. Returns what it made.
 */
export async function seedIntegrationCalls(opts: {
  db: Db;
  rand: Random;
  now: number;
  admin: { id: string; email: string };
  sources: DemoCallSource[];
  calls: number;
  onProgress?: (line: string) => void;
}): Promise<DemoIntegrationSummary> {
  const { db, rand, now, admin } = opts;
  const key = newIntegrationKey();
  const createdAt = new Date(now - 30 * DAY);
  const [integration] = await db
    .insert(integrations)
    .values({
      name: DEMO_INTEGRATION_NAME,
      tracker: 'ringba',
      accountId: 'RA-DEMO-7781',
      keyHash: hashIntegrationKey(key),
      keyPrefix: key.slice(0, 9),
      createdBy: admin.id,
      createdAt,
      updatedAt: createdAt,
    })
    .returning({ id: integrations.id });
  const integrationId = integration!.id;
  await db
    .update(integrations)
    .set({ callScope: integrationId })
    .where(eq(integrations.id, integrationId));
  const audits: (typeof auditLog.$inferInsert)[] = [
    {
      actorId: admin.id,
      actorEmail: admin.email,
      action: 'integration.create',
      entityType: 'integration',
      entityId: integrationId,
      before: null,
      after: { name: DEMO_INTEGRATION_NAME },
      createdAt,
    },
  ];

  const recent = opts.sources.filter((s) => s.to > now - 14 * DAY);
  const summary: DemoIntegrationSummary = {
    name: DEMO_INTEGRATION_NAME,
    key,
    calls: 0,
    events: 0,
    overridden: 0,
    leads: { approved: 0, pending: 0, rejected: 0 },
  };
  if (recent.length === 0 || opts.calls === 0) {
    await db.insert(auditLog).values(audits);
    return summary;
  }

  // The tracker's own ids for our publishers and offers (Ringba's affiliate and campaign ids).
  const pubIds = [...new Set(recent.map((s) => s.publisherId))];
  const offerIds = [...new Set(recent.map((s) => s.offerId))];
  const pubExternal = new Map(pubIds.map((id, i) => [id, `RB-AFF-${1001 + i}`]));
  const offerExternal = new Map(
    offerIds.map((id, i) => [id, `CA${(0x5e7a0 + i * 977).toString(16).toUpperCase()}`]),
  );
  const externalIdRows = (kind: 'publisher' | 'offer', external: Map<string, string>) =>
    [...external].map(([id, externalId]) => ({
      integrationId,
      kind,
      externalId,
      publisherId: kind === 'publisher' ? id : null,
      offerId: kind === 'offer' ? id : null,
      createdAt,
    }));
  await db
    .insert(integrationExternalIds)
    .values([
      ...externalIdRows('publisher', pubExternal),
      ...externalIdRows('offer', offerExternal),
    ]);

  // One tracking number per publisher and offer (issue 26), as an operator assigns them; the
  // calls of that pair are made to it.
  const pairNumber = new Map<string, string>();
  for (const s of recent) {
    const pair = `${s.publisherId}/${s.offerId}`;
    if (!pairNumber.has(pair)) {
      pairNumber.set(pair, `+1800555${String(1000 + pairNumber.size).padStart(4, '0')}`);
    }
  }
  await db.insert(trackingNumbers).values(
    [...pairNumber].map(([pair, number]) => {
      const [publisherId, offerId] = pair.split('/') as [string, string];
      return { number, publisherId, offerId, createdBy: admin.id, createdAt };
    }),
  );

  const weighted = recent.map((s) => [s, s.weight] as const);
  const made: string[] = [];
  for (let i = 0; i < opts.calls; i++) {
    const s = rand.weighted(weighted);
    const from = Math.max(s.from, now - 14 * DAY);
    const t = Math.round(from + rand.next() * Math.max(0, Math.min(s.to, now) - from));
    const { events, seconds } = scenario(rand, now - t);
    // Half the pixels name the tracker's own ids, half ours.
    const publisher = rand.chance(0.5) ? pubExternal.get(s.publisherId)! : s.publisherId;
    const offer = rand.chance(0.5) ? offerExternal.get(s.offerId)! : s.offerId;
    const caller = phone(rand);
    // A random tracking number was drawn here before numbers were assigned per pair: the draw
    // stays, so every other figure of the demo is what it was.
    rand.int(1000, 9999);
    const base: CallInput = {
      callId: `RGB${(t / 1000).toString(36).toUpperCase()}${i.toString(36).toUpperCase()}`,
      event: 'incoming',
      eventNote: null,
      publisher,
      offer,
      caller,
      trackingNumber: pairNumber.get(`${s.publisherId}/${s.offerId}`)!,
      durationSeconds: null,
      revenue: null,
      payout: null,
      recordingUrl: null,
      state: rand.pick(STATES),
      zip: String(rand.int(10_000, 99_899)),
      timestamp: new Date(t),
      tags: { utm_source: rand.pick(['google', 'facebook', 'bing', 'tv', 'radio']) },
    };
    const sent: CallEvent[] = [];
    for (const e of events) {
      sent.push(e);
      if (rand.chance(0.1)) sent.push(e); // the tracker retried
    }
    if (sent.length > 2 && rand.chance(0.05)) sent.push('incoming'); // a late, older event
    let leadId = '';
    for (const event of sent) {
      const done = event !== 'incoming' && event !== 'connected' && event !== 'error';
      const answer = await upsertCall({
        db,
        integrationId,
        call: {
          ...base,
          event,
          durationSeconds: done ? seconds : event === 'connected' ? Math.min(seconds, 20) : null,
          revenue: event === 'converted' || event === 'payout' ? '55.00' : null,
          recordingUrl: done ? `https://media.ringba.example/recordings/${base.callId}.mp3` : null,
        },
      });
      leadId = answer.id;
      summary.events++;
    }
    made.push(leadId);
    summary.calls++;
    if ((i + 1) % 100 === 0) opts.onProgress?.(`Tracker calls: ${i + 1} of ${opts.calls}`);
  }

  // The admin decided a few by hand: rejected duplicates, approved after listening.
  const decided = rand.shuffle(made).slice(0, Math.max(1, Math.round(made.length * 0.04)));
  for (const [n, id] of decided.entries()) {
    const [before] = await db
      .select({ status: leads.status, statusReason: leads.statusReason })
      .from(leads)
      .where(eq(leads.id, id));
    const status: LeadStatus = n % 2 === 0 ? 'rejected' : 'approved';
    const reason =
      status === 'rejected'
        ? 'Duplicate call: the same caller called twice within the hour'
        : 'Recording reviewed: qualified caller, transferred to the buyer';
    if (!before || before.status === status) continue;
    await db
      .update(leads)
      .set({
        status,
        statusReason: reason,
        statusOverriddenAt: new Date(now - rand.int(1, 48) * HOUR),
      })
      .where(eq(leads.id, id));
    audits.push({
      actorId: admin.id,
      actorEmail: admin.email,
      action: 'lead.status',
      entityType: 'lead',
      entityId: id,
      before: { status: before.status, status_reason: before.statusReason },
      after: { status, status_reason: reason },
      createdAt: new Date(now - rand.int(1, 48) * HOUR),
    });
    summary.overridden++;
  }
  await db.insert(auditLog).values(audits);
  await db
    .update(integrations)
    .set({ lastUsedAt: new Date(now - rand.int(1, 30) * 60_000), acceptedCount: summary.events })
    .where(eq(integrations.id, integrationId));

  const rows = await db
    .select({ status: leads.status, n: sql<number>`count(*)::int` })
    .from(leads)
    .where(inArray(leads.integrationId, [integrationId]))
    .groupBy(leads.status);
  for (const r of rows) summary.leads[r.status] = r.n;
  return summary;
}
