import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_BATCH } from '../../db/csv.ts';
import { auditLog, leads, payouts } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';

const t = fileAdminTest();
let pub: TestUser;
let other: TestUser;
let offerA: Awaited<ReturnType<typeof buildOffer>>;
let offerB: Awaited<ReturnType<typeof buildOffer>>;

beforeAll(async () => {
  pub = await buildPublisher(t.db, { name: 'Lead Larry' });
  other = await buildPublisher(t.db, { name: 'Other Olga' });
  offerA = await buildOffer(t.db, { title: 'Offer A', payout: '12.50' });
  offerB = await buildOffer(t.db, { title: 'Offer B', payout: '40.00' });
  await t.db.insert(leads).values([
    {
      publisherId: pub.id,
      offerId: offerA.id,
      payout: '12.50',
      status: 'approved',
      callDuration: 3,
      timestamp: new Date('2024-03-01T10:00:00Z'),
    },
    {
      publisherId: pub.id,
      offerId: offerB.id,
      payout: '40.00',
      status: 'pending',
      callDuration: 12,
      timestamp: new Date('2024-03-02T23:59:59Z'),
    },
    {
      publisherId: other.id,
      offerId: offerA.id,
      payout: '0.10',
      status: 'rejected',
      callDuration: 1,
      timestamp: new Date('2024-03-03T00:00:00Z'),
    },
  ]);
});

