import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrackingNumber, TrackingNumberList } from '../../../contract/integrations.ts';
import { auditLog, trackingNumbers } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';

/**
 * Issue 26, item 3: tracking numbers through the admin API, as an admin would notice them:
 * kept in E.164 whatever the format typed, one pair per number, CSV files all or nothing with
 * the wrong lines named, and only admins may call these routes.
 */

const t = fileAdminTest();
let ann: TestUser;
let bob: TestUser;
let solar: Awaited<ReturnType<typeof buildOffer>>;
let medicare: Awaited<ReturnType<typeof buildOffer>>;

beforeAll(async () => {
  ann = await buildPublisher(t.db, { name: 'Ann Lee', email: 'ann@numbers.example' });
  bob = await buildPublisher(t.db, { name: 'Bob Ray', email: 'bob@numbers.example' });
  solar = await buildOffer(t.db, { title: 'Solar Inbound' });
  medicare = await buildOffer(t.db, { title: 'Medicare Calls' });
});

const add = (number: string, publisher_id = ann.id, offer_id = solar.id) =>
  t.call('POST', '/tracking-numbers', { body: { number, publisher_id, offer_id } });

async function upload(csv: string, filename = 'numbers.csv', token?: string | null) {
  return t.call('POST', '/tracking-numbers/import', {
    multipart: [{ field: 'file', filename, content: Buffer.from(csv), contentType: 'text/csv' }],
    token,
  });
}

const stored = async (number: string) =>
  t.db.select().from(trackingNumbers).where(eq(trackingNumbers.number, number));

