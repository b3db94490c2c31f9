import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveCounters, LiveSnapshot } from '../../../contract/live.ts';
import { endSession } from '../../auth/sessions.ts';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns, leads, users } from '../../db/schema.ts';
import { clearPressure, notePressure } from '../../jobs/pressure.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import {
  buildAdmin,
  buildBuyer,
  buildOffer,
  buildPublisher,
  type TestUser,
  tokenFor,
} from '../../test/factories.ts';
import { freePort } from '../../test/free-port.ts';
import { openStream } from '../../test/live-stream.ts';
import { listenSecondInstance, type SecondInstance } from '../../test/second-instance.ts';

/**
 * GET /api/v1/live (issue 32) through real sockets: the poll is slowed to a minute, so what
 * reaches a stream within the waits below came by NOTIFY (PGlite: in process; PostgreSQL:
 * another connection, and with two instances another app).
 */
const ENV = {
  LIVE_POLL_MS: '60000',
  LIVE_SESSION_CHECK_MS: '200',
  LIVE_HEARTBEAT_MS: '300',
  LIVE_MAX_STREAMS: '3',
};

async function listening(env: Record<string, string>): Promise<TestApp & { base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ env: { ...env, PUBLIC_URL: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, base };
}

const sessionOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { session_id: string })
    .session_id;

let t: TestApp & { base: string };
let admin: TestUser;
let pubA: TestUser;
let pubB: TestUser;
let buyer: TestUser;
let offerId: string;
const token = (u: TestUser) => tokenFor(t.db, t.config.jwtSecret, u);

beforeAll(async () => {
  t = await listening(ENV);
  admin = await buildAdmin(t.db);
  pubA = await buildPublisher(t.db);
  pubB = await buildPublisher(t.db);
  buyer = await buildBuyer(t.db);
  offerId = (await buildOffer(t.db)).id;
});
afterAll(() => t.close());

/** A tracker's call as the ingest write leaves it: ringing, then completed. */
async function ring(publisherId: string, db: DbOrTx = t.db, offer = offerId, at?: Date) {
  const [lead] = await db
    .insert(leads)
    .values({
      ...(at && { timestamp: at }),
      publisherId,
      offerId: offer,
      payout: '12.50',
      revenue: '30.00',
      caller: '+15555550123',
      lastEvent: 'incoming',
      eventRank: 1,
      lastEventAt: new Date(),
    })
    .returning();
  return lead!;
}
const complete = (id: string, db = t.db) =>
  db
    .update(leads)
    .set({
      lastEvent: 'completed',
      eventRank: 4,
      durationSeconds: 95,
      callDuration: 2,
      status: 'approved',
    })
    .where(eq(leads.id, id));

