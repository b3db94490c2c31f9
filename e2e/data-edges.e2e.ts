import { describe, expect, it } from 'vitest';
import { confirmedBuyerViaApi, passwordToken } from './support/api.ts';
import { saveScreenshot } from './support/browser.ts';
import {
  adminApi,
  api,
  asAdmin,
  asUser,
  offerWithLeads,
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

describe('data edges in Chromium (issue 34)', () => {
  it('a buyer edits the budget and dates of a campaign; a negative budget is refused', async () => {
    const email = uniqueEmail('edit-buyer');
    const password = 'buyer-pass-1';
    await confirmedBuyerViaApi(server.url, email, password, {
      full_name: 'Edna Edits',
      company_name: 'Edits Inc',
    });
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
    const offer = { title: 'Brand new offer', vertical: 'Solar', payout: 20 };
    await offerWithLeads(offer, [
      [
        { name: 'Nova Newcomer', email: uniqueEmail('nova'), password: 'publisher-pass-1' },
        [
          [20, 'approved'],
          [20, 'approved'],
        ],
      ],
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
