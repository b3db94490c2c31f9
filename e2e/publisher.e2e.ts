import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pdfFile } from '../server/test/fixtures.ts';
import { seriousAxeProblems } from './support/a11y.ts';
import { passwordToken, signUpPublisherViaApi } from './support/api.ts';
import {
  newContext,
  saveScreenshot,
  trackPageErrors,
  viewports,
  withScreenshotOnFailure,
} from './support/browser.ts';
import { formOf, mp3, pdf } from './support/files.ts';
import {
  adminApi,
  browser,
  publisherIdOf,
  seedingAdminToken,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectPath, expectToast, signInViaUi, uniqueEmail } from './support/ui.ts';

withServerAndBrowser();

const pdfUpload = (name: string): FormData => formOf(['file', pdf(name)]);

/** Text of the overview's stat card with this label. */
async function statValue(page: Page, label: string): Promise<string> {
  return (
    (await page.getByRole('region', { name: label }).getByTestId('stat-value').textContent()) ?? ''
  );
}

async function offerCard(page: Page, title: string) {
  return page.getByRole('article', { name: title });
}

/** Saves desktop and phone screenshots of the screen at `path` (each page has its own session). */
async function shootBothSizes(
  pages: { desktop: Page; phone: Page },
  path: string,
  name: string,
  ready: string,
) {
  for (const [size, page] of Object.entries(pages)) {
    await withScreenshotOnFailure(page, `publisher-${name}-${size}`, async () => {
      await page.goto(path);
      await page.getByRole('heading', { name: ready, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      await saveScreenshot(page, `publisher-${name}-${size}`);
    });
  }
}

describe('publisher journey across roles in Chromium', () => {
  it('applies with compliance files, gets approved, downloads the IO and sees the cards change', async () => {
    const email = uniqueEmail('pub');
    const password = 'publisher-pass-1';
    const offerA = await adminApi<{ id: string }>('POST', '/offers', {
      title: 'Final Expense Inbound',
      vertical: 'Insurance',
      payout: 42.5,
      script_instructions: 'Greet the caller by name.\nConfirm the state before transfer.',
    });
    await adminApi('POST', '/offers', {
      title: 'Solar Leads Premium',
      vertical: 'Solar',
      payout: 18,
      script_instructions: null,
    });
    await signUpPublisherViaApi(server.url, email, password);
    const publisherId = await publisherIdOf(await seedingAdminToken(), email);

    const context = await newContext(browser, server.url, viewports.desktop);
    const page = await context.newPage();
    const errors = trackPageErrors(page);
    // A second session on a phone-sized screen, for the screenshots.
    const phoneContext = await newContext(browser, server.url, viewports.phone);
    const phone = await phoneContext.newPage();
    await signInViaUi(phone, email, password);
    await expectPath(phone, '/dashboard');
    const shots = { desktop: page, phone };
    await withScreenshotOnFailure(
      page,
      'publisher-journey',
      async () => {
        // Pending: the dashboard says so and Apply Now explains why it is unavailable.
        await signInViaUi(page, email, password);
        await expectPath(page, '/dashboard');
        await page.getByRole('heading', { name: 'Welcome, Api Publisher!' }).waitFor();
        await page.getByText('Your account is pending approval').waitFor();
        expect(await statValue(page, 'Applied Offers')).toBe('0');
        expect(await statValue(page, 'Total Earnings')).toBe('$0.00');
        await page.getByText('No activity yet.').waitFor();
        const nav = page.getByRole('navigation', { name: 'Publisher navigation' });
        for (const label of [
          'Dashboard',
          'Offers',
          'Leads',
          'Payouts',
          'Documents',
          'Campaign IOs',
        ]) {
          await nav.getByRole('link', { name: label, exact: true }).waitFor();
        }

        await page.getByRole('link', { name: 'Browse Offers' }).click();
        await expectPath(page, '/dashboard/offers');
        await page.getByRole('heading', { name: 'Available Offers' }).waitFor();
        const pendingCard = await offerCard(page, 'Final Expense Inbound');
        await expect(
          pendingCard.getByRole('button', { name: /Apply Now/ }).isDisabled(),
        ).resolves.toBe(true);
        await pendingCard.getByText('Your account is pending approval. You can apply').waitFor();

        // Empty states before any data exists.
        await shootBothSizes(shots, '/dashboard', 'overview-empty', 'Welcome, Api Publisher!');
        await shootBothSizes(shots, '/dashboard/offers', 'offers-pending', 'Available Offers');
        for (const [path, heading, empty] of [
          ['/dashboard/leads', 'My Leads', 'No leads yet.'],
          ['/dashboard/payouts', 'Payouts', 'No payouts yet.'],
          ['/dashboard/documents', 'My Documents', 'No documents yet.'],
          ['/dashboard/ios', 'Campaign IOs', 'No campaign IOs yet.'],
        ] as const) {
          await page.goto(path);
          await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
          await page.getByText(empty).waitFor();
          await shootBothSizes(shots, path, `${path.split('/').pop()}-empty`, heading);
        }

        // The admin approves the account; the offers screen unlocks Apply Now.
        await adminApi('PATCH', `/publishers/${publisherId}`, { status: 'approved' });
        await page.goto('/dashboard/offers');
        const card = await offerCard(page, 'Final Expense Inbound');
        const apply = card.getByRole('button', { name: /Apply Now/ });
        await expect.poll(() => apply.isEnabled()).toBe(true);
        // The phone session opens the offers now and keeps this (soon stale) list.
        await phone.goto('/dashboard/offers');
        const phoneApply = (await offerCard(phone, 'Final Expense Inbound')).getByRole('button', {
          name: /Apply Now/,
        });
        await expect.poll(() => phoneApply.isEnabled()).toBe(true);

        // Closing the dialog without submitting deletes the draft.
        await apply.click();
        const dialog = page.getByRole('dialog', { name: 'Apply to Final Expense Inbound' });
        await dialog.waitFor();
        const deleted = page.waitForResponse(
          (r) => r.request().method() === 'DELETE' && r.url().includes('/publisher/applications/'),
        );
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        expect((await deleted).status()).toBe(204);
        await dialog.waitFor({ state: 'hidden' });

        // Apply for real: the spec's checks run before anything is sent.
        await apply.click();
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Submit Application' }).click();
        await expectToast(page, 'Missing Files', 'Please upload both media files and a document.');

        const mediaInput = dialog.locator('input[name="media"]');
        const documentInput = dialog.locator('input[name="document"]');
        await mediaInput.setInputFiles([mp3('call-1.mp3'), mp3('call-2.mp3')]);
        await mediaInput.setInputFiles([mp3('call-3.mp3'), mp3('call-4.mp3')]);
        await documentInput.setInputFiles([pdf('compliance.pdf')]);
        const mediaList = dialog.getByRole('list', { name: 'Selected media files' });
        await expect(mediaList.getByRole('listitem').count()).resolves.toBe(4);
        await dialog.getByText('MP3', { exact: true }).first().waitFor();
        await dialog.getByRole('button', { name: 'Submit Application' }).click();
        await expectToast(page, 'Too many files', 'You can upload a maximum of 3 media files.');
        await saveScreenshot(page, 'publisher-compliance-dialog-desktop');

        await dialog.getByRole('button', { name: 'Remove call-4.mp3' }).click();
        await dialog.getByRole('button', { name: 'Remove call-3.mp3' }).click();
        await expect(mediaList.getByRole('listitem').count()).resolves.toBe(2);
        const submitted = page.waitForResponse((r) => r.url().endsWith('/compliance'));
        await dialog.getByRole('button', { name: 'Submit Application' }).click();
        expect((await submitted).status()).toBe(201);
        await expectToast(page, 'Applied. Thank you.');
        await dialog.waitFor({ state: 'hidden' });
        await card.getByText('Pending', { exact: true }).waitFor();
        expect(await card.getByRole('button', { name: /Apply Now/ }).count()).toBe(0);

        // Applying again from the stale phone screen: 'Already Applied', then the status shows.
        await phoneApply.click();
        await expectToast(
          phone,
          'Already Applied',
          'You have already submitted an application for this offer.',
        );
        await (await offerCard(phone, 'Final Expense Inbound'))
          .getByText('Pending', { exact: true })
          .waitFor();
        // The dialog on a phone (then closed, which drops that draft).
        await (await offerCard(phone, 'Solar Leads Premium'))
          .getByRole('button', { name: /Apply Now/ })
          .click();
        const phoneDialog = phone.getByRole('dialog', { name: 'Apply to Solar Leads Premium' });
        await phoneDialog
          .locator('input[name="media"]')
          .setInputFiles([mp3('a-rather-long-recording-name-from-the-call-center.mp3')]);
        await phoneDialog.locator('input[name="document"]').setInputFiles([pdf('compliance.pdf')]);
        await phone.waitForTimeout(300);
        await saveScreenshot(phone, 'publisher-compliance-dialog-phone');
        const phoneDeleted = phone.waitForResponse(
          (r) => r.request().method() === 'DELETE' && r.url().includes('/publisher/applications/'),
        );
        await phoneDialog.getByRole('button', { name: 'Close without applying' }).click();
        expect((await phoneDeleted).status()).toBe(204);

        // The admin approves the application, uploads its IO, records a lead, a payout and
        // the publisher's agreement.
        const apps = await adminApi<{ items: { id: string; offer_id: string; status: string }[] }>(
          'GET',
          `/applications?publisher_id=${publisherId}`,
        );
        const application = apps.items.find((a) => a.offer_id === offerA.id)!;
        expect(application.status).toBe('pending');
        await adminApi('PATCH', `/applications/${application.id}`, { status: 'approved' });
        await adminApi(
          'PUT',
          `/applications/${application.id}/io`,
          pdfUpload('io-final-expense.pdf'),
        );
        await adminApi('POST', '/leads', {
          publisher_id: publisherId,
          offer_id: offerA.id,
          payout: 42.5,
          status: 'approved',
          call_duration: 12,
        });
        await adminApi('POST', '/payouts', {
          publisher_id: publisherId,
          amount: 1234.5,
          notes: 'Weekly payout',
        });
        await adminApi('PUT', `/publishers/${publisherId}/agreement`, pdfUpload('agreement.pdf'));

        // Offers shows the new status.
        await page.reload();
        await (await offerCard(page, 'Final Expense Inbound'))
          .getByText('Approved', { exact: true })
          .waitFor();

        // Campaign IOs: the IO downloads with its bytes intact.
        await page.getByRole('navigation').getByRole('link', { name: 'Campaign IOs' }).click();
        await page.getByRole('heading', { name: 'Campaign IOs', level: 1 }).waitFor();
        const row = page.getByRole('row', { name: /Final Expense Inbound/ });
        await row.getByText('io-final-expense.pdf').waitFor();
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          row.getByRole('button', { name: 'Download IO for Final Expense Inbound' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('io-final-expense.pdf');
        const saved = await download.path();
        expect(readFileSync(saved).equals(pdfFile)).toBe(true);

        // The overview cards and Recent Activity follow.
        await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).click();
        await page.getByRole('heading', { name: 'Recent Activity' }).waitFor();
        await page.getByRole('region', { name: 'Applied Offers' }).getByText('1').waitFor();
        expect(await statValue(page, 'Applied Offers')).toBe('1');
        expect(await statValue(page, 'Total Earnings')).toBe('$42.50');
        expect(await statValue(page, 'Total Leads')).toBe('1');
        // Issue 14: Pending Payouts is what is owed: the $42.50 earned minus the $1,234.50 advance.
        expect(await statValue(page, 'Pending Payouts')).toBe('-$1,192.00');
        await page.getByText('Campaign IO available').waitFor();
        await page.getByText('Payout recorded').waitFor();

        // A failed load shows the spec's toast and an error state whose Retry recovers.
        await page.route('**/api/v1/publisher/leads?*', (route) =>
          route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'unavailable', message: 'The database is restarting.' },
            }),
          }),
        );
        await page.goto('/dashboard/leads');
        await expectToast(page, 'Error loading leads', 'The database is restarting.');
        const failed = page.getByRole('alert', { name: 'Error loading leads' });
        await failed.waitFor();
        await page.unroute('**/api/v1/publisher/leads?*');
        await failed.getByRole('button', { name: 'Retry' }).click();
        await page.getByRole('row', { name: /Final Expense Inbound/ }).waitFor();

        // Leads, payouts and documents show the admin's records.
        await page.goto('/dashboard/leads');
        const lead = page.getByRole('row', { name: /Final Expense Inbound/ });
        await lead.getByText('12 min').waitFor();
        await lead.getByText('$42.50').waitFor();
        await lead.getByText('approved').waitFor();
        await page.getByRole('combobox', { name: 'Status' }).click();
        await page.getByRole('option', { name: 'Rejected' }).click();
        await page.getByText('No leads match these filters.').waitFor();

        await page.goto('/dashboard/payouts');
        await page
          .getByRole('row', { name: /Weekly payout/ })
          .getByText('$1,234.50')
          .waitFor();

        await page.goto('/dashboard/documents');
        await page.getByText('agreement.pdf').waitFor();
        const [agreement] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download' }).click(),
        ]);
        expect(agreement.suggestedFilename()).toBe('agreement.pdf');

        // Screens with data, desktop and phone.
        await shootBothSizes(shots, '/dashboard', 'overview', 'Welcome, Api Publisher!');
        await shootBothSizes(shots, '/dashboard/offers', 'offers', 'Available Offers');
        await shootBothSizes(shots, '/dashboard/leads', 'leads', 'My Leads');
        await shootBothSizes(shots, '/dashboard/payouts', 'payouts', 'Payouts');
        await shootBothSizes(shots, '/dashboard/documents', 'documents', 'My Documents');
        await shootBothSizes(shots, '/dashboard/ios', 'ios', 'Campaign IOs');
        // No serious or critical accessibility problems on the screens with data.
        for (const path of [
          '/dashboard',
          '/dashboard/offers',
          '/dashboard/leads',
          '/dashboard/payouts',
          '/dashboard/documents',
          '/dashboard/ios',
        ]) {
          await page.goto(path);
          await page.getByRole('heading', { level: 1 }).waitFor();
          await page.waitForLoadState('networkidle');
          expect(await seriousAxeProblems(page, path)).toEqual([]);
        }

        expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
      },
      errors,
    );
    await context.close();
    await phoneContext.close();
  }, 400_000);

  it('sorts, searches and pages leads, offers and IOs on the server', async () => {
    const email = uniqueEmail('pub-sort');
    const password = 'publisher-pass-2';
    const cheap = await adminApi<{ id: string }>('POST', '/offers', {
      title: 'Zeta Home Warranty',
      vertical: 'Home',
      payout: 5.25,
    });
    const dear = await adminApi<{ id: string }>('POST', '/offers', {
      title: 'Alpha Auto Transfer',
      vertical: 'Auto',
      payout: 20,
    });
    await signUpPublisherViaApi(server.url, email, password);
    const publisherId = await publisherIdOf(await seedingAdminToken(), email);
    await adminApi('PATCH', `/publishers/${publisherId}`, { status: 'approved' });

    // 27 leads, one an hour: the oldest pays the most, so newest first it sits on page 2 of 25.
    for (let i = 0; i < 27; i++) {
      await adminApi('POST', '/leads', {
        publisher_id: publisherId,
        offer_id: i % 2 ? cheap.id : dear.id,
        payout: i === 26 ? 99 : i + 1,
        status: 'approved',
        call_duration: 5,
        timestamp: new Date(Date.now() - (i + 1) * 3_600_000).toISOString(),
      });
    }

    // Both offers applied to (with compliance files), approved, each with an IO.
    const token = await passwordToken(server.url, email, password);
    for (const offer of [cheap, dear]) {
      const start = await fetch(`${server.url}/api/v1/publisher/applications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ offer_id: offer.id }),
      });
      expect(start.status).toBe(201);
      const { id } = (await start.json()) as { id: string };
      const form = formOf(['media', mp3('c.mp3')], ['document', pdf('d.pdf')]);
      const sent = await fetch(`${server.url}/api/v1/publisher/applications/${id}/compliance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(sent.status).toBe(201);
      await adminApi('PATCH', `/applications/${id}`, { status: 'approved' });
      await adminApi('PUT', `/applications/${id}/io`, pdfUpload(`io-${offer.id.slice(0, 8)}.pdf`));
    }

    const context = await newContext(browser, server.url, viewports.desktop);
    const page = await context.newPage();
    const errors = trackPageErrors(page);
    await withScreenshotOnFailure(
      page,
      'publisher-server-sorting',
      async () => {
        await signInViaUi(page, email, password);
        await expectPath(page, '/dashboard');

        // Leads: newest first; sorting by Payout orders all 27, not just the rows on screen.
        await page.goto('/dashboard/leads');
        const table = page.getByRole('table', { name: 'My Leads' });
        const firstPayout = () =>
          table.locator('tbody tr').first().locator('td').nth(4).textContent();
        await expect.poll(firstPayout).toBe('$1.00');
        await page.getByText('27 leads.').waitFor();
        const sorted = page.waitForRequest(
          (r) => r.url().includes('/publisher/leads?') && r.url().includes('sort=payout'),
        );
        await table.getByRole('button', { name: /^Payout/ }).click();
        expect(new URL((await sorted).url()).searchParams.get('order')).toBe('desc');
        await expect.poll(firstPayout).toBe('$99.00');
        await table.getByRole('button', { name: /^Payout/ }).click();
        await expect.poll(firstPayout).toBe('$1.00');
        // Next reads after the last row shown (the page's next_cursor, kept in memory).
        const next = page.waitForRequest(
          (r) => r.url().includes('/publisher/leads?') && r.url().includes('page=2'),
        );
        await page.getByRole('button', { name: 'Next page' }).click();
        expect(new URL((await next).url()).searchParams.get('after')).toBeTruthy();
        expect(page.url()).not.toContain('after=');
        await expect.poll(firstPayout).toBe('$26.00');
        expect(await table.locator('tbody tr').count()).toBe(2);
        await saveScreenshot(page, 'publisher-leads-sorted-page2-desktop');

        // Offers: 'Lowest payout' asks the server, which has every active offer.
        await page.goto('/dashboard/offers');
        await page.getByRole('heading', { name: 'Available Offers' }).waitFor();
        await page.getByRole('article').first().waitFor();
        await page.getByRole('combobox', { name: 'Sort by' }).click();
        const lowest = page.waitForRequest((r) => r.url().includes('sort=payout&order=asc'));
        await page.getByRole('option', { name: 'Lowest payout' }).click();
        await lowest;
        await expect
          .poll(() => page.getByRole('article').first().textContent())
          .toContain('Zeta Home Warranty');

        // Campaign IOs: sorted by offer title (a text column starts A→Z), then Z→A; searched by the server.
        await page.goto('/dashboard/ios');
        const ios = page.getByRole('table', { name: 'Campaign IOs' });
        const titles = () => ios.locator('tbody tr td:first-child').allInnerTexts();
        await expect.poll(titles).toHaveLength(2);
        const offerHeader = ios.getByRole('button', { name: /^Offer/ });
        // The newest-first order may already read A→Z: wait for the sorted answer itself.
        const byOffer = page.waitForResponse(
          (r) => r.url().includes('/publisher/ios?') && r.url().includes('sort=offer&order=asc'),
        );
        await offerHeader.click();
        await byOffer;
        await expect.poll(titles).toEqual(['Alpha Auto Transfer', 'Zeta Home Warranty']);
        await offerHeader.click();
        await expect.poll(titles).toEqual(['Zeta Home Warranty', 'Alpha Auto Transfer']);
        const searched = page.waitForRequest(
          (r) => r.url().includes('/publisher/ios?') && r.url().includes('q=zeta'),
        );
        await page.getByLabel('Search by offer').fill('zeta');
        await searched;
        await expect.poll(titles).toEqual(['Zeta Home Warranty']);
        await page.getByLabel('Search by offer').fill('no such offer');
        await page.getByText('No IOs match your search.').waitFor();
        expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
      },
      errors,
    );
    await context.close();

    // On a phone the cards sort through 'Sort by', over all leads as well.
    const phoneContext = await newContext(browser, server.url, viewports.phone);
    const phone = await phoneContext.newPage();
    await withScreenshotOnFailure(phone, 'publisher-server-sorting-phone', async () => {
      await signInViaUi(phone, email, password);
      await expectPath(phone, '/dashboard');
      await phone.goto('/dashboard/leads');
      const cards = phone.getByRole('list', { name: 'My Leads' }).getByRole('listitem');
      await expect.poll(() => cards.first().textContent()).toContain('$1.00');
      await phone.getByRole('combobox', { name: 'Sort by' }).click();
      await phone.getByRole('option', { name: 'Payout, descending' }).click();
      await expect.poll(() => cards.first().textContent()).toContain('$99.00');
      await saveScreenshot(phone, 'publisher-leads-sorted-phone');
    });
    await phoneContext.close();
  }, 300_000);
});
