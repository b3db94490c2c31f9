import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import { passwordToken } from './support/api.ts';
import { saveScreenshot } from './support/browser.ts';
import {
  adminAccessToken,
  api,
  asAdmin,
  asPublisher,
  offerWithLeads,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectPath, expectToast, previewPayoutRun, statValue, uniqueEmail } from './support/ui.ts';

/**
 * Issue 27 in a browser: a run is confirmed with one publisher held (no tax form) and said so in
 * the preview; the paid publisher sees "In a run, not yet paid"; the admin marks the run paid;
 * then the publisher's overview and payouts, the admin publisher page, Balances, the payouts
 * list (filtered by status) and the dashboard all say the same figures.
 */

withServerAndBrowser();
let admin: string;
const cleo = { name: 'Trust Cleo', email: uniqueEmail('cleo'), password: 'cleo-pass-123' };
const dan = { name: 'Trust Dan', email: uniqueEmail('dan'), password: 'dan-pass-123' };
let ids: Record<string, string> = {};

beforeAll(async () => {
  admin = await adminAccessToken();
  // Cleo: $40 + $60 approved, one rejected call that would have paid $40; Dan: $90 approved.
  const offer = { title: 'Trusted Money Calls', vertical: 'Insurance', payout: 40 };
  ids = await offerWithLeads(offer, [
    [
      cleo,
      [
        [40, 'approved'],
        [60, 'approved'],
        [40, 'rejected'],
      ],
    ],
    [dan, [[90, 'approved']]],
  ]);
  for (const who of [cleo, dan]) {
    const token = await passwordToken(server.url, who.email, who.password);
    await api(token, 'PUT', 'publisher/payment-details', {
      method: 'paypal',
      account: who.email,
      holder_name: who.name,
    });
  }
  // Cleo's W-9 is approved by the network; Dan has sent none: his payout waits.
  await api(admin, 'PATCH', `admin/publishers/${ids[cleo.email]}/payment-details`, {
    tax_form_status: 'approved',
  });
});

/**
 * Cleo's overview and payouts (she is signed in) while her $100.00 is in a run not yet paid, or
 * once the run is paid.
 */
async function publisherScreens(page: Page, run: 'recorded' | 'paid') {
  const inRun = run === 'paid' ? '$0.00' : '$100.00';
  await page.getByRole('region', { name: 'Pending Payouts' }).waitFor();
  await expect.poll(() => statValue(page, 'Pending Payouts')).toBe(inRun);
  expect(await statValue(page, 'Total Earnings')).toBe('$100.00');
  await page.getByRole('navigation').getByRole('link', { name: 'Payouts' }).click();
  await expectPath(page, '/dashboard/payouts');
  await page.getByRole('region', { name: 'Owed to you' }).waitFor();
  await expect.poll(() => statValue(page, 'In a run, not yet paid')).toBe(inRun);
  expect(await statValue(page, 'Paid')).toBe(run === 'paid' ? '$100.00' : '$0.00');
  expect(await statValue(page, 'Owed to you')).toBe('$0.00');
  expect(await statValue(page, 'Earned')).toBe('$100.00');
  // The rejected call pays nothing and is said so, never added to a total.
  await page.getByText('1 rejected call, paying $0.00').waitFor();
  const row = page.getByRole('table', { name: 'Payouts' }).getByRole('row').nth(1);
  await row.getByText('$100.00').waitFor();
  await row.getByText(run === 'paid' ? 'Paid' : 'In a run, not yet paid').waitFor();
}