describe('GET /admin/leads', () => {
  it('lists leads with publisher name and offer title, newest first, money as numbers', async () => {
    const res = await t.call('GET', '/leads', { query: { from: '2024-03-01', to: '2024-03-03' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.items.map((l: { payout: number }) => l.payout)).toEqual([0.1, 40, 12.5]);
    expect(body.items[1]).toMatchObject({
      publisher_id: pub.id,
      publisher_name: 'Lead Larry',
      publisher_email: pub.email,
      offer_id: offerB.id,
      offer_title: 'Offer B',
      status: 'pending',
      call_duration: 12,
      timestamp: '2024-03-02T23:59:59.000Z',
    });
  });

  it('filters by status, publisher, offer and date range (a date covers its whole day)', async () => {
    const q = (query: Record<string, string>) =>
      t.call('GET', '/leads', { query: { from: '2024-03-01', to: '2024-03-03', ...query } });
    expect((await q({ status: 'approved' })).json().total).toBe(1);
    expect((await q({ publisher_id: other.id })).json().items[0].publisher_name).toBe('Other Olga');
    expect((await q({ offer_id: offerA.id })).json().total).toBe(2);
    const day2 = await t.call('GET', '/leads', { query: { from: '2024-03-02', to: '2024-03-02' } });
    expect(day2.json().items.map((l: { offer_title: string }) => l.offer_title)).toEqual([
      'Offer B',
    ]);
    const exact = await t.call('GET', '/leads', {
      query: { from: '2024-03-01T10:00:00Z', to: '2024-03-01T10:00:00Z' },
    });
    expect(exact.json().total).toBe(1);
  });

  it('sorts by payout and call duration both ways and pages', async () => {
    const base = { from: '2024-03-01', to: '2024-03-03' };
    const byPayout = await t.call('GET', '/leads', {
      query: { ...base, sort: 'payout', order: 'asc' },
    });
    expect(byPayout.json().items.map((l: { payout: number }) => l.payout)).toEqual([0.1, 12.5, 40]);
    const byDuration = await t.call('GET', '/leads', {
      query: { ...base, sort: 'call_duration', order: 'desc' },
    });
    expect(byDuration.json().items.map((l: { call_duration: number }) => l.call_duration)).toEqual([
      12, 3, 1,
    ]);
    const page2 = await t.call('GET', '/leads', { query: { ...base, page: '2', page_size: '2' } });
    expect(page2.json()).toMatchObject({
      total: 3,
      total_exact: true,
      page: 2,
      page_size: 2,
      next_cursor: null,
    });
    expect(page2.json().items).toHaveLength(1);
  });

  it('answers bad filters with a 400', async () => {
    const bad: Record<string, string>[] = [
      { status: 'won' },
      { publisher_id: 'nope' },
      { from: '03/01/2024' },
      { to: '2024-13-01' },
      { sort: 'publisher_email' },
      { page_size: '1000' },
    ];
    for (const query of bad) {
      const res = await t.call('GET', '/leads', { query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });
});

describe('POST /admin/leads', () => {
  it("records a lead with the offer's payout by default, pending, now, and audits it", async () => {
    const res = await t.call('POST', '/leads', {
      body: { publisher_id: pub.id, offer_id: offerB.id, call_duration: 7 },
    });
    expect(res.statusCode).toBe(201);
    const lead = res.json();
    expect(lead).toMatchObject({ payout: 40, status: 'pending', call_duration: 7 });
    expect(Math.abs(Date.parse(lead.timestamp) - Date.now())).toBeLessThan(60_000);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, lead.id));
    expect(audit).toMatchObject({
      action: 'lead.create',
      after: expect.objectContaining({ payout: 40 }),
    });
  });

  it('takes a given payout, status and timestamp', async () => {
    const res = await t.call('POST', '/leads', {
      body: {
        publisher_id: other.id,
        offer_id: offerA.id,
        payout: 9.99,
        status: 'approved',
        timestamp: '2024-02-10T08:30:00.000Z',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      payout: 9.99,
      status: 'approved',
      timestamp: '2024-02-10T08:30:00.000Z',
      call_duration: 0,
    });
  });

  it('refuses every invalid input with a 400 naming the field', async () => {
    const buyer = await buildBuyer(t.db);
    const ok = { publisher_id: pub.id, offer_id: offerA.id };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ offer_id: offerA.id }, 'publisher_id', 'Please select a publisher.'],
      [{ publisher_id: pub.id }, 'offer_id', 'Please select an offer.'],
      [{ ...ok, publisher_id: buyer.id }, 'publisher_id', 'The selected publisher does not exist.'],
      [{ ...ok, offer_id: crypto.randomUUID() }, 'offer_id', 'The selected offer does not exist.'],
      [{ ...ok, payout: -5 }, 'payout', 'Payout cannot be negative.'],
      [{ ...ok, payout: 1.234 }, 'payout', 'at most two decimals'],
      [{ ...ok, call_duration: 2.5 }, 'call_duration', 'whole number of minutes'],
      [{ ...ok, call_duration: -1 }, 'call_duration', 'cannot be negative'],
      [{ ...ok, status: 'won' }, 'status', ''],
      [{ ...ok, timestamp: 'yesterday' }, 'timestamp', 'ISO date-time'],
      [
        { ...ok, timestamp: new Date(Date.now() + 86_400_000).toISOString() },
        'timestamp',
        'A lead cannot be dated in the future.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.call('POST', '/leads', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details?.[field]?.join(' '), JSON.stringify(body)).toContain(message);
    }
  });
});

describe('PATCH /admin/leads/:id', () => {
  it('changes the status and audits it; the same status changes nothing', async () => {
    const [lead] = await t.db
      .insert(leads)
      .values({ publisherId: pub.id, offerId: offerA.id, payout: '1.00' })
      .returning();
    const res = await t.call('PATCH', `/leads/${lead!.id}`, {
      body: { status: 'approved', reason: 'reviewed_recording' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: lead!.id, status: 'approved', offer_title: 'Offer A' });
    const same = await t.call('PATCH', `/leads/${lead!.id}`, {
      body: { status: 'approved', reason: 'reviewed_recording' },
    });
    expect(same.statusCode).toBe(200);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityId, lead!.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      action: 'lead.status',
      before: { status: 'pending', status_reason: null },
      after: { status: 'approved', status_reason: 'Recording reviewed' },
    });
    expect(
      (
        await t.call('PATCH', `/leads/${lead!.id}`, {
          body: { status: 'paid', reason: 'reviewed_recording' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.call('PATCH', `/leads/${crypto.randomUUID()}`, {
          body: { status: 'approved', reason: 'reviewed_recording' },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('payouts', () => {
  it('records a payout dated now for an approved publisher, amount as a number, audited', async () => {
    const res = await t.call('POST', '/payouts', {
      body: { publisher_id: pub.id, amount: 150.1, notes: '  March  ' },
    });
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({
      publisher_id: pub.id,
      publisher_name: 'Lead Larry',
      amount: 150.1,
      notes: 'March',
    });
    expect(Math.abs(Date.parse(p.date) - Date.now())).toBeLessThan(60_000);
    const [row] = await t.db.select().from(payouts).where(eq(payouts.id, p.id));
    expect(row).toMatchObject({ amount: '150.10', createdBy: t.admin.id });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, p.id));
    expect(audit).toMatchObject({
      action: 'payout.create',
      actorEmail: t.admin.email,
      after: { publisher_id: pub.id, amount: 150.1, notes: 'March' },
    });
  });

  it('also pays a legacy active publisher', async () => {
    const legacy = await buildPublisher(t.db, { status: 'active' });
    const res = await t.call('POST', '/payouts', { body: { publisher_id: legacy.id, amount: 1 } });
    expect(res.statusCode).toBe(201);
    expect(res.json().notes).toBeNull();
  });

  it('refuses pending or blocked publishers (409) and invalid input (400)', async () => {
    for (const status of ['pending', 'blocked'] as const) {
      const p = await buildPublisher(t.db, { status });
      const res = await t.call('POST', '/payouts', { body: { publisher_id: p.id, amount: 10 } });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe(
        `Payouts can only be recorded for approved publishers; this publisher is ${status}.`,
      );
    }
    const buyer = await buildBuyer(t.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: 10 }, 'publisher_id', 'Please select a publisher.'],
      [{ publisher_id: '', amount: 10 }, 'publisher_id', 'Please select a publisher.'],
      [{ publisher_id: pub.id }, 'amount', 'Amount is required.'],
      [{ publisher_id: pub.id, amount: 0 }, 'amount', 'Amount must be greater than 0.'],
      [{ publisher_id: pub.id, amount: -3 }, 'amount', 'Amount must be greater than 0.'],
      [{ publisher_id: pub.id, amount: 10.005 }, 'amount', 'at most two decimals'],
      [{ publisher_id: pub.id, amount: '10' }, 'amount', 'Amount must be a number'],
      [{ publisher_id: pub.id, amount: 1, notes: 'x'.repeat(2001) }, 'notes', 'at most 2000'],
      [{ publisher_id: buyer.id, amount: 1 }, 'publisher_id', 'does not exist'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.call('POST', '/payouts', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details?.[field]?.join(' '), JSON.stringify(body)).toContain(message);
    }
  });

  it('lists payouts with publisher name, newest first; filters, sorts and pages', async () => {
    await t.db.insert(payouts).values([
      { publisherId: other.id, amount: '5.55', date: new Date('2024-01-05T12:00:00Z') },
      { publisherId: other.id, amount: '99.99', date: new Date('2024-01-06T12:00:00Z') },
    ]);
    const res = await t.call('GET', '/payouts', { query: { publisher_id: other.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((p: { amount: number }) => p.amount)).toEqual([99.99, 5.55]);
    expect(res.json().items[0].publisher_name).toBe('Other Olga');
    const byAmount = await t.call('GET', '/payouts', {
      query: { publisher_id: other.id, sort: 'amount', order: 'asc' },
    });
    expect(byAmount.json().items.map((p: { amount: number }) => p.amount)).toEqual([5.55, 99.99]);
    const jan5 = await t.call('GET', '/payouts', {
      query: { from: '2024-01-05', to: '2024-01-05' },
    });
    expect(jan5.json().items.map((p: { amount: number }) => p.amount)).toEqual([5.55]);
    const paged = await t.call('GET', '/payouts', {
      query: { publisher_id: other.id, page_size: '1' },
    });
    expect(paged.json()).toMatchObject({ total: 2, total_exact: true, page_size: 1 });
    // The first of two pages points at the second.
    expect(paged.json().next_cursor).toEqual(expect.any(String));
    expect((await t.call('GET', '/payouts', { query: { sort: 'notes' } })).statusCode).toBe(400);
  });
});

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF) for the assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('CSV exports', () => {
  it('exports the filtered leads as CSV with download headers', async () => {
    const res = await t.call('GET', '/leads.csv', {
      query: { from: '2024-03-01', to: '2024-03-03', sort: 'payout', order: 'asc' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(res.body);
    expect(rows[0]!.join(',')).toBe(
      'id,timestamp,publisher_name,publisher_email,offer,status,call_duration_min,payout,would_have_paid',
    );
    // The rejected lead pays 0.00; what it would have paid is in its own column.
    expect(rows.slice(1).map((r) => [r[7], r[8]])).toEqual([
      ['0.00', '0.10'],
      ['12.50', ''],
      ['40.00', ''],
    ]);
    expect(rows[2]!.slice(1)).toEqual([
      '2024-03-01T10:00:00.000Z',
      'Lead Larry',
      pub.email,
      'Offer A',
      'approved',
      '3',
      '12.50',
      '',
    ]);
    const filtered = await t.call('GET', '/leads.csv', {
      query: { publisher_id: other.id, status: 'rejected' },
    });
    expect(parseCsv(filtered.body)).toHaveLength(2);
    expect((await t.call('GET', '/leads.csv', { query: { status: 'won' } })).statusCode).toBe(400);
  });

  it('quotes commas, quotes and line breaks, and neutralises formulas', async () => {
    const evil = await buildPublisher(t.db, { name: '=HYPERLINK("http://x","a, b")' });
    const offer = await buildOffer(t.db, { title: 'Line\nbreak "quoted"' });
    await t.db.insert(leads).values({
      publisherId: evil.id,
      offerId: offer.id,
      payout: '1.00',
      timestamp: new Date('2023-01-01T00:00:00Z'),
    });
    await t.db.insert(payouts).values({ publisherId: evil.id, amount: '2.00', notes: '@SUM(A1)' });
    await t.db.insert(payouts).values({ publisherId: evil.id, amount: '3.00', notes: '-1+2' });
    const res = await t.call('GET', '/leads.csv', { query: { publisher_id: evil.id } });
    expect(res.body).toContain('"\'=HYPERLINK(""http://x"",""a, b"")"');
    const [, row] = parseCsv(res.body);
    expect(row![2]).toBe('\'=HYPERLINK("http://x","a, b")');
    expect(row![4]).toBe('Line\nbreak "quoted"');

    const pay = await t.call('GET', '/payouts.csv', { query: { publisher_id: evil.id } });
    expect(pay.statusCode).toBe(200);
    expect(pay.headers['content-disposition']).toMatch(/filename="payouts-.*\.csv"/);
    const rows = parseCsv(pay.body);
    expect(rows[0]!.join(',')).toBe(
      'id,date,publisher_name,publisher_email,amount,status,reference,notes',
    );
    const column = (i: number) => rows.slice(1).map((r) => r[i]);
    expect(column(7).sort()).toEqual(["'-1+2", "'@SUM(A1)"]);
    expect(column(5)).toEqual(['recorded', 'recorded']);
    expect(column(4).sort()).toEqual(['2.00', '3.00']);
  });

  it('streams more rows than one batch without losing or repeating any', async () => {
    const bulk = await buildPublisher(t.db, { name: 'Bulk Bob' });
    const n = CSV_BATCH * 2 + 17;
    // Same timestamp for half of them: the cursor must still move past ties.
    const tie = new Date('2022-06-01T00:00:00.123456Z');
    await t.db.insert(leads).values(
      Array.from({ length: n }, (_, i) => ({
        publisherId: bulk.id,
        offerId: offerA.id,
        payout: `${(i % 50) + 1}.00`,
        timestamp: i % 2 ? tie : new Date(Date.UTC(2022, 0, 1, 0, 0, i)),
      })),
    );
    for (const sort of ['timestamp', 'payout']) {
      const res = await t.call('GET', '/leads.csv', {
        query: { publisher_id: bulk.id, sort, order: 'desc' },
      });
      const rows = parseCsv(res.body).slice(1);
      expect(rows).toHaveLength(n);
      expect(new Set(rows.map((r) => r[0])).size).toBe(n);
    }
  });
});
