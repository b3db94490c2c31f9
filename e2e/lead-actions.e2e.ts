import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import { saveScreenshot, viewports } from './support/browser.ts';
import {
  adminAccessToken,
  api,
  approvedPublisher,
  asAdmin,
  createOffer,
  withServerAndBrowser,
} from './support/suite.ts';
import {
  closeToasts,
  expectPath,
  expectToast,
  pageOverflow,
  settled,
  sidewaysOutside,
  uniqueEmail,
} from './support/ui.ts';

/**
 * Issue 13, items 7 and 8 in a browser: the admin filters the leads list, sees the filtered
 * total and its money (earned, under review), picks all matching leads and approves them with a reason; then imports a
 * small CSV after checking it.
 */

withServerAndBrowser();
let admin = '';
const publisher = { name: 'Bulk Bella', email: uniqueEmail('bella'), password: 'bella-pass-1' };
let publisherId = '';
let solar = { id: '', title: 'Solar Leads Bulk' };
let debt = { id: '', title: 'Debt Relief Bulk' };

beforeAll(async () => {
  admin = await adminAccessToken();
  publisherId = await approvedPublisher(admin, publisher);
  solar = await createOffer(admin, {
    title: solar.title,
    vertical: 'Solar',
    payout: 12.5,
  });
  debt = await createOffer(admin, {
    title: debt.title,
    vertical: 'Debt',
    payout: 30,
  });
  // 30 pending leads of the solar offer (more than one page of 25), 3 of the debt offer.
  for (let i = 0; i < 33; i++) {
    await api(admin, 'POST', 'admin/leads', {
      publisher_id: publisherId,
      offer_id: i < 30 ? solar.id : debt.id,
      call_duration: 3,
      timestamp: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    });
  }
});

