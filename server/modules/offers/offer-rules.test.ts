import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { officeHours } from '../../../contract/offer-rules.ts';
import { auditLog } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildBuyer, buildPublisher, type TestUser, tokenFor } from '../../test/factories.ts';

/**
 * The offer's call rules and per-publisher payouts through the admin API, and what publishers
 * see of them on the offer (issue 13, item 4).
 */

let t: AdminTestContext;
let rita: TestUser;
let sam: TestUser;

beforeAll(async () => {
  t = await setupAdminTest();
  rita = await buildPublisher(t.db, { name: 'Rita Rules' });
  sam = await buildPublisher(t.db, { name: 'Sam Standard' });
});
afterAll(() => t.close());

const base = { title: 'Medicare inbound', vertical: 'Medicare', payout: 30 };
const rules = {
  buffer_seconds: 90,
  duplicate_days: 30,
  daily_cap: 200,
  monthly_cap: 5000,
  publisher_daily_cap: 20,
  publisher_monthly_cap: 400,
  allowed_states: ['tx', 'CA', 'CA'],
  open_hours: { time_zone: 'america/new_york', days: [5, 1, 2, 3, 4], from: '09:00', to: '17:00' },
};

/** POST /offers of an offer with `rules` that pays Rita `ritaPayout`. */
const offerPayingRita = (ritaPayout: number, title = base.title) =>
  t.call('POST', '/offers', {
    body: {
      ...base,
      title,
      rules,
      payout_overrides: [{ publisher_id: rita.id, payout: ritaPayout }],
    },
  });

const publisherOffers = async (user: TestUser) => {
  const token = await tokenFor(t.db, t.config.jwtSecret, user);
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/publisher/offers',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json().items as Record<string, unknown>[];
};

describe('offer rules on the admin API', () => {
  it('creates an offer with rules and per-publisher payouts, normalised, and audits them', async () => {
    const res = await offerPayingRita(42.5);
    expect(res.statusCode, res.body).toBe(201);
    const offer = res.json();
    expect(offer.rules).toEqual({
      ...rules,
      allowed_states: ['CA', 'TX'],
      open_hours: { time_zone: 'America/New_York', ...officeHours },
    });
    expect(offer.payout_overrides).toEqual([
      {
        publisher_id: rita.id,
        publisher_name: 'Rita Rules',
        publisher_email: rita.email,
        payout: 42.5,
      },
    ]);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, offer.id));
    expect(audit!.after).toMatchObject({
      rules: { buffer_seconds: 90, daily_cap: 200 },
      payout_overrides: [{ publisher_id: rita.id, payout: 42.5 }],
    });
    // The list answers the same.
    const list = await t.call('GET', '/offers', { query: { q: 'Medicare inbound' } });
    expect(list.json().items[0]).toMatchObject({
      rules: offer.rules,
      payout_overrides: offer.payout_overrides,
    });
  });

  it('answers an offer without rules with empty rules', async () => {
    const res = await t.call('POST', '/offers', { body: { ...base, title: 'Plain' } });
    expect(res.json()).toMatchObject({
      rules: {
        buffer_seconds: null,
        duplicate_days: null,
        daily_cap: null,
        allowed_states: [],
        open_hours: null,
      },
      payout_overrides: [],
    });
  });

  it('replaces rules and payouts on PATCH, and audits before → after', async () => {
    const created = await offerPayingRita(40, 'Changing');
    const id = created.json().id;
    const res = await t.call('PATCH', `/offers/${id}`, {
      body: {
        rules: { buffer_seconds: 60, open_hours: null },
        payout_overrides: [{ publisher_id: sam.id, payout: 25 }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rules).toMatchObject({
      buffer_seconds: 60,
      daily_cap: null,
      allowed_states: [],
      open_hours: null,
    });
    expect(
      res.json().payout_overrides.map((o: { publisher_id: string }) => o.publisher_id),
    ).toEqual([sam.id]);
    // A PATCH of another field keeps them.
    const renamed = await t.call('PATCH', `/offers/${id}`, { body: { title: 'Changed' } });
    expect(renamed.json().rules.buffer_seconds).toBe(60);
    expect(renamed.json().payout_overrides).toHaveLength(1);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityId, id));
    const update = audits.find((a) => a.action === 'offer.update')!;
    expect(update.before).toMatchObject({ rules: { buffer_seconds: 90 } });
    expect(update.after).toMatchObject({ rules: { buffer_seconds: 60 } });
  });

  it('answers each invalid rule with a 400 naming it in a sentence', async () => {
    const buyer = await buildBuyer(t.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { rules: { buffer_seconds: 0 } },
        'rules.buffer_seconds',
        'Billable duration must be at least 1',
      ],
      [
        { rules: { buffer_seconds: 1.5 } },
        'rules.buffer_seconds',
        'Billable duration must be a whole number.',
      ],
      [
        { rules: { duplicate_days: 366 } },
        'rules.duplicate_days',
        'Duplicate window can be at most 365.',
      ],
      [{ rules: { daily_cap: -3 } }, 'rules.daily_cap', 'Daily cap must be at least 1'],
      [
        { rules: { allowed_states: ['ZZ'] } },
        'rules.allowed_states.0',
        'ZZ is not a US state code',
      ],
      [
        {
          rules: {
            open_hours: { time_zone: 'Mars/Olympus', days: [1], from: '09:00', to: '17:00' },
          },
        },
        'rules.open_hours.time_zone',
        '"Mars/Olympus" is not a time zone',
      ],
      [
        { rules: { open_hours: { time_zone: 'UTC', days: [], from: '09:00', to: '17:00' } } },
        'rules.open_hours.days',
        'Choose at least one open day.',
      ],
      [
        { rules: { open_hours: { time_zone: 'UTC', days: [1], from: '9am', to: '17:00' } } },
        'rules.open_hours.from',
        'Opening time must be a time like 09:00.',
      ],
      [
        {
          payout_overrides: [
            { publisher_id: rita.id, payout: 1 },
            { publisher_id: rita.id, payout: 2 },
          ],
        },
        'payout_overrides',
        'A publisher can have only one payout on an offer.',
      ],
      [
        { payout_overrides: [{ publisher_id: rita.id, payout: -1 }] },
        'payout_overrides.0.payout',
        'Payout cannot be negative.',
      ],
    ];
    for (const [over, field, message] of cases) {
      const res = await t.call('POST', '/offers', { body: { ...base, ...over } });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      const details = res.json().error.details as Record<string, string[]>;
      expect(details[field]?.[0], `${field}: ${JSON.stringify(details)}`).toContain(message);
    }
    // Someone who is not a publisher.
    const notPub = await t.call('POST', '/offers', {
      body: { ...base, payout_overrides: [{ publisher_id: buyer.id, payout: 5 }] },
    });
    expect(notPub.statusCode).toBe(400);
    expect(notPub.json().error.message).toContain('choose publishers from the list');
  });
});

describe('what publishers see', () => {
  it('shows the rules on the offer, and each publisher only their own payout', async () => {
    const res = await offerPayingRita(42.5, 'Shown to publishers');
    const id = res.json().id;
    const forRita = (await publisherOffers(rita)).find((o) => o.id === id)!;
    expect(forRita).toMatchObject({ payout: 30, your_payout: 42.5, rules: res.json().rules });
    expect(forRita).not.toHaveProperty('payout_overrides');
    const forSam = (await publisherOffers(sam)).find((o) => o.id === id)!;
    expect(forSam).toMatchObject({ payout: 30, your_payout: null });
    expect(JSON.stringify(forSam)).not.toContain('42.5');
  });
});