describe('money you can trust, in Chromium', () => {
  it('a run holds who must wait, the publisher sees "In a run", the admin marks it paid, every screen agrees', async () => {
    await asAdmin('trust-admin-run', async (page) => {
      await page.goto(`${server.url}/admin/payouts?tab=balances`);
      const table = page.getByRole('table', { name: 'Balances' });
      await table.getByRole('row', { name: new RegExp(cleo.name) }).waitFor();
      const dialog = await previewPayoutRun(page, [cleo.name, dan.name]);
      await dialog.getByText('1 payout, $100.00 in total').waitFor();
      // Dan is listed with his amount and why he waits, not left out.
      await dialog.getByText('Held: Tax form not approved.').waitFor();
      await dialog.getByText(/1 publisher held \(\s*\$90\.00\)/).waitFor();
      await saveScreenshot(page, 'trust-run-preview-held');
      expect(await seriousAxeProblems(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Confirm run' }).click();
      await expectToast(page, 'Payout run recorded', '1 payout, $100.00.');
      await dialog.waitFor({ state: 'hidden' });
      const runRow = page.getByRole('table', { name: 'Payout runs' }).getByRole('row').nth(1);
      await runRow.getByText('Recorded, not yet paid').waitFor();
    });

    await asPublisher(cleo, 'trust-publisher-recorded', async (page) => {
      await publisherScreens(page, 'recorded');
      await page.goto(`${server.url}/dashboard`);
      await page.getByText('$100.00 in a run, not yet paid').waitFor();
      await saveScreenshot(page, 'trust-publisher-overview-recorded');
    });

    await asAdmin('trust-admin-paid', async (page) => {
      await page.goto(`${server.url}/admin/payouts?tab=runs`);
      const runRow = page.getByRole('table', { name: 'Payout runs' }).getByRole('row').nth(1);
      await runRow.getByRole('button', { name: 'Mark paid' }).click();
      const modal = page.getByRole('dialog', { name: 'Mark the run paid' });
      await modal.getByRole('textbox', { name: 'Payment reference' }).fill('PAYPAL-BATCH-42');
      await modal.getByRole('button', { name: 'Mark paid' }).click();
      await expectToast(page, 'Run marked paid', 'Reference PAYPAL-BATCH-42.');
      await runRow.getByText('Paid', { exact: true }).waitFor();

      // The payouts list: a status column, and the filter finds the paid payout.
      await page.getByRole('tab', { name: 'Payouts' }).click();
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Paid', exact: true }).click();
      const paidRow = page
        .getByRole('table', { name: 'Payouts' })
        .getByRole('row', { name: new RegExp(cleo.name) });
      await paidRow.getByText('Ref. PAYPAL-BATCH-42').waitFor();
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'In a run, not yet paid' }).click();
      await page.getByText('No payouts match these filters.').waitFor();

      // The publisher page: the same five figures, and Dan's page says what holds him.
      await page.goto(`${server.url}/admin/publishers/${ids[cleo.email]}`);
      await page.getByRole('region', { name: 'Paid', exact: true }).waitFor();
      await expect.poll(() => statValue(page, 'Paid')).toBe('$100.00');
      expect(await statValue(page, 'In a run, not yet paid')).toBe('$0.00');
      expect(await statValue(page, 'Earned')).toBe('$100.00');
      await page.goto(`${server.url}/admin/publishers/${ids[dan.email]}`);
      const holds = page.getByRole('region', { name: 'Payout holds' });
      await holds.getByText('Tax form not approved').waitFor();
      await saveScreenshot(page, 'trust-admin-publisher-held');
      expect(await seriousAxeProblems(page)).toEqual([]);

      // The dashboard: Total Payouts is what was marked paid.
      await page.goto(`${server.url}/admin`);
      await page.getByRole('link', { name: /Total Payouts/ }).waitFor();
      await expect
        .poll(() =>
          page
            .getByRole('link', { name: /Total Payouts/ })
            .getByTestId('stat-value')
            .textContent(),
        )
        .toBe('$100.00');
    });

    await asPublisher(cleo, 'trust-publisher-paid', async (page) => {
      await publisherScreens(page, 'paid');
      await saveScreenshot(page, 'trust-publisher-payouts-paid');
    });
  }, 240_000);
});
