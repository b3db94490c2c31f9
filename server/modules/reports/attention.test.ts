import { and, count, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ingestRefusals,
  integrations,
  leadDisputes,
  offerApplications,
  payoutHolds,
  publisherBalances,
  settings,
  users,
} from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildAdmin, buildOffer, buildPublisher, tokenFor } from '../../test/factories.ts';

// Issue 34: what waits for the admin (dashboard and bell) and the newcomer's checklist.
const t = fileAdminTest();
const HOUR = 3_600_000;

describe('the newcomer’s checklist (GET /admin/setup-checklist)', () => {
  it('ticks each step from the data, and a dismissal is kept for that admin only', async () => {
    const steps = async (token?: string) => {
      const res = await t.call('GET', '/setup-checklist', { token });
      expect(res.statusCode).toBe(200);
      return res.json() as { steps: { step: string; done: boolean }[]; dismissed: boolean };
    };
    // An empty network: nothing done, not dismissed.
    expect(await steps()).toEqual({
      steps: [
        { step: 'brand', done: false },
        { step: 'offer', done: false },
        { step: 'tracker', done: false },
        { step: 'publishers', done: false },
      ],
      dismissed: false,
    });

    await t.db.update(settings).set({ companyName: 'Acme Calls' });
    await buildOffer(t.db);
    await t.db.insert(integrations).values({ name: 'CallRail', keyHash: 'h1', keyPrefix: 'ik_1' });
    const publisher = await buildPublisher(t.db, { status: 'pending' });
    expect((await steps()).steps.every((s) => s.done)).toBe(true);

    const dismissed = await t.call('POST', '/setup-checklist/dismiss');
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json().dismissed).toBe(true);
    expect((await steps()).dismissed).toBe(true);
    // Another admin still sees theirs.
    const other = await buildAdmin(t.db);
    expect((await steps(await t.tokenOf(other))).dismissed).toBe(false);
    // Not a publisher's.
    const refused = await t.call('GET', '/setup-checklist', { token: await t.tokenOf(publisher) });
    expect(refused.statusCode).toBe(403);
  });
});

describe('what needs attention (GET /admin/stats, the bell)', () => {
  it('keeps the pending queues counted as their rows move: sign-ups, decisions, deletions, bulk updates', async () => {
    // What the bell and the cards say against a count of the rows themselves.
    const counted = async () => {
      const [[pubs], [apps], [disputes]] = await Promise.all([
        t.db
          .select({ n: count() })
          .from(users)
          .where(and(eq(users.role, 'publisher'), eq(users.status, 'pending'))),
        t.db
          .select({ n: count() })
          .from(offerApplications)
          .where(eq(offerApplications.status, 'pending')),
        t.db.select({ n: count() }).from(leadDisputes).where(eq(leadDisputes.status, 'open')),
      ]);
      return {
        pending_publishers: pubs!.n,
        pending_applications: apps!.n,
        open_disputes: disputes!.n,
      };
    };
    const shown = async () => {
      const s = (await t.call('GET', '/stats')).json();
      return {
        pending_publishers: s.pending_publishers,
        pending_applications: s.pending_applications,
        open_disputes: s.open_disputes,
      };
    };
    const before = await shown();
    expect(before).toEqual(await counted());

    const waiting = await Promise.all(
      [1, 2, 3].map(() => buildPublisher(t.db, { status: 'pending' })),
    );
    const offer = await buildOffer(t.db);
    const apps = await t.db
      .insert(offerApplications)
      .values(
        waiting.map((p) => ({ offerId: offer.id, publisherId: p.id, status: 'pending' as const })),
      )
      .returning();
    const [dispute] = await t.db
      .insert(leadDisputes)
      .values({ leadId: crypto.randomUUID(), publisherId: waiting[0]!.id, status: 'open' })
      .returning();
    expect(await shown()).toEqual({
      pending_publishers: before.pending_publishers + 3,
      pending_applications: before.pending_applications + 3,
      open_disputes: before.open_disputes + 1,
    });

    // One statement moving several rows, one moving a row to where it already was, a deletion.
    await t.db
      .update(users)
      .set({ status: 'approved' })
      .where(inArray(users.id, [waiting[0]!.id, waiting[1]!.id]));
    await t.db.update(users).set({ status: 'pending' }).where(eq(users.id, waiting[2]!.id));
    await t.db
      .update(offerApplications)
      .set({ status: 'approved' })
      .where(eq(offerApplications.id, apps[0]!.id));
    await t.db.delete(offerApplications).where(eq(offerApplications.id, apps[1]!.id));
    await t.db
      .update(leadDisputes)
      .set({ status: 'accepted' })
      .where(eq(leadDisputes.id, dispute!.id));
    expect(await shown()).toEqual({
      pending_publishers: before.pending_publishers + 1,
      pending_applications: before.pending_applications + 1,
      open_disputes: before.open_disputes,
    });
    expect(await shown()).toEqual(await counted());
  });

  it('counts open disputes, calls refused in 24 h and held payouts beside the pending queues', async () => {
    const before = (await t.call('GET', '/stats')).json();
    const publisher = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    await t.db
      .insert(offerApplications)
      .values({ offerId: offer.id, publisherId: publisher.id, status: 'pending' });
    await t.db.insert(leadDisputes).values([
      { leadId: crypto.randomUUID(), publisherId: publisher.id, status: 'open' },
      { leadId: crypto.randomUUID(), publisherId: publisher.id, status: 'declined' },
    ]);
    const refusal = { httpStatus: 401, code: 'bad_key', reason: 'Unknown key', method: 'POST' };
    await t.db.insert(ingestRefusals).values([
      { ...refusal, createdAt: new Date(Date.now() - HOUR) },
      { ...refusal, createdAt: new Date(Date.now() - 25 * HOUR) },
    ]);
    // Owed money, no payment details: the default holds keep it out of a run.
    await t.db
      .insert(publisherBalances)
      .values({ publisherId: publisher.id, earned: '120.00' })
      .onConflictDoUpdate({ target: publisherBalances.publisherId, set: { earned: '120.00' } });

    const res = await t.call('GET', '/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      pending_applications: before.pending_applications + 1,
      open_disputes: before.open_disputes + 1,
      refused_calls_24h: before.refused_calls_24h + 1,
      held_payouts: before.held_payouts + 1,
    });

    // A release for the next run takes the publisher out of the held ones.
    await t.db.insert(payoutHolds).values({
      publisherId: publisher.id,
      releaseNote: 'Paid by wire this once',
      releasedAt: new Date(),
    });
    expect((await t.call('GET', '/stats')).json().held_payouts).toBe(before.held_payouts);

    // The bell: an admin's count carries what waits; a publisher's does not.
    const bell = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me/notifications/unread-count',
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(bell.json().waiting).toEqual({
      pending_publishers: res.json().pending_publishers,
      pending_applications: res.json().pending_applications,
      open_disputes: res.json().open_disputes,
    });
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me/notifications/unread-count',
      headers: { authorization: `Bearer ${await tokenFor(t.db, t.config.jwtSecret, publisher)}` },
    });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().waiting).toBeUndefined();
  });
});
