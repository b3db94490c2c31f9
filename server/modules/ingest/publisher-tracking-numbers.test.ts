import { describe, expect, it } from 'vitest';
import type { PublisherOfferList } from '../../../contract/publisher.ts';
import { offerApplications, trackingNumbers } from '../../db/schema.ts';
import { fileTestApp } from '../../test/build-test-app.ts';
import { buildOffer, buildPublisher, signedIn, tokenFor } from '../../test/factories.ts';

/**
 * Issue 26, item 3: a publisher sees the tracking numbers the network assigned to them, on each
 * offer they were approved for, and never another publisher's.
 */

const t = fileTestApp(async (app) => ({
  ann: await signedIn(app, buildPublisher(app.db, { name: 'Ann Numbers' })),
  bob: await buildPublisher(app.db, { name: 'Bob Numbers' }),
}));

const offersOf = async (token: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/publisher/offers?page_size=100',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as PublisherOfferList).items;
};

describe("the publisher's offers", () => {
  it('show their own numbers on approved offers only', async () => {
    const approved = await buildOffer(t.db, { title: 'Approved Solar' });
    const pending = await buildOffer(t.db, { title: 'Pending Medicare' });
    const rejected = await buildOffer(t.db, { title: 'Rejected Auto' });
    const untouched = await buildOffer(t.db, { title: 'Untouched Pest' });
    await t.db.insert(offerApplications).values([
      { offerId: approved.id, publisherId: t.ann.id, status: 'approved' },
      { offerId: pending.id, publisherId: t.ann.id, status: 'pending' },
      { offerId: rejected.id, publisherId: t.ann.id, status: 'rejected' },
      { offerId: approved.id, publisherId: t.bob.id, status: 'approved' },
    ]);
    await t.db.insert(trackingNumbers).values([
      { number: '+18665550101', publisherId: t.ann.id, offerId: approved.id },
      {
        number: '+18665550102',
        publisherId: t.ann.id,
        offerId: approved.id,
        createdAt: new Date(Date.now() + 1000),
      },
      { number: '+18665550103', publisherId: t.ann.id, offerId: pending.id },
      { number: '+18665550104', publisherId: t.ann.id, offerId: rejected.id },
      { number: '+18665550105', publisherId: t.bob.id, offerId: approved.id },
      { number: '+18665550106', publisherId: t.bob.id, offerId: untouched.id },
    ]);

    const byTitle = new Map((await offersOf(t.ann.token)).map((o) => [o.title, o]));
    // Newest first.
    expect(byTitle.get('Approved Solar')?.tracking_numbers).toEqual([
      '+18665550102',
      '+18665550101',
    ]);
    expect(byTitle.get('Pending Medicare')?.tracking_numbers).toEqual([]);
    expect(byTitle.get('Rejected Auto')?.tracking_numbers).toEqual([]);
    expect(byTitle.get('Untouched Pest')?.tracking_numbers).toEqual([]);

    const bobToken = await tokenFor(t.db, t.config.jwtSecret, t.bob);
    const bobs = new Map((await offersOf(bobToken)).map((o) => [o.title, o]));
    expect(bobs.get('Approved Solar')?.tracking_numbers).toEqual(['+18665550105']);
    // Bob never applied to Untouched Pest: its number stays hidden until he is approved.
    expect(bobs.get('Untouched Pest')?.tracking_numbers).toEqual([]);
  });
});
