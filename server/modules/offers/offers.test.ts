import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, leads, offerApplications, offers } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher } from '../../test/factories.ts';

const t = fileAdminTest();

const valid = { title: 'Auto Insurance', vertical: 'Insurance', payout: 35.5 };

describe('POST /admin/offers', () => {
  it('creates an active offer by default with payout as a JSON number, and audits it', async () => {
    const res = await t.call('POST', '/offers', {
      body: { ...valid, script_instructions: 'Ask for the ZIP code.' },
    });
    expect(res.statusCode).toBe(201);
    const o = res.json();
    expect(o).toMatchObject({
      title: 'Auto Insurance',
      vertical: 'Insurance',
      payout: 35.5,
      status: 'active',
      script_instructions: 'Ask for the ZIP code.',
    });
    expect(typeof o.payout).toBe('number');
    expect(new Date(o.created_at).toISOString()).toBe(o.created_at);
    const [row] = await t.db.select().from(offers).where(eq(offers.id, o.id));
    expect(row!.payout).toBe('35.50');
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, o.id));
    expect(audit).toMatchObject({
      action: 'offer.create',
      actorEmail: t.admin.email,
      before: null,
      after: expect.objectContaining({ title: 'Auto Insurance', payout: 35.5 }),
    });
  });

  it('keeps cents exact (0.1 + 0.2 stays 0.30 in the database)', async () => {
    const res = await t.call('POST', '/offers', { body: { ...valid, payout: 0.3 } });
    expect(res.json().payout).toBe(0.3);
    const inactive = await t.call('POST', '/offers', {
      body: { ...valid, payout: 0, status: 'inactive' },
    });
    expect(inactive.statusCode).toBe(201);
    expect(inactive.json()).toMatchObject({ payout: 0, status: 'inactive' });
  });

  it('answers each invalid field with a 400 and a message a person understands', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ vertical: 'X', payout: 1 }, 'title', 'Title is required.'],
      [{ ...valid, title: '   ' }, 'title', 'Title is required.'],
      [{ title: 'X', payout: 1 }, 'vertical', 'Vertical is required.'],
      [{ title: 'X', vertical: 'Y' }, 'payout', 'Payout is required.'],
      [{ ...valid, payout: '12' }, 'payout', 'Payout must be a number'],
      [{ ...valid, payout: -1 }, 'payout', 'Payout cannot be negative.'],
      [{ ...valid, payout: 12.345 }, 'payout', 'Payout can have at most two decimals (cents).'],
      [{ ...valid, payout: 1e11 }, 'payout', 'Payout is too large.'],
      [{ ...valid, status: 'paused' }, 'status', ''],
      [{ ...valid, title: 'x'.repeat(201) }, 'title', 'Title can be at most 200 characters.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.call('POST', '/offers', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const err = res.json().error;
      expect(err.code).toBe('validation_failed');
      expect(err.details[field]?.join(' ')).toContain(message);
      expect(err.message).toContain(field);
    }
  });

  it('answers a body that is not JSON with a 400', async () => {
    const res = await t.call('POST', '/offers', {
      body: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /admin/offers', () => {
  it('lists every status, filters, searches, sorts and pages', async () => {
    await buildOffer(t.db, { title: 'Solar Leads', vertical: 'Solar', payout: '80.00' });
    await buildOffer(t.db, {
      title: 'Old Solar',
      vertical: 'Solar',
      payout: '10.00',
      status: 'inactive',
    });
    const solar = await t.call('GET', '/offers', { query: { vertical: 'solar' } });
    expect(solar.statusCode).toBe(200);
    expect(solar.json().total).toBe(2);
    const inactive = await t.call('GET', '/offers', {
      query: { vertical: 'Solar', status: 'inactive' },
    });
    expect(inactive.json().items.map((o: { title: string }) => o.title)).toEqual(['Old Solar']);
    const byPayout = await t.call('GET', '/offers', {
      query: { q: 'solar', sort: 'payout', order: 'asc' },
    });
    expect(byPayout.json().items.map((o: { payout: number }) => o.payout)).toEqual([10, 80]);
    const paged = await t.call('GET', '/offers', {
      query: { page_size: '1', page: '2', q: 'solar' },
    });
    expect(paged.json()).toMatchObject({ total: 2, page: 2, page_size: 1 });
    expect(paged.json().items).toHaveLength(1);
  });
});

describe('PATCH /admin/offers/:id', () => {
  it('changes only the given fields and audits before → after', async () => {
    const o = await buildOffer(t.db, { title: 'Before', payout: '20.00' });
    const res = await t.call('PATCH', `/offers/${o.id}`, {
      body: { payout: 22.25, status: 'inactive' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Before', payout: 22.25, status: 'inactive' });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, o.id));
    expect(audit).toMatchObject({
      action: 'offer.update',
      before: expect.objectContaining({ payout: 20, status: 'active' }),
      after: expect.objectContaining({ payout: 22.25, status: 'inactive' }),
    });
    const cleared = await t.call('PATCH', `/offers/${o.id}`, {
      body: { script_instructions: null },
    });
    expect(cleared.json().script_instructions).toBeNull();
  });

  it('refuses an empty change, an invalid value, and an unknown offer', async () => {
    const o = await buildOffer(t.db);
    const empty = await t.call('PATCH', `/offers/${o.id}`, { body: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toContain('Nothing to change.');
    const blank = await t.call('PATCH', `/offers/${o.id}`, { body: { title: '' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.details.title).toEqual(['Title is required.']);
    const cents = await t.call('PATCH', `/offers/${o.id}`, { body: { payout: 1.001 } });
    expect(cents.statusCode).toBe(400);
    const missing = await t.call('PATCH', `/offers/${crypto.randomUUID()}`, {
      body: { title: 'X' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Offer not found.');
  });
});

describe('DELETE /admin/offers/:id', () => {
  it('deletes an unused offer (204) and audits it', async () => {
    const o = await buildOffer(t.db);
    const res = await t.call('DELETE', `/offers/${o.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await t.db.select().from(offers).where(eq(offers.id, o.id))).toHaveLength(0);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, o.id));
    expect(audit).toMatchObject({ action: 'offer.delete', after: null });
    expect((await t.call('DELETE', `/offers/${o.id}`)).statusCode).toBe(404);
  });

  it('refuses an offer with applications or leads with a 409 suggesting to make it inactive', async () => {
    const p = await buildPublisher(t.db);
    const withApp = await buildOffer(t.db);
    await t.db
      .insert(offerApplications)
      .values({ offerId: withApp.id, publisherId: p.id, status: 'pending' });
    const withLead = await buildOffer(t.db);
    await t.db.insert(leads).values({ offerId: withLead.id, publisherId: p.id, payout: '5.00' });
    for (const o of [withApp, withLead]) {
      const res = await t.call('DELETE', `/offers/${o.id}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe(
        'This offer has applications or leads. Make it inactive instead.',
      );
      expect(await t.db.select().from(offers).where(eq(offers.id, o.id))).toHaveLength(1);
    }
  });
});
