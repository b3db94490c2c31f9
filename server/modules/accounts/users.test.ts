import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { publisherBlockReasons, publisherRejectReasons } from '../../../contract/review-reasons.ts';
import { auditLog, authSessions, offerApplications, users } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildAdmin, buildBuyer, buildOffer, buildPublisher } from '../../test/factories.ts';
import { mailsTo } from '../../test/gotrue.ts';

const t = fileAdminTest();

const statusOf = async (id: string) =>
  (await t.db.select({ s: users.status }).from(users).where(eq(users.id, id)))[0]?.s;

describe('GET /admin/publishers', () => {
  it('lists publishers newest first, searches name and e-mail, filters by status, pages', async () => {
    const older = await buildPublisher(t.db, {
      name: 'Zed Older',
      status: 'pending',
      createdAt: new Date('2024-01-01T00:00:00Z'),
    });
    const newer = await buildPublisher(t.db, {
      name: 'Amy Newer',
      email: 'amy.search@example.test',
      createdAt: new Date('2024-02-01T00:00:00Z'),
    });
    await buildBuyer(t.db, { name: 'Amy Buyer' });

    const all = await t.call('GET', '/publishers');
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.page).toBe(1);
    expect(body.page_size).toBe(25);
    expect(body.items.every((p: { id: string }) => p.id !== t.admin.id)).toBe(true);
    const ids = body.items.map((p: { id: string }) => p.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));

    const byMail = await t.call('GET', '/publishers', { query: { q: 'AMY.SEARCH' } });
    expect(byMail.json().items.map((p: { id: string }) => p.id)).toEqual([newer.id]);
    const byName = await t.call('GET', '/publishers', { query: { q: 'zed old' } });
    expect(byName.json().items.map((p: { id: string }) => p.id)).toEqual([older.id]);

    const pending = await t.call('GET', '/publishers', { query: { status: 'pending' } });
    expect(pending.json().items.map((p: { status: string }) => p.status)).toEqual(
      pending.json().items.map(() => 'pending'),
    );
    expect(pending.json().total).toBeGreaterThanOrEqual(1);

    const page = await t.call('GET', '/publishers', {
      query: { page_size: '1', page: '2', sort: 'name', order: 'asc' },
    });
    expect(page.json().items).toHaveLength(1);
    expect(page.json().total).toBeGreaterThanOrEqual(2);
  });

  it('finds legacy active publishers under the Approved filter, since they display as Approved', async () => {
    const legacy = await buildPublisher(t.db, { name: 'Legacy Lee', status: 'active' });
    const approved = await buildPublisher(t.db, { name: 'Approved Ann', status: 'approved' });
    const pending = await buildPublisher(t.db, { name: 'Pending Pat', status: 'pending' });
    const res = await t.call('GET', '/publishers', {
      query: { status: 'approved', page_size: '200' },
    });
    const ids = res.json().items.map((p: { id: string }) => p.id);
    expect(ids).toContain(legacy.id);
    expect(ids).toContain(approved.id);
    expect(ids).not.toContain(pending.id);
    const onlyLegacy = await t.call('GET', '/publishers', {
      query: { status: 'active', page_size: '200' },
    });
    const legacyIds = onlyLegacy.json().items.map((p: { id: string }) => p.id);
    expect(legacyIds).toContain(legacy.id);
    expect(legacyIds).not.toContain(approved.id);
    // Leave the shared database as the other tests expect it.
    await t.db.delete(users).where(inArray(users.id, [legacy.id, approved.id, pending.id]));
  });

  it('treats % and _ in the search as plain characters', async () => {
    const res = await t.call('GET', '/publishers', { query: { q: '%' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(0);
  });

  it('answers bad list parameters with a 400 naming the field', async () => {
    for (const [query, field] of [
      [{ page_size: '201' }, 'page_size'],
      [{ page: '0' }, 'page'],
      [{ status: 'nope' }, 'status'],
      [{ sort: 'password_hash' }, 'sort'],
      [{ order: 'sideways' }, 'order'],
    ] as const) {
      const res = await t.call('GET', '/publishers', { query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.details).toHaveProperty(field);
    }
  });
});

describe('GET /admin/publishers/:id', () => {
  it('answers the profile, applications without drafts, totals and audit history', async () => {
    const p = await buildPublisher(t.db, { status: 'pending', phoneNumber: '+1 555 0100' });
    const offer = await buildOffer(t.db, { title: 'Detail Offer' });
    const draftOffer = await buildOffer(t.db);
    await t.db.insert(offerApplications).values([
      { offerId: offer.id, publisherId: p.id, status: 'pending' },
      { offerId: draftOffer.id, publisherId: p.id, status: 'draft' },
    ]);
    await t.call('PATCH', `/publishers/${p.id}`, { body: { status: 'approved' } });

    const res = await t.call('GET', `/publishers/${p.id}`);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.publisher).toMatchObject({
      id: p.id,
      status: 'approved',
      phone_number: '+1 555 0100',
      has_agreement: false,
    });
    expect(d.agreement).toBeNull();
    expect(d.applications).toHaveLength(1);
    expect(d.applications[0]).toMatchObject({
      offer_title: 'Detail Offer',
      status: 'pending',
      io: null,
    });
    expect(d.totals).toMatchObject({ leads: 0, earned: 0, owed: 0, recorded: 0, paid: 0 });
    expect(d.audit[0]).toMatchObject({
      action: 'publisher.approve',
      actor_email: t.admin.email,
      before: { status: 'pending' },
      after: { status: 'approved' },
    });
  });

  it('answers 404 for an unknown id or a non-publisher, 400 for a malformed id', async () => {
    const buyer = await buildBuyer(t.db);
    expect((await t.call('GET', `/publishers/${crypto.randomUUID()}`)).statusCode).toBe(404);
    const asBuyer = await t.call('GET', `/publishers/${buyer.id}`);
    expect(asBuyer.statusCode).toBe(404);
    expect(asBuyer.json().error.message).toBe('Publisher not found.');
    expect((await t.call('GET', '/publishers/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('PATCH /admin/publishers/:id', () => {
  it('approves a pending publisher, records the audit entry and e-mails them', async () => {
    const p = await buildPublisher(t.db, { status: 'pending', name: 'Penny Pending' });
    const res = await t.call('PATCH', `/publishers/${p.id}`, { body: { status: 'approved' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, status: 'approved' });
    expect(await statusOf(p.id)).toBe('approved');

    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'publisher'), eq(auditLog.entityId, p.id)));
    expect(audit).toMatchObject({
      actorId: t.admin.id,
      actorEmail: t.admin.email,
      action: 'publisher.approve',
      before: { status: 'pending' },
      after: { status: 'approved' },
    });

    const mails = await mailsTo(t.db, p.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('approved');
    expect(mails[0]!.text).toContain('Penny Pending');
    expect(mails[0]!.text).toContain('http://localhost:3000/login');
  });

  it('rejects a pending publisher (blocked) with a reason: audited, and e-mailed instead of an approval', async () => {
    const p = await buildPublisher(t.db, { status: 'pending' });
    const none = await t.call('PATCH', `/publishers/${p.id}`, { body: { status: 'blocked' } });
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json().error)).toContain('Choose a reason');
    const res = await t.call('PATCH', `/publishers/${p.id}`, {
      body: {
        status: 'blocked',
        reason: 'details_unverifiable',
        note: 'The phone number is not in service.',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('blocked');
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, p.id));
    expect(audit!.action).toBe('publisher.reject');
    expect(audit!.after).toMatchObject({
      reason: 'details_unverifiable',
      note: 'The phone number is not in service.',
    });
    const mails = await mailsTo(t.db, p.email);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/publisher account was not approved$/),
    ]);
    expect(mails[0]!.text).toContain(
      "The reviewer's reason: The business details could not be verified. The phone number is not in service.",
    );
  });

  it('approves or rejects many pending publishers with one reason; others are skipped with why', async () => {
    const a = await buildPublisher(t.db, { status: 'pending' });
    const b = await buildPublisher(t.db, { status: 'pending' });
    const approved = await buildPublisher(t.db, { status: 'approved', name: 'Already Approved' });
    const res = await t.call('POST', '/publishers/bulk', {
      body: { ids: [a.id, b.id, approved.id], status: 'blocked', reason: 'incomplete_profile' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      decided: 2,
      skipped: [
        { id: approved.id, message: 'Already Approved is not pending (already approved).' },
      ],
    });
    expect(await statusOf(a.id)).toBe('blocked');
    expect(await statusOf(approved.id)).toBe('approved');
    const [mail] = await mailsTo(t.db, b.email);
    expect(mail!.text).toContain('The profile is incomplete.');
    const c = await buildPublisher(t.db, { status: 'pending' });
    const ok = await t.call('POST', '/publishers/bulk', {
      body: { ids: [c.id], status: 'approved' },
    });
    expect(ok.json()).toEqual({ decided: 1, skipped: [] });
    expect(await statusOf(c.id)).toBe('approved');
    const bad = await t.call('POST', '/publishers/bulk', {
      body: { ids: [c.id], status: 'blocked' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('takes the reasons of the action only: rejecting a sign-up and blocking differ (issue 27)', async () => {
    const decide = (id: string, body: Record<string, unknown>) =>
      t.call('PATCH', `/publishers/${id}`, { body });
    for (const reason of Object.keys(publisherRejectReasons)) {
      const p = await buildPublisher(t.db, { status: 'pending' });
      const note = reason === 'other' ? 'Not a call publisher.' : undefined;
      const res = await decide(p.id, { status: 'blocked', reason, note });
      expect(res.statusCode, `reject ${reason}`).toBe(200);
    }
    for (const reason of Object.keys(publisherBlockReasons)) {
      const p = await buildPublisher(t.db, { status: 'approved' });
      const note = reason === 'other' ? 'Asked to leave.' : undefined;
      const res = await decide(p.id, { status: 'blocked', reason, note });
      expect(res.statusCode, `block ${reason}`).toBe(200);
    }
    // A block's reason on a sign-up, a sign-up's on a block, any reason on an approval: 400.
    const pending = await buildPublisher(t.db, { status: 'pending' });
    const approved = await buildPublisher(t.db, { status: 'approved' });
    const cases: [string, Record<string, unknown>, string[]][] = [
      [
        pending.id,
        { status: 'blocked', reason: 'fraud_suspected' },
        [
          '"fraud_suspected" (Suspected fraudulent or low-quality traffic) is not a reason to reject a sign-up.',
          'incomplete_profile (The profile is incomplete)',
        ],
      ],
      [
        approved.id,
        { status: 'blocked', reason: 'incomplete_profile' },
        [
          '"incomplete_profile" (The profile is incomplete) is not a reason to block a publisher.',
          'policy_violation (The network’s policies were not followed)',
        ],
      ],
      [
        pending.id,
        { status: 'approved', reason: 'details_unverifiable' },
        ['No reason is given to approve a publisher'],
      ],
    ];
    for (const [id, body, says] of cases) {
      const res = await decide(id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      for (const said of says) expect(res.json().error.details.reason[0]).toContain(said);
    }
    const bulk = await t.call('POST', '/publishers/bulk', {
      body: { ids: [pending.id], status: 'blocked', reason: 'policy_violation' },
    });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json().error.message).toContain('is not a reason to reject a sign-up');
    expect(await statusOf(pending.id)).toBe('pending');
    expect(await statusOf(approved.id)).toBe('approved');
  });

  it('blocks an approved or legacy active publisher and ends their sessions at once', async () => {
    for (const status of ['approved', 'active'] as const) {
      const p = await buildPublisher(t.db, { status });
      const token = await t.tokenOf(p);
      // A live publisher session reaches the guard's role check (403), an ended one does not (401).
      expect((await t.call('GET', '/stats', { token })).statusCode).toBe(403);
      const res = await t.call('PATCH', `/publishers/${p.id}`, {
        body: { status: 'blocked', reason: 'fraud_suspected' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('blocked');
      const sessions = await t.db.select().from(authSessions).where(eq(authSessions.userId, p.id));
      expect(sessions).toHaveLength(0);
      expect((await t.call('GET', '/stats', { token })).statusCode).toBe(401);
    }
  });

  it('unblocks a blocked publisher to approved', async () => {
    const p = await buildPublisher(t.db, { status: 'blocked' });
    const res = await t.call('PATCH', `/publishers/${p.id}`, { body: { status: 'approved' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('approved');
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, p.id));
    expect(audit!.action).toBe('publisher.unblock');
  });

  it('refuses every other transition with a 409 and a clear message, changing nothing', async () => {
    const cases = [
      ['pending', 'pending', 'A pending publisher can be approved or rejected'],
      ['approved', 'approved', 'An approved publisher can only be blocked, not approved.'],
      [
        'approved',
        'pending',
        'An approved publisher can only be blocked, not set back to pending.',
      ],
      ['active', 'approved', 'An approved publisher can only be blocked'],
      ['active', 'pending', 'An approved publisher can only be blocked'],
      [
        'blocked',
        'blocked',
        'A blocked publisher can only be unblocked (approved again), not blocked.',
      ],
      ['blocked', 'pending', 'A blocked publisher can only be unblocked'],
    ] as const;
    for (const [from, to, message] of cases) {
      const p = await buildPublisher(t.db, { status: from });
      const reason = to === 'blocked' ? { reason: 'policy_violation' } : {};
      const res = await t.call('PATCH', `/publishers/${p.id}`, {
        body: { status: to, ...reason },
      });
      expect(res.statusCode, `${from} → ${to}`).toBe(409);
      expect(res.json().error.code).toBe('conflict');
      expect(res.json().error.message).toContain(message);
      expect(await statusOf(p.id)).toBe(from);
      expect(await t.db.select().from(auditLog).where(eq(auditLog.entityId, p.id))).toHaveLength(0);
    }
  });

  it('answers 400 for a missing or unknown status and 404 for a non-publisher', async () => {
    const p = await buildPublisher(t.db, { status: 'pending' });
    for (const body of [{}, { status: 'active' }, { status: 'gone' }]) {
      const res = await t.call('PATCH', `/publishers/${p.id}`, { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details).toHaveProperty('status');
    }
    const buyer = await buildBuyer(t.db);
    const res = await t.call('PATCH', `/publishers/${buyer.id}`, {
      body: { status: 'blocked', reason: 'other', note: 'Not a publisher.' },
    });
    expect(res.statusCode).toBe(404);
    expect(await statusOf(buyer.id)).toBe('active');
  });
});

describe('buyers', () => {
  it('lists buyers with company and confirmation, searches and filters', async () => {
    const b = await buildBuyer(t.db, {
      name: 'Bea Buyer',
      businessLegalName: 'Bea Co',
      emailConfirmedAt: null,
    });
    const res = await t.call('GET', '/buyers', { query: { q: 'bea buy' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({
        id: b.id,
        name: 'Bea Buyer',
        company_name: 'Bea Co',
        status: 'active',
        email_confirmed: false,
      }),
    ]);
    const blocked = await t.call('GET', '/buyers', { query: { status: 'blocked' } });
    expect(blocked.json().items.every((x: { status: string }) => x.status === 'blocked')).toBe(
      true,
    );
    expect((await t.call('GET', '/buyers', { query: { status: 'pending' } })).statusCode).toBe(400);
  });

  it('blocks a buyer (sessions end) and unblocks them; repeating is a 409', async () => {
    const b = await buildBuyer(t.db);
    const token = await t.tokenOf(b);
    expect((await t.call('GET', '/stats', { token })).statusCode).toBe(403);
    const block = await t.call('PATCH', `/buyers/${b.id}`, { body: { status: 'blocked' } });
    expect(block.statusCode).toBe(200);
    expect(block.json().status).toBe('blocked');
    expect(
      await t.db.select().from(authSessions).where(eq(authSessions.userId, b.id)),
    ).toHaveLength(0);
    expect((await t.call('GET', '/stats', { token })).statusCode).toBe(401);

    const again = await t.call('PATCH', `/buyers/${b.id}`, { body: { status: 'blocked' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This buyer is already blocked.');

    const unblock = await t.call('PATCH', `/buyers/${b.id}`, { body: { status: 'active' } });
    expect(unblock.statusCode).toBe(200);
    expect(unblock.json().status).toBe('active');
    const again2 = await t.call('PATCH', `/buyers/${b.id}`, { body: { status: 'active' } });
    expect(again2.statusCode).toBe(409);
    expect(again2.json().error.message).toBe('This buyer is already active.');

    const actions = (await t.db.select().from(auditLog).where(eq(auditLog.entityId, b.id))).map(
      (a) => a.action,
    );
    expect(actions.sort()).toEqual(['buyer.block', 'buyer.unblock']);
  });

  it('answers 404 for a publisher id, 400 for a bad status', async () => {
    const p = await buildPublisher(t.db);
    expect(
      (await t.call('PATCH', `/buyers/${p.id}`, { body: { status: 'blocked' } })).statusCode,
    ).toBe(404);
    const b = await buildBuyer(t.db);
    const bad = await t.call('PATCH', `/buyers/${b.id}`, { body: { status: 'approved' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('status must be active or blocked.');
  });
});

describe('GET /admin/approved-publishers', () => {
  it('lists only approved and legacy active publishers with id, name and e-mail', async () => {
    const a = await buildPublisher(t.db, { status: 'approved', name: 'Approved Ann' });
    const l = await buildPublisher(t.db, { status: 'active', name: 'Legacy Lou' });
    const p = await buildPublisher(t.db, { status: 'pending', name: 'Pending Pat' });
    const res = await t.call('GET', '/approved-publishers');
    expect(res.statusCode).toBe(200);
    const ids = res.json().items.map((x: { id: string }) => x.id);
    expect(ids).toContain(a.id);
    expect(ids).toContain(l.id);
    expect(ids).not.toContain(p.id);
    expect(Object.keys(res.json().items[0]).sort()).toEqual(['email', 'id', 'name']);
    const found = await t.call('GET', '/approved-publishers', { query: { q: 'legacy' } });
    expect(found.json().items.map((x: { id: string }) => x.id)).toEqual([l.id]);
  });
});

describe('an admin who is blocked or deleted', () => {
  it('loses access at once with the token they still hold', async () => {
    const other = await buildAdmin(t.db);
    const token = await t.tokenOf(other);
    expect((await t.call('GET', '/stats', { token })).statusCode).toBe(200);
    await t.db.update(users).set({ status: 'blocked' }).where(eq(users.id, other.id));
    const blocked = await t.call('GET', '/stats', { token });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.message).toBe('Your account is blocked.');

    const gone = await buildAdmin(t.db);
    const goneToken = await t.tokenOf(gone);
    expect((await t.call('GET', '/stats', { token: goneToken })).statusCode).toBe(200);
    await t.db.delete(users).where(eq(users.id, gone.id));
    expect((await t.call('GET', '/stats', { token: goneToken })).statusCode).toBe(401);
  });
});