describe('bulk actions and CSV import in Chromium', () => {
  it('approves every lead matching a filter with one reason, and no other lead', async () => {
    await asAdmin('lead-bulk-journey', async (page) => {
      await page.getByRole('navigation').getByRole('link', { name: 'Leads', exact: true }).click();
      await expectPath(page, '/admin/leads');
      const totals = page.getByRole('group', { name: 'Totals of the matching leads' });
      await totals.getByText('33').waitFor();
      // All pending (issue 27): nothing earned yet, $465.00 under review, none rejected.
      await totals.getByText('$0.00').waitFor();
      await totals.getByText('$465.00').waitFor();

      // Filter by the solar offer: the totals follow the filter.
      const offerFilter = page.getByRole('combobox', { name: 'Offer', exact: true });
      await offerFilter.click();
      await offerFilter.fill('Solar');
      await page.getByRole('option', { name: solar.title }).click();
      await totals.getByText('30', { exact: true }).waitFor();
      await totals.getByText('$375.00').waitFor();

      // One row, then the whole page, then all 30 matching.
      const table = page.getByRole('region', { name: 'Leads' });
      await table
        .getByRole('checkbox', { name: /^Select the lead of Bulk Bella/ })
        .first()
        .check();
      await page.getByText('1 selected').waitFor();
      await table.getByRole('checkbox', { name: 'Select every row on this page' }).check();
      await page.getByText('25 selected').waitFor();
      await page.getByRole('button', { name: 'Select all 30 matching leads' }).click();
      await page.getByText('All 30 matching leads selected').waitFor();
      await saveScreenshot(page, 'leads-selection-desktop');
      expect(await seriousAxeProblems(page)).toEqual([]);

      await page.setViewportSize(viewports.phone);
      await page.getByText('All 30 matching leads selected').waitFor();
      // On a phone each lead is a card: its checkbox and its status (the row's action) are on
      // screen at 390 px, not at the end of a table scrolled sideways.
      const card = page.getByRole('list', { name: 'Leads' }).getByRole('listitem').first();
      expect(
        await sidewaysOutside(card.getByRole('checkbox', { name: /^Select the lead of/ })),
      ).toBeLessThanOrEqual(0);
      expect(
        await sidewaysOutside(card.getByRole('combobox', { name: /^Status of the lead/ })),
      ).toBeLessThanOrEqual(0);
      await saveScreenshot(page, 'leads-selection-phone');
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      await page.setViewportSize(viewports.desktop);

      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve Leads' });
      await dialog.getByText('30 leads will be approved.', { exact: false }).waitFor();
      await settled(page);
      await dialog.getByRole('button', { name: 'Approve 30 leads' }).click();
      await dialog.getByText('Choose a reason for the change.').waitFor();
      await dialog.getByRole('combobox', { name: /^Reason/ }).click();
      // Approving offers approving's reasons only (issue 27 item 4).
      await page.getByRole('option', { name: 'Accepted by the buyer' }).waitFor();
      expect(await page.getByRole('option', { name: 'Duplicate call' }).count()).toBe(0);
      await page.getByRole('option', { name: 'Accepted by the buyer' }).click();
      await dialog.getByRole('textbox', { name: /^Note/ }).fill('November batch confirmed');
      await saveScreenshot(page, 'leads-bulk-confirm-desktop');
      await dialog.getByRole('button', { name: 'Approve 30 leads' }).click();
      await expectToast(page, 'Leads Updated', '30 leads are now approved.');
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('All 30 matching leads selected').waitFor({ state: 'detached' });

      // On the server: the 30 are approved with the reason, the debt leads are untouched.
      const approved = await api<{ count: number }>(
        admin,
        'GET',
        `admin/leads/totals?offer_id=${solar.id}&status=approved`,
      );
      expect(approved.count).toBe(30);
      const pending = await api<{ count: number }>(
        admin,
        'GET',
        `admin/leads/totals?offer_id=${debt.id}&status=pending`,
      );
      expect(pending.count).toBe(3);
      const audit = await api<{
        items: { action: string; after: { status_reason: string } }[];
      }>(admin, 'GET', 'admin/audit?entity_type=lead&page_size=50');
      const bulk = audit.items.filter((a) => a.action === 'lead.status');
      expect(bulk).toHaveLength(30);
      expect(bulk[0]!.after.status_reason).toBe('Accepted by the buyer: November batch confirmed');
    });
  });

  it('imports a small CSV after a check that shows its row errors', async () => {
    await asAdmin('lead-import-journey', async (page) => {
      await page.goto('/admin/leads');
      await page.getByRole('link', { name: 'Import CSV' }).click();
      await expectPath(page, '/admin/leads/import');
      const csv = [
        'call_id,publisher,offer,date,duration,payout,status',
        `CSV-1,${publisher.email},${debt.id},2026-11-20 09:00:00,125,28.50,approved`,
        `CSV-2,${publisher.email},${debt.id},11/20/2026 3:30 PM,61,,`,
        `CSV-3,someone@else.example,${debt.id},2026-11-20 10:00:00,30,,`,
      ].join('\n');
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'old-system.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('heading', { name: '1. Columns of old-system.csv' }).waitFor();
      // The columns were matched by their names.
      expect(await page.getByRole('combobox', { name: /^External call id/ }).inputValue()).toBe(
        'call_id',
      );
      expect(await page.getByRole('combobox', { name: /^Date and time/ }).inputValue()).toBe(
        'date',
      );
      await page.getByRole('button', { name: 'Check file' }).click();
      await page.getByRole('heading', { name: '2. Check (nothing imported yet)' }).waitFor();
      const errors = page.getByRole('table', { name: 'Rows with errors' });
      await errors
        .getByText('No publisher matches "someone@else.example"', { exact: false })
        .waitFor();
      await saveScreenshot(page, 'lead-import-check-desktop');
      expect(await seriousAxeProblems(page)).toEqual([]);
      await page.setViewportSize(viewports.phone);
      await saveScreenshot(page, 'lead-import-check-phone');
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      await page.setViewportSize(viewports.desktop);

      await page.getByRole('button', { name: 'Import 2 rows' }).click();
      await page.getByRole('heading', { name: '3. Imported' }).waitFor();
      await closeToasts(page).catch(() => {});
      await saveScreenshot(page, 'lead-import-done-desktop');
      await page.getByRole('link', { name: 'Go to leads' }).click();
      await expectPath(page, '/admin/leads');
      const imported = await api<{ count: number; earned: number; under_review: number }>(
        admin,
        'GET',
        `admin/leads/totals?offer_id=${debt.id}`,
      );
      // 3 recorded by hand ($30 each, pending) + 2 imported ($28.50 approved, and the offer's
      // $30 pending).
      expect(imported).toMatchObject({ count: 5, earned: 28.5, under_review: 120, rejected: 0 });
    });
  });
});
