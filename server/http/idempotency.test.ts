import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, idempotencyKeys, leads, offers, payouts } from '../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../test/admin-test.ts';
import { buildAdmin, buildBuyer, buildOffer, buildPublisher } from '../test/factories.ts';

/** Idempotency-Key on the POSTs that create money or records (issue 11, item 5). */
describe('Idempotency-Key', () => {
  let t: AdminTestContext;
  let publisherId: string;

  beforeAll(async () => {
    t = await setupAdminTest();
    publisherId = (await buildPublisher(t.db)).id;
  });
  afterAll(() => t?.close());

  /** POST /admin/payouts with the Idempotency-Key `key` (as the admin, or as `token`). */
  const keyedPayout = (key: string, body: object, token?: string) =>
    t.call('POST', '/payouts', { body, token, headers: { 'idempotency-key': key } });
  const payoutCount = async (notes: string) =>
    (await t.db.select().from(payouts).where(eq(payouts.notes, notes))).length;

  it('returns the first response to a retry with the same key and body, and records one payout', async () => {
    const key = randomUUID();
    const body = { publisher_id: publisherId, amount: 125.5, notes: `retry ${key}` };
    const first = await keyedPayout(key, body);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const again = await keyedPayout(key, {
      notes: body.notes,
      amount: 125.5,
      publisher_id: publisherId,
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await payoutCount(body.notes)).toBe(1);
  });

  it('answers 422 when the key is reused with another body, and records nothing more', async () => {
    const key = randomUUID();
    const notes = `reuse ${key}`;
    const body = { publisher_id: publisherId, amount: 10, notes };
    expect((await keyedPayout(key, body)).statusCode).toBe(201);
    const other = await keyedPayout(key, { ...body, amount: 11 });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    expect(other.json().error.message).toMatch(
      /already used for POST .*payouts with a different body/,
    );
    // The same key on another route is another request too.
    const offer = await t.call('POST', '/offers', {
      body: { title: 'Reused key', vertical: 'Auto', payout: 5 },
      headers: { 'idempotency-key': key },
    });
    expect(offer.statusCode).toBe(422);
    expect(await payoutCount(notes)).toBe(1);
  });

  it('runs twenty simultaneous requests with one key exactly once; all get the same payout', async () => {
    const key = randomUUID();
    const notes = `parallel ${key}`;
    const body = { publisher_id: publisherId, amount: 99.99, notes };
    const answers = await Promise.all(Array.from({ length: 20 }, () => keyedPayout(key, body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await payoutCount(notes)).toBe(1);
  });

  it('without a key, each request is a new payout (as before)', async () => {
    const notes = `no key ${randomUUID()}`;
    const body = { publisher_id: publisherId, amount: 1, notes };
    for (let i = 0; i < 2; i++) {
      expect((await t.call('POST', '/payouts', { body })).statusCode).toBe(201);
    }
    expect(await payoutCount(notes)).toBe(2);
  });

  it('protects leads and offers the same way', async () => {
    const offer = await buildOffer(t.db);
    const leadKey = randomUUID();
    const leadBody = { publisher_id: publisherId, offer_id: offer.id, call_duration: 7 };
    const l1 = await t.call('POST', '/leads', {
      body: leadBody,
      headers: { 'idempotency-key': leadKey },
    });
    const l2 = await t.call('POST', '/leads', {
      body: leadBody,
      headers: { 'idempotency-key': leadKey },
    });
    expect([l1.statusCode, l2.statusCode]).toEqual([201, 201]);
    expect(l2.json().id).toBe(l1.json().id);
    expect(await t.db.select().from(leads).where(eq(leads.offerId, offer.id))).toHaveLength(1);

    const title = `Idempotent offer ${randomUUID()}`;
    const offerKey = randomUUID();
    for (let i = 0; i < 3; i++) {
      const r = await t.call('POST', '/offers', {
        body: { title, vertical: 'Auto', payout: 12 },
        headers: { 'idempotency-key': offerKey },
      });
      expect(r.statusCode).toBe(201);
    }
    expect(await t.db.select().from(offers).where(eq(offers.title, title))).toHaveLength(1);
  });

  it('scopes keys per user: two admins may use the same key for their own payouts', async () => {
    const other = await buildAdmin(t.db);
    const otherToken = await t.tokenOf(other);
    const key = randomUUID();
    const notes = `scoped ${key}`;
    const body = { publisher_id: publisherId, amount: 3, notes };
    const mine = await keyedPayout(key, body);
    const theirs = await keyedPayout(key, body, otherToken);
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await payoutCount(notes)).toBe(2);
  });

  it('a buyer campaign is created once per key', async () => {
    const buyer = await buildBuyer(t.db);
    const token = await t.tokenOf(buyer);
    const key = randomUUID();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/buyer/campaigns',
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
          payload: { name: 'Spring push' },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(await t.db.select().from(campaigns).where(eq(campaigns.buyerId, buyer.id))).toHaveLength(
      1,
    );
  });

  it('a failed request stores nothing: the same key works once the problem is fixed', async () => {
    const pending = await buildPublisher(t.db, { status: 'pending' });
    const key = randomUUID();
    const notes = `after approval ${key}`;
    const body = { publisher_id: pending.id, amount: 20, notes };
    const refused = await keyedPayout(key, body);
    expect(refused.statusCode).toBe(409);
    const approved = await t.call('PATCH', `/publishers/${pending.id}`, {
      body: { status: 'approved' },
    });
    expect(approved.statusCode).toBe(200);
    const retried = await keyedPayout(key, body);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await payoutCount(notes)).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    const key = randomUUID();
    const notes = `expired ${key}`;
    const body = { publisher_id: publisherId, amount: 4, notes };
    expect((await keyedPayout(key, body)).statusCode).toBe(201);
    await t.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, key));
    const later = await keyedPayout(key, body);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await payoutCount(notes)).toBe(2);
  });

  it('refuses a malformed key with a 400 naming the header', async () => {
    const r = await t.call('POST', '/payouts', {
      body: { publisher_id: publisherId, amount: 1 },
      headers: { 'idempotency-key': 'x'.repeat(300) },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toMatch(/Idempotency-Key header must be/);
    expect(r.json().error.details['idempotency-key']).toBeDefined();
  });

  // Needs a second connection holding the key, so PostgreSQL only.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'answers 409 with Retry-After when the first request with the key takes too long',
    async () => {
      const key = randomUUID();
      const notes = `held ${key}`;
      let answer: Awaited<ReturnType<typeof t.call>> | undefined;
      await t.db
        .transaction(async (tx) => {
          // Another instance's request that claimed the key and has not finished yet.
          await tx.insert(idempotencyKeys).values({
            userId: t.admin.id,
            key,
            fingerprint: 'x',
            route: 'POST /api/v1/admin/payouts',
          });
          answer = await keyedPayout(key, { publisher_id: publisherId, amount: 8, notes });
          tx.rollback();
        })
        .catch(() => {});
      expect(answer!.statusCode).toBe(409);
      expect(answer!.headers['retry-after']).toBe('1');
      expect(answer!.json().error.code).toBe('idempotency_key_in_use');
      expect(await payoutCount(notes)).toBe(0);
    },
    30_000,
  );
});
