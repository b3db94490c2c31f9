import { describe, expect, it } from 'vitest';
import { authHeaders, passwordToken } from './support/api.ts';
import { saveScreenshot } from './support/browser.ts';
import { findLink, waitForMail } from './support/mailbox.ts';
import {
  adminApi,
  api,
  approvedPublisher,
  asAdmin,
  asUser,
  createOffer,
  recordLeads,
  seedingAdminToken,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { cellsUnder, expectToast, uniqueEmail } from './support/ui.ts';

/**
 * Issue 34 items 4 and 6 in Chromium: a buyer edits a campaign's budget and dates (a negative
 * budget refused), and the admin's report over the last 30 days says "new" where the previous
 * period had nothing.
 */

withServerAndBrowser();

const desk = { width: 1280, height: 800 };

/** A buyer signed up through /auth/v1 and confirmed by the mail's link. */
async function confirmedBuyer(email: string, password: string) {
  const res = await fetch(`${server.url}/auth/v1/signup`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({
      email,
      password,
      data: { full_name: 'Edna Edits', company_name: 'Edits Inc', role: 'buyer' },
    }),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  const mail = await waitForMail(server.url, email, /confirm/i);
  await fetch(findLink(mail, '/auth/v1/verify'), { redirect: 'manual' });
}

describe('data edges in Chromium (issue 34)', () => {
  it('a buyer edits the budget and dates of a campaign; a negative budget is refused', async () => {
    const email = uniqueEmail('edit-buyer');
    const password = 'buyer-pass-1';
    await confirmedBuyer(email, password);
    const token = await passwordToken(server.url, email, password);
    await api(token, 'POST', 'buyer/campaigns', {
      name: 'Editable push',
      budget: 500,
      start_date: '2030-09-03',
      end_date: '2030-09-15',
    });
    await asUser(
      email,
      password,
      'buyer-edit-campaign',
      async (page) => {
        await page.goto('/buyer-dashboard/campaigns');
        const table = page.getByRole('table', { name: 'Your Campaigns' });
        const row = table.locator('tbody tr').filter({ hasText: 'Editable push' });
        await row.waitFor();
        await row.getByRole('button', { name: 'Edit Editable push' }).click();
        const dialog = page.getByRole('dialog', { name: 'Edit Editable push' });
        await dialog.waitFor();
        // One format for every day, in the fields as in the table.
        expect(await dialog.getByLabel('Start date').inputValue()).toBe('2030-09-03');
        const budget = dialog.getByLabel('Budget');
        await budget.fill('-500');
        await budget.press('Tab');
        await dialog.getByText('Budget cannot be negative.').waitFor();
        await saveScreenshot(page, 'data-edges-buyer-negative-budget');
        await dialog.getByRole('button', { name: 'Save changes' }).click();
        await dialog.getByText('Budget cannot be negative.').waitFor();
        await budget.fill('2500');
        const end = dialog.getByLabel('End date');
        await end.fill('9/30/2030');
        await end.press('Tab');
        expect(await end.inputValue()).toBe('2030-09-30');
        await dialog.getByRole('button', { name: 'Save changes' }).click();
        await expectToast(page, 'Campaign updated.');
        await dialog.waitFor({ state: 'detached' });
        await expect
          .poll(() => cellsUnder(table, row, ['Budget', 'Start', 'End']))
          .toEqual(['$2,500.00', '2030-09-03', '2030-09-30']);
        await saveScreenshot(page, 'data-edges-buyer-edited');
      },
      desk,
    );
  });

  it('the report over the last 30 days says "new" where the previous period had nothing', async () => {
    const admin = await seedingAdminToken();
    const offer = await createOffer(admin, {
      title: 'Brand new offer',
      vertical: 'Solar',
      payout: 20,
    });
    const pub = await approvedPublisher(admin, {
      name: 'Nova Newcomer',
      email: uniqueEmail('nova'),
      password: 'publisher-pass-1',
    });
    await recordLeads(admin, pub, offer.id, [
      [20, 'approved'],
      [20, 'approved'],
    ]);
    await adminApi('GET', '/reports?range=last_30_days');
    await asAdmin(
      'report-last-30-days-new',
      async (page) => {
        await page.goto('/admin/reports?range=last_30_days&group=offer&compare=true');
        const table = page.getByRole('table').filter({ hasText: 'Brand new offer' });
        const row = table.locator('tbody tr').filter({ hasText: 'Brand new offer' });
        await row.waitFor();
        const period = page.getByRole('combobox', { name: 'Period' });
        expect(await period.inputValue()).toBe('Last 30 days');
        const cells = await row.getByRole('cell').allInnerTexts();
        expect(cells[1]).toContain('new');
        expect(cells[1]).not.toContain('was');
        // Offers are names: their column carries no time zone.
        expect((await table.getByRole('columnheader').first().textContent())?.trim()).toBe('Offer');
        await saveScreenshot(page, 'data-edges-report-last-30-days');
      },
      desk,
    );
  });
});