describe('GET /api/v1/live', () => {
  it('refuses a caller without a session, and a request that does not ask for a stream', async () => {
    const anon = await openStream(t.base, null);
    expect(anon.res.status).toBe(401);
    const res = await fetch(`${t.base}/api/v1/live`, {
      headers: { authorization: `Bearer ${await token(admin)}` },
    });
    expect(res.status).toBe(406);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /text\/event-stream/,
    );
  });

  it('gives each role its own scope: a publisher never receives another’s call', async () => {
    const [sAdmin, sA, sB, sBuyer] = await Promise.all([
      openStream(t.base, await token(admin)),
      openStream(t.base, await token(pubA)),
      openStream(t.base, await token(pubB)),
      openStream(t.base, await token(buyer)),
    ]);
    for (const s of [sAdmin, sA, sB, sBuyer]) {
      expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await s.waitFor(() => s.messages.some((m) => m.event === 'snapshot'));
    }
    const call = await ring(pubA.id);
    await sAdmin.waitFor(() => sAdmin.leads().some((l) => l.id === call.id));
    await sA.waitFor(() => sA.leads().some((l) => l.id === call.id));
    const created = sA.leads().find((l) => l.id === call.id)!;
    expect(created).toMatchObject({ kind: 'created', in_progress: true, revenue: null });
    expect(created.publisher_name).toBeNull();
    const forAdmin = sAdmin.leads().find((l) => l.id === call.id)!;
    expect(forAdmin).toMatchObject({ kind: 'created', revenue: 30, publisher_name: pubA.name });

    await complete(call.id);
    await sA.waitFor(() =>
      sA.leads().some((l) => l.id === call.id && l.kind === 'changed' && !l.in_progress),
    );
    expect(sA.leads().find((l) => l.id === call.id && l.kind === 'changed')).toMatchObject({
      status: 'approved',
      last_event: 'completed',
      duration_seconds: 95,
    });
    // The counters follow (at most once a second per scope).
    await sA.waitFor(() =>
      sA.messages.some(
        (m) => m.event === 'counters' && (m.data as LiveCounters).payable_today === 1,
      ),
    );
    const counters = sA.messages.filter((m) => m.event === 'counters').at(-1)!.data as LiveCounters;
    expect(counters).toMatchObject({ calls_today: 1, payable_today: 1, payout_today: 12.5 });
    expect(counters.revenue_today).toBeNull();
    expect(counters.per_minute).toHaveLength(60);
    // Counted once in the hour's chart: in the last minute, or the one before when the minute
    // turned between the call and the counters.
    expect(counters.per_minute.reduce((n, m) => n + m.calls, 0)).toBe(1);
    expect(counters.per_minute.slice(-2).reduce((n, m) => n + m.calls, 0)).toBe(1);

    // Publisher B's own call reaches B; A's never did.
    const other = await ring(pubB.id);
    await sB.waitFor(() => sB.leads().some((l) => l.id === other.id));
    expect(sB.leads().map((l) => l.id)).not.toContain(call.id);
    expect(sA.leads().map((l) => l.id)).not.toContain(other.id);
    // The buyer has no campaign on this offer: empty, zero counters.
    const snap = sBuyer.messages.find((m) => m.event === 'snapshot')!.data as LiveSnapshot;
    expect(snap.leads).toEqual([]);
    expect(snap.counters.calls_today).toBe(0);
    expect(sBuyer.leads()).toEqual([]);
    // Heartbeats keep the stream open.
    await sBuyer.waitFor(() => sBuyer.comments > 0);
    for (const s of [sAdmin, sA, sB, sBuyer]) s.close();
  });

  it("gives a buyer their campaigns' calls only: the caller's last 4 digits, never the publisher", async () => {
    const other = await buildBuyer(t.db);
    const offer = (await buildOffer(t.db)).id;
    // The offer's single live campaign takes its calls (the campaign billing trigger).
    await t.db.insert(campaigns).values({
      buyerId: buyer.id,
      name: 'Live campaign',
      status: 'active',
      offerId: offer,
      pricePerCall: '20.00',
    });
    const [mine, theirs] = await Promise.all([
      openStream(t.base, await token(buyer)),
      openStream(t.base, await token(other)),
    ]);
    for (const s of [mine, theirs]) {
      await s.waitFor(() => s.messages.some((m) => m.event === 'snapshot'));
    }
    const call = await ring(pubA.id, t.db, offer);
    const elsewhere = await ring(pubA.id);
    await mine.waitFor(() => mine.leads().some((l) => l.id === call.id));
    const seen = mine.leads().find((l) => l.id === call.id)!;
    expect(seen).toMatchObject({
      caller: '•••• 0123',
      publisher_id: '',
      publisher_name: null,
      revenue: null,
      offer_id: offer,
    });
    await mine.waitFor(() =>
      mine.messages.some((m) => m.event === 'counters' && (m.data as LiveCounters).calls_today > 0),
    );
    // Another buyer's stream and the call on an offer without this buyer's campaign: nothing.
    await new Promise((r) => setTimeout(r, 500));
    expect(mine.leads().map((l) => l.id)).not.toContain(elsewhere.id);
    expect(theirs.leads()).toEqual([]);
    for (const s of [mine, theirs]) s.close();
  });

  it('starts with the last calls of today and the counters, in a snapshot', async () => {
    const s = await openStream(t.base, await token(pubA));
    await s.waitFor(() => s.messages.length > 0);
    const snap = s.messages[0]!;
    expect(snap.event).toBe('snapshot');
    const data = snap.data as LiveSnapshot;
    expect(data.leads.length).toBeGreaterThan(0);
    expect(data.leads.every((l) => l.publisher_id === pubA.id)).toBe(true);
    expect(Number(snap.id)).toBeGreaterThan(0);
    s.close();
  });

  it('resumes with Last-Event-ID: the calls written meanwhile, in scope, no snapshot', async () => {
    const first = await openStream(t.base, await token(pubA));
    await first.waitFor(() => first.lastId !== undefined);
    const lastId = first.lastId!;
    first.close();
    const missed = [await ring(pubA.id), await ring(pubA.id)];
    const foreign = await ring(pubB.id);
    const again = await openStream(t.base, await token(pubA), { lastEventId: lastId });
    await again.waitFor(() => again.messages.some((m) => m.event === 'counters'));
    expect(again.messages.some((m) => m.event === 'snapshot')).toBe(false);
    const ids = again.leads().map((l) => l.id);
    expect(ids).toEqual(expect.arrayContaining(missed.map((l) => l.id)));
    expect(ids).not.toContain(foreign.id);
    expect(Number(again.lastId)).toBeGreaterThan(Number(lastId));
    again.close();
  });

  it('while call postbacks queue up, folds the calls of the next 200 ms into one message', async () => {
    const s = await openStream(t.base, await token(pubA));
    await s.waitFor(() => s.messages.some((m) => m.event === 'snapshot'));
    const messageOf = (id: string) =>
      s.messages.findIndex(
        (m) =>
          m.event === 'leads' &&
          (m.data as { leads: { id: string }[] }).leads.some((l) => l.id === id),
      );
    try {
      notePressure();
      const a = await ring(pubA.id);
      await s.waitFor(() => messageOf(a.id) >= 0);
      // The reader now waits before its next turn: two writes, 50 ms apart (each its own
      // transaction and notification), arrive together. Unpressed, each is a turn of its own.
      notePressure();
      const b = await ring(pubA.id);
      await new Promise((r) => setTimeout(r, 50));
      notePressure();
      const c = await ring(pubA.id);
      await s.waitFor(() => messageOf(b.id) >= 0 && messageOf(c.id) >= 0);
      expect(messageOf(b.id)).toBe(messageOf(c.id));
      expect(messageOf(b.id)).toBeGreaterThan(messageOf(a.id));
    } finally {
      clearPressure();
      s.close();
    }
  });

  it('allows LIVE_MAX_STREAMS streams per user, then answers 429', async () => {
    const tok = await token(await buildPublisher(t.db));
    const open = await Promise.all([1, 2, 3].map(() => openStream(t.base, tok)));
    for (const s of open) await s.waitFor(() => s.messages.length > 0);
    const fourth = await openStream(t.base, tok);
    expect(fourth.res.status).toBe(429);
    expect(((await fourth.res.json()) as { error: { message: string } }).error.message).toMatch(
      /3 live streams open/,
    );
    open[0]!.close();
    await new Promise((r) => setTimeout(r, 100));
    const fifth = await openStream(t.base, tok);
    expect(fifth.res.status).toBe(200);
    for (const s of [...open, fifth]) s.close();
  });

  it('ends the stream when its session ends (sign-out)', async () => {
    const tok = await token(pubA);
    const s = await openStream(t.base, tok);
    await s.waitFor(() => s.messages.length > 0);
    await endSession(t.db, sessionOf(tok));
    await s.waitFor(() => s.ended);
    expect(s.messages.at(-1)).toMatchObject({ event: 'end', data: { reason: 'signed_out' } });
  });

  it('ends the stream when the user is blocked', async () => {
    const blocked = await buildPublisher(t.db);
    const s = await openStream(t.base, await token(blocked));
    await s.waitFor(() => s.messages.length > 0);
    await t.db.update(users).set({ status: 'blocked' }).where(eq(users.id, blocked.id));
    await s.waitFor(() => s.ended);
    expect(s.messages.at(-1)).toMatchObject({ event: 'end', data: { reason: 'blocked' } });
  });
});

