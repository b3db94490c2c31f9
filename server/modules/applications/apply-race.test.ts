import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, leads, offerApplications, offers } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildOffer, buildPublisher, tokenFor } from '../../test/factories.ts';
import { mailsTo } from '../../test/gotrue.ts';

/**
 * Race tests for the "exactly one" rules (issue 11): Apply Now, deciding an application,
 * approving a publisher, and an offer deleted while someone applies or records a lead on it.
 */
let t: AdminTestContext;

beforeAll(async () => {
  t = await setupAdminTest();
});
afterAll(() => t?.close());

const asPublisher = (token: string, method: 'POST' | 'GET', url: string, payload?: object) =>
  callAs(t.app, token, method, `/api/v1/publisher${url}`, { body: payload });

describe('Apply Now at the same moment', () => {
  it('twenty parallel Apply Now requests leave one draft, and every request gets it', async () => {
    const publisher = await buildPublisher(t.db);
    const token = await tokenFor(t.db, t.config.jwtSecret, publisher);
    const offer = await buildOffer(t.db);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        asPublisher(token, 'POST', '/applications', { offer_id: offer.id }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    const ids = new Set(answers.map((a) => a.json().id));
    expect(ids.size).toBe(1);
    const drafts = await t.db
      .select()
      .from(offerApplications)
      .where(
        and(
          eq(offerApplications.publisherId, publisher.id),
          eq(offerApplications.offerId, offer.id),
        ),
      );
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.status).toBe('draft');
    // A later Apply returns the same draft.
    const later = await asPublisher(token, 'POST', '/applications', { offer_id: offer.id });
    expect(later.statusCode).toBe(201);
    expect(later.json().id).toBe(drafts[0]!.id);
  });

  it('the database itself refuses a second draft for the same publisher and offer', async () => {
    const publisher = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    const row = { publisherId: publisher.id, offerId: offer.id, status: 'draft' as const };
    await t.db.insert(offerApplications).values(row);
    await expect(t.db.insert(offerApplications).values(row)).rejects.toThrow();
  });
});

describe('deciding and approving at the same moment', () => {
  it('twenty parallel decisions on one application: one wins, the rest get 409, one mail', async () => {
    const publisher = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    const [app] = await t.db
      .insert(offerApplications)
      .values({ publisherId: publisher.id, offerId: offer.id, status: 'pending' })
      .returning();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call('PATCH', `/applications/${app!.id}`, {
          body:
            i % 2 ? { status: 'approved' } : { status: 'rejected', reason: 'script_not_followed' },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, ...Array(19).fill(409)]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().status;
    const [after] = await t.db
      .select()
      .from(offerApplications)
      .where(eq(offerApplications.id, app!.id));
    expect(after!.status).toBe(winner);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'application'), eq(auditLog.entityId, app!.id)));
    expect(audits).toHaveLength(1);
    expect(await mailsTo(t.db, publisher.email)).toHaveLength(1);
  });

  it('twenty parallel approvals of one publisher: one 200, the rest 409, one mail', async () => {
    const publisher = await buildPublisher(t.db, { status: 'pending' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.call('PATCH', `/publishers/${publisher.id}`, { body: { status: 'approved' } }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(19).fill(409)]);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'publisher'), eq(auditLog.entityId, publisher.id)));
    expect(audits).toHaveLength(1);
    expect(await mailsTo(t.db, publisher.email)).toHaveLength(1);
  });
});

describe('an offer deleted while someone applies or records a lead', () => {
  it('never answers 500: each request either wins or gets a clear 404/409', async () => {
    const publisher = await buildPublisher(t.db);
    const token = await tokenFor(t.db, t.config.jwtSecret, publisher);
    for (let round = 0; round < 5; round++) {
      const offer = await buildOffer(t.db);
      const [apply, lead, del] = await Promise.all([
        asPublisher(token, 'POST', '/applications', { offer_id: offer.id }),
        t.call('POST', '/leads', { body: { publisher_id: publisher.id, offer_id: offer.id } }),
        t.call('DELETE', `/offers/${offer.id}`),
      ]);
      expect([201, 404]).toContain(apply.statusCode);
      expect([201, 400, 409]).toContain(lead.statusCode);
      expect([204, 409]).toContain(del.statusCode);
      for (const r of [apply, lead, del]) {
        if (r.statusCode >= 400) expect(r.json().error.message).toMatch(/\w+ \w+/);
      }
      const [still] = await t.db.select().from(offers).where(eq(offers.id, offer.id));
      const apps = await t.db
        .select()
        .from(offerApplications)
        .where(eq(offerApplications.offerId, offer.id));
      const leadRows = await t.db.select().from(leads).where(eq(leads.offerId, offer.id));
      if (del.statusCode === 204) {
        // Deleted: nothing may refer to it, and nobody was told they succeeded.
        expect(still).toBeUndefined();
        expect(apps).toHaveLength(0);
        expect(leadRows).toHaveLength(0);
        expect(apply.statusCode).toBe(404);
        expect(lead.statusCode).not.toBe(201);
      } else {
        expect(still).toBeDefined();
        expect(apps.length + leadRows.length).toBeGreaterThan(0);
      }
    }
  });

  // A deterministic version of the race needs two connections, so PostgreSQL only: the offer is
  // deleted in an open transaction, the request runs into its row lock, then the delete commits.
  describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('on PostgreSQL, the exact race', () => {
    async function whileDeleting(offerId: string, request: () => Promise<{ statusCode: number }>) {
      let pending: Promise<{ statusCode: number; json(): { error: { message: string } } }>;
      await t.db.transaction(async (tx) => {
        await tx.delete(offers).where(eq(offers.id, offerId));
        pending = request() as typeof pending;
        // Commit only once the request waits on the deleted row's lock.
        for (let i = 0; i < 200; i++) {
          const res = await t.db.execute(
            sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`,
          );
          if ((res as unknown as { rows: { n: number }[] }).rows[0]!.n > 0) break;
          await new Promise((r) => setTimeout(r, 25));
        }
      });
      return pending!;
    }

    it('applying: 404 "offer not found", no application left behind', async () => {
      const publisher = await buildPublisher(t.db);
      const token = await tokenFor(t.db, t.config.jwtSecret, publisher);
      const offer = await buildOffer(t.db);
      const r = await whileDeleting(offer.id, () =>
        asPublisher(token, 'POST', '/applications', { offer_id: offer.id }),
      );
      expect(r.statusCode).toBe(404);
      expect(r.json().error.message).toMatch(/offer/i);
      expect(
        await t.db
          .select()
          .from(offerApplications)
          .where(eq(offerApplications.publisherId, publisher.id)),
      ).toHaveLength(0);
    });

    it('recording a lead: 409 saying the offer was removed, no lead recorded', async () => {
      const publisher = await buildPublisher(t.db);
      const offer = await buildOffer(t.db);
      const r = await whileDeleting(offer.id, () =>
        t.call('POST', '/leads', { body: { publisher_id: publisher.id, offer_id: offer.id } }),
      );
      expect(r.statusCode).toBe(409);
      expect(r.json().error.message).toBe(
        'The selected offer was removed a moment ago, so the lead was not recorded.',
      );
      expect(
        await t.db.select().from(leads).where(eq(leads.publisherId, publisher.id)),
      ).toHaveLength(0);
    });
  });
});
