import { beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import { E2E_ADMIN } from './support/server.ts';
import {
  adminApi,
  approvedPublisher,
  asUser,
  integrationKey,
  postTrackerCall,
  seedingAdminToken,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectToast, pickOption, uniqueEmail } from './support/ui.ts';

// Issue 13, item 4 in a browser: the admin sets an offer's call rules and one publisher's own
// payout on the offer form; the publisher reads them on the offer card; a posted call that is
// too short is refused with the reason.
withServerAndBrowser();
const publisher = {
  email: uniqueEmail('rules-pub'),
  password: 'publisher-pass-1',
  name: 'Rhea Rules',
};
let publisherId: string;

beforeAll(async () => {
  publisherId = await approvedPublisher(await seedingAdminToken(), publisher);
});

describe('offer rules (issue 13)', () => {
  it('the admin sets the rules, the publisher reads them, a short call does not pay', async () => {
    await asUser(E2E_ADMIN.email, E2E_ADMIN.password, 'rules-admin', async (page) => {
      await page.goto('/admin/offers');
      await page.getByRole('button', { name: 'Create Offer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Offer' });
      await dialog.getByRole('textbox', { name: 'Title' }).fill('Solar Rules Inbound');
      await dialog.getByRole('combobox', { name: 'Vertical' }).fill('Solar');
      await dialog.getByRole('textbox', { name: 'Payout' }).fill('30');
      await dialog.getByRole('textbox', { name: 'Billable duration (seconds)' }).fill('90');
      await dialog.getByRole('textbox', { name: 'Daily cap', exact: true }).fill('200');
      await dialog.getByLabel('Allowed states').click();
      await dialog.getByLabel('Allowed states').fill('Calif');
      await page.getByRole('option', { name: 'CA: California' }).click();
      await dialog.getByRole('switch', { name: 'Pay only calls within open hours' }).check();
      await pickOption(dialog, 'Time zone of the open hours', 'America/New_York', 'America/New_Y');
      await dialog
        .getByTestId('open-hours-preview')
        .getByText('Calls pay Mon–Fri 09:00–17:00 (America/New_York).')
        .waitFor();
      await dialog.getByRole('button', { name: 'Add publisher payout' }).click();
      await pickOption(dialog, 'Publisher 1', new RegExp(publisher.name), 'Rhea');
      await dialog.getByRole('textbox', { name: 'Payout', exact: true }).nth(1).fill('42.5');
      await saveScreenshot(page, 'offer-rules-form');
      await dialog.getByRole('button', { name: 'Create Offer' }).click();
      await expectToast(page, 'Offer Created');
    });

    const offers = await adminApi<{
      items: { id: string; rules: unknown; payout_overrides: unknown }[];
    }>('GET', '/offers?q=Solar%20Rules');
    const offer = offers.items[0]!;
    expect(offer.rules).toEqual({
      buffer_seconds: 90,
      duplicate_days: null,
      daily_cap: 200,
      monthly_cap: null,
      publisher_daily_cap: null,
      publisher_monthly_cap: null,
      allowed_states: ['CA'],
      open_hours: {
        time_zone: 'America/New_York',
        days: [1, 2, 3, 4, 5],
        from: '09:00',
        to: '17:00',
      },
    });
    expect(offer.payout_overrides).toMatchObject([{ publisher_id: publisherId, payout: 42.5 }]);

    await asUser(publisher.email, publisher.password, 'rules-publisher', async (page) => {
      await page.goto('/dashboard/offers');
      const card = page.getByTestId('offer-card').filter({ hasText: 'Solar Rules Inbound' });
      await card.waitFor();
      await card.getByText('Your payout').waitFor();
      await card.getByText('$42.50').waitFor();
      await card.getByText('Standard payout $30.00').waitFor();
      const rules = await card.getByTestId('offer-rules').getByRole('listitem').allTextContents();
      expect(rules).toEqual([
        'Billable after: 1 min 30 s (shorter calls do not pay)',
        'Offer caps: 200 a day',
        'States: CA',
        'Open hours: Mon–Fri 09:00–17:00 (America/New_York)',
      ]);
      await saveScreenshot(page, 'offer-rules-card');
    });

    // A call of 41 s on a Tuesday at 10:00 in New York, from California: too short.
    const answer = await postTrackerCall(await integrationKey('Rules tracker'), {
      call_id: 'RULES-1',
      publisher: publisherId,
      offer: offer.id,
      duration: 41,
      state: 'CA',
      payout: 20,
      timestamp: '2026-11-24T15:00:00Z',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('rejected');
  });
});