describe('one number at a time', () => {
  it('keeps (866) 555-1234 as +18665551234 for the publisher and offer, and audits it', async () => {
    const res = await add('(866) 555-1234');
    expect(res.statusCode).toBe(201);
    const made = res.json() as TrackingNumber;
    expect(made).toMatchObject({
      number: '+18665551234',
      publisher_id: ann.id,
      publisher_name: 'Ann Lee',
      offer_id: solar.id,
      offer_title: 'Solar Inbound',
    });
    const [row] = await stored('+18665551234');
    expect(row).toMatchObject({ publisherId: ann.id, offerId: solar.id, createdBy: t.admin.id });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'tracking_number.create'), eq(auditLog.entityId, ann.id)));
    expect(audit?.after).toMatchObject({ number: '+18665551234', offer_id: solar.id });
  });

  it('refuses the same number in another format, naming who holds it', async () => {
    const res = await add('+1 866-555-1234', bob.id, medicare.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(
      '+18665551234 is already assigned to Ann Lee on Solar Inbound.',
    );
    expect(await stored('+18665551234')).toHaveLength(1);
  });

  it('refuses what is not a phone number with a sentence', async () => {
    const res = await add('12345');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      '"12345" is not a valid phone number (read as a US number when it has no country code).',
    );
    expect(res.json().error.details.number).toHaveLength(1);
  });

  it('refuses a user who is not a publisher and an offer that does not exist', async () => {
    const buyer = await buildBuyer(t.db);
    const notPublisher = await add('(866) 555-0001', buyer.id);
    expect(notPublisher.statusCode).toBe(400);
    expect(notPublisher.json().error.message).toBe('The selected user is not a publisher.');
    const noOffer = await add('(866) 555-0001', ann.id, '00000000-0000-4000-8000-000000000000');
    expect(noOffer.statusCode).toBe(400);
    expect(noOffer.json().error.details.offer_id).toEqual(['The selected offer does not exist.']);
    expect(await stored('+18665550001')).toHaveLength(0);
  });

  it('lists newest first, found by digits in any format, by name, and filtered', async () => {
    expect((await add('818-555-0147', bob.id, medicare.id)).statusCode).toBe(201);
    const list = async (query: Record<string, string> = {}) => {
      const res = await t.call('GET', '/tracking-numbers', { query });
      expect(res.statusCode).toBe(200);
      return res.json() as TrackingNumberList;
    };
    const all = await list();
    expect(all.items.map((n) => n.number)).toEqual(['+18185550147', '+18665551234']);
    expect(all.total).toBe(2);
    expect((await list({ q: '(866) 555-12' })).items.map((n) => n.number)).toEqual([
      '+18665551234',
    ]);
    expect((await list({ q: '+1 818' })).items.map((n) => n.number)).toEqual(['+18185550147']);
    expect((await list({ q: 'medicare' })).items.map((n) => n.number)).toEqual(['+18185550147']);
    expect((await list({ publisher_id: ann.id })).items.map((n) => n.publisher_name)).toEqual([
      'Ann Lee',
    ]);
    expect((await list({ offer_id: medicare.id })).total).toBe(1);
    const paged = await list({ page_size: '1' });
    expect(paged.items).toHaveLength(1);
    const next = await list({ page_size: '1', after: paged.next_cursor! });
    expect(next.items.map((n) => n.number)).toEqual(['+18665551234']);
  });

  it('deletes a number once; a second delete is 404', async () => {
    const made = (await add('(877) 555-0100')).json() as TrackingNumber;
    expect((await t.call('DELETE', `/tracking-numbers/${made.id}`)).statusCode).toBe(204);
    expect(await stored('+18775550100')).toHaveLength(0);
    const again = await t.call('DELETE', `/tracking-numbers/${made.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe('Tracking number not found.');
  });
});

describe('the phone country in Settings', () => {
  it('reads numbers without a country code in that country, and refuses unknown codes', async () => {
    const before = await t.call('GET', '/settings');
    expect(before.json().phone_country).toBe('US');
    const unknown = await t.call('PATCH', '/settings', { body: { phone_country: 'XX' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('Phone country XX is not a country code we know.');

    const gb = await t.call('PATCH', '/settings', { body: { phone_country: 'gb' } });
    expect(gb.statusCode).toBe(200);
    expect(gb.json().phone_country).toBe('GB');
    const res = await add('020 7946 0958');
    expect(res.statusCode).toBe(201);
    expect(res.json().number).toBe('+442079460958');

    await t.call('PATCH', '/settings', { body: { phone_country: 'US' } });
  });
});

describe('a CSV file', () => {
  it('imports nothing when a line is wrong, and names each wrong line', async () => {
    const csv = [
      'number,publisher,offer',
      '(866) 555-2001,ann@numbers.example,Solar Inbound',
      'not a number,ann@numbers.example,Solar Inbound',
      '',
      `866.555.2001,${bob.id},${medicare.id}`,
      '(866) 555-2002,nobody@numbers.example,No Such Offer',
      '(866) 555-1234,BOB@numbers.example,Medicare Calls',
    ].join('\n');
    const res = await upload(csv);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      created: 0,
      errors: [
        {
          line: 3,
          message:
            '"not a number" is not a valid phone number (read as a US number when it has no country code).',
        },
        { line: 5, message: '+18665552001 is also on line 2' },
        {
          line: 6,
          message:
            'No publisher has the id or e-mail "nobody@numbers.example"; no offer is titled "No Such Offer"',
        },
        { line: 7, message: '+18665551234 is already assigned to Ann Lee on Solar Inbound.' },
      ],
    });
    expect(await stored('+18665552001')).toHaveLength(0);
  });

  it('imports every row of a good file: publishers by e-mail or id, offers by title or id', async () => {
    const csv = [
      'Number;Publisher;Offer',
      '(866) 555-3001;ann@numbers.example;Solar Inbound',
      `+1 866 555 3002;${bob.id};${medicare.id}`,
      '18665553003;BOB@NUMBERS.EXAMPLE;Medicare Calls',
    ].join('\r\n');
    const res = await upload(csv);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 3, errors: [] });
    expect((await stored('+18665553001'))[0]).toMatchObject({
      publisherId: ann.id,
      offerId: solar.id,
    });
    expect((await stored('+18665553002'))[0]).toMatchObject({
      publisherId: bob.id,
      offerId: medicare.id,
    });
    expect((await stored('+18665553003'))[0]).toMatchObject({ publisherId: bob.id });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'tracking_number.import'));
    expect(audit?.after).toMatchObject({ filename: 'numbers.csv', created: 3 });
  });

  it('refuses a file without the header, and one of more than 10,000 rows', async () => {
    const noHeader = await upload('(866) 555-4001,ann@numbers.example,Solar Inbound\n');
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().error.message).toBe(
      'The first line must name the columns number, publisher and offer (missing: number, publisher, offer).',
    );
    const rows = Array.from(
      { length: 10_001 },
      (_, i) => `+1866555${String(i).padStart(4, '0')},ann@numbers.example,Solar Inbound`,
    );
    const big = await upload(['number,publisher,offer', ...rows].join('\n'));
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toMatch(/10,001 rows; one import takes at most 10,000/);
    const noFile = await t.call('POST', '/tracking-numbers/import', {
      body: {},
      headers: { 'content-type': 'application/json' },
    });
    expect(noFile.statusCode).toBe(415);
  });
});

describe('who may call these routes', () => {
  it('refuses a publisher and a stranger on every tracking-number route', async () => {
    const publisherToken = await t.tokenOf(ann);
    const made = (await add('(866) 555-5001')).json() as TrackingNumber;
    for (const token of [publisherToken, null]) {
      const calls = [
        t.call('GET', '/tracking-numbers', { token }),
        t.call('POST', '/tracking-numbers', {
          token,
          body: { number: '(866) 555-5002', publisher_id: ann.id, offer_id: solar.id },
        }),
        t.call('DELETE', `/tracking-numbers/${made.id}`, { token }),
        upload(
          'number,publisher,offer\n(866) 555-5003,ann@numbers.example,Solar Inbound\n',
          'numbers.csv',
          token,
        ),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode).toBe(token ? 403 : 401);
      }
    }
    expect(await stored('+18665555001')).toHaveLength(1);
    expect(await stored('+18665555002')).toHaveLength(0);
    expect(await stored('+18665555003')).toHaveLength(0);
  });
});