// Two app instances on one PostgreSQL database: a call written through one reaches the
// streams of the other by NOTIFY live_events (the poll is a minute: it cannot be that).
describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances on one database', () => {
  let second: SecondInstance;
  beforeAll(async () => {
    second = await listenSecondInstance(t, { ...ENV, LOG_LEVEL: 'silent' });
  });
  afterAll(() => second.close());

  it('delivers a call written on one instance to the streams of the other', async () => {
    const onSecond = await openStream(second.base, await token(pubA));
    const adminOnFirst = await openStream(t.base, await token(admin));
    await onSecond.waitFor(() => onSecond.messages.length > 0);
    await adminOnFirst.waitFor(() => adminOnFirst.messages.length > 0);
    const call = await ring(pubA.id);
    await onSecond.waitFor(() => onSecond.leads().some((l) => l.id === call.id));
    await adminOnFirst.waitFor(() => adminOnFirst.leads().some((l) => l.id === call.id));
    // And the resume works across instances: the ids are the database's.
    const lastId = onSecond.lastId!;
    onSecond.close();
    const missed = await ring(pubA.id);
    const resumed = await openStream(t.base, await token(pubA), { lastEventId: lastId });
    await resumed.waitFor(() => resumed.leads().some((l) => l.id === missed.id));
    resumed.close();
    adminOnFirst.close();
  });

  it('delivers a call whose transaction took its id first but committed last', async () => {
    const s = await openStream(second.base, await token(admin));
    await s.waitFor(() => s.messages.length > 0);
    let commit!: () => void;
    const gate = new Promise<void>((r) => {
      commit = r;
    });
    let lateId = '';
    let taken!: () => void;
    const idTaken = new Promise<void>((r) => {
      taken = r;
    });
    // The first call's transaction takes its timeline id and waits; a second call commits.
    // (The late call is of another day: two uncommitted calls of one day may share a row of the
    // day totals, when their connections share a slot, and the second would wait for the first.)
    const late = t.db.transaction(async (tx) => {
      lateId = (await ring(pubA.id, tx, offerId, new Date(Date.now() - 2 * 86_400_000))).id;
      taken();
      await gate;
    });
    await idTaken;
    const early = await ring(pubB.id);
    await s.waitFor(() => s.leads().some((l) => l.id === early.id));
    commit();
    await late;
    await s.waitFor(() => s.leads().some((l) => l.id === lateId));
    s.close();
  });
});
