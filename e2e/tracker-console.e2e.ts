import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import { saveScreenshot, viewports } from './support/browser.ts';
import {
  adminAccessToken,
  api,
  approvedPublisher,
  asAdmin,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectPath, pageOverflow, rowWith, settled, uniqueEmail } from './support/ui.ts';

/**
 * Issue 26 in a browser: the admin creates a Twilio integration, reads how to connect it,
 * then pastes Twilio status callbacks into its test console: an unanswered call reads as "not
 * connected" and would be rejected, a completed one shows the lead it would make. Nothing the
 * console reads is written: the leads list stays empty.
 */

withServerAndBrowser();
let admin = '';
/** The key of the Twilio integration the first journey creates (shown once, read there). */
let key = '';
const publisher = { name: 'Tracker Tina', email: uniqueEmail('tina'), password: 'tina-pass-1' };
const offerTitle = 'Final Expense Calls';
/** The Twilio number the calls are made to, assigned to Tina for the offer. */
const trackingNumber = '+18665551234';
const accountSid = 'AC0a1b2c3d4e5f60718293a4b5c6d7e8f9';

beforeAll(async () => {
  admin = await adminAccessToken();
  const publisherId = await approvedPublisher(admin, publisher);
  const offer = await api<{ id: string }>(admin, 'POST', 'admin/offers', {
    title: offerTitle,
    vertical: 'Insurance',
    payout: 35,
  });
  // Twilio names no publisher: its calls are attributed by the number called.
  await api(admin, 'POST', 'admin/tracking-numbers', {
    number: '(866) 555-1234',
    publisher_id: publisherId,
    offer_id: offer.id,
  });
});

/** A Twilio status callback as Twilio posts it: a form, in Twilio's own field names. */
function statusCallback(status: string, seconds: number): string {
  return new URLSearchParams({
    Called: trackingNumber,
    ToState: 'CA',
    CallerCountry: 'US',
    Direction: 'inbound',
    Timestamp: 'Thu, 26 Nov 2026 13:05:00 +0000',
    CallbackSource: 'call-progress-events',
    SequenceNumber: '0',
    CallerState: 'CA',
    ToZip: '90210',
    CallSid: 'CA5e1b6f0b8a2c4d3e9f00112233445566',
    To: trackingNumber,
    CallerZip: '90401',
    CallerCity: 'SANTA MONICA',
    ApiVersion: '2010-04-01',
    Caller: '+13105550182',
    CallStatus: status,
    From: '+13105550182',
    AccountSid: accountSid,
    CallDuration: String(seconds),
    FromState: 'CA',
    FromZip: '90401',
  }).toString();
}

async function openAction(page: Page, name: string, action: string): Promise<Locator> {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
  // The row's menu closes (its fade-out ends) before the dialog is looked at.
  await page.locator('[data-menu-dropdown]').waitFor({ state: 'detached' });
  const title = action === 'How to connect' ? `How to connect · ${name}` : `Test · ${name}`;
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  await settled(page);
  return dialog;
}

async function runTest(dialog: Locator, url: string, body: string): Promise<Locator> {
  await dialog.getByRole('textbox', { name: /^URL or query string/ }).fill(url);
  await dialog.getByRole('textbox', { name: /^Body/ }).fill(body);
  await dialog.getByRole('button', { name: 'Run test' }).click();
  const result = dialog.getByRole('region', { name: 'Test result' });
  await result.waitFor();
  return result;
}

describe('the test console of a Twilio integration', () => {
  it('reads pasted status callbacks field by field and writes nothing', async () => {
    await asAdmin('tracker-console-journey', async (page) => {
      await page.getByRole('navigation').getByRole('link', { name: 'Integrations' }).click();
      await expectPath(page, '/admin/integrations');

      // Create: the tracker first, then the Twilio account; the key comes with the setup.
      await page.getByRole('button', { name: 'New Integration' }).click();
      const form = page.getByRole('dialog', { name: 'New Integration' });
      await form.getByRole('combobox', { name: /^Tracker/ }).click();
      await page.getByRole('option', { name: 'Twilio', exact: true }).click();
      await form.getByText('attributed by tracking number', { exact: false }).waitFor();
      await form.getByRole('textbox', { name: /^Name/ }).fill('Twilio numbers');
      await form.getByRole('textbox', { name: /^Account id/ }).fill(accountSid);
      await settled(page);
      await saveScreenshot(page, 'tracker-create-desktop', { fullPage: false });
      expect(await seriousAxeProblems(page)).toEqual([]);
      await form.getByRole('button', { name: 'Create Integration' }).click();
      const keyDialog = page.getByRole('dialog', { name: 'Key for Twilio numbers' });
      await keyDialog.getByText('It will not be shown again', { exact: false }).waitFor();
      key = (await keyDialog.locator('pre').first().textContent())?.trim() ?? '';
      expect(key).toMatch(/^ik_/);
      const steps = keyDialog.getByRole('list', { name: 'Setup steps' });
      expect(await steps.getByRole('listitem').count()).toBe(2);
      expect(await steps.getByText(`${server.url}/api/v1/ingest/calls?key=${key}`).count()).toBe(2);
      await keyDialog.getByRole('button', { name: 'I have copied the key' }).click();
      await keyDialog.waitFor({ state: 'detached' });
      const row = rowWith(page, 'Integrations', 'Twilio numbers');
      await row.getByText(accountSid).waitFor();

      // How to connect, later: the key is not known any more.
      const setup = await openAction(page, 'Twilio numbers', 'How to connect');
      await setup.getByText('The key was shown once', { exact: false }).waitFor();
      expect(await setup.getByText(`${server.url}/api/v1/ingest/calls?key=YOUR_KEY`).count()).toBe(
        2,
      );
      await setup
        .getByRole('link', { name: /twilio\.com\/docs/ })
        .first()
        .waitFor();
      await saveScreenshot(page, 'tracker-setup-desktop', { fullPage: false });
      expect(await seriousAxeProblems(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await setup.waitFor({ state: 'detached' });

      // The console: an unanswered call is read as "not connected" and would be rejected.
      const tester = await openAction(page, 'Twilio numbers', 'Test');
      await tester.getByText('Nothing is written', { exact: false }).waitFor();
      const url = `${server.url}/api/v1/ingest/calls?key=${key}`;
      let result = await runTest(tester, url, statusCallback('no-answer', 0));
      await result.getByText('Would create a new lead: rejected').waitFor();
      await result.getByText('Nothing was written', { exact: false }).waitFor();
      const fields = result.getByRole('table', { name: 'How each field was read' });
      const event = fields.getByRole('row').filter({ hasText: 'CallStatus' });
      await event.getByText('no-answer', { exact: true }).waitFor();
      await event.getByText('not_connected', { exact: true }).waitFor();
      let lead = result.getByRole('group', { name: 'The lead it would make' });
      await lead.getByText('Rejected', { exact: true }).waitFor();
      await lead.getByText('Not connected: no-answer', { exact: false }).waitFor();
      await lead.getByText(publisher.name).waitFor();
      await saveScreenshot(page, 'tracker-console-desktop', { fullPage: false });
      expect(await seriousAxeProblems(page)).toEqual([]);

      // A completed call of 95 s: the lead it would make, paid at the offer's payout.
      result = await runTest(tester, url, statusCallback('completed', 95));
      lead = result.getByRole('group', { name: 'The lead it would make' });
      await lead.getByText('Approved', { exact: true }).waitFor();
      await lead.getByText(publisher.name).waitFor();
      await lead.getByText(offerTitle).waitFor();
      await lead.getByText('$35.00').waitFor();
      await lead.getByText('1:35').waitFor();
      await lead.getByText('+13105550182').first().waitFor();
      expect(await lead.textContent()).toContain(trackingNumber);
      await result.getByText('Would create a new lead: approved').waitFor();
      await result.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await saveScreenshot(page, 'tracker-console-result-desktop', { fullPage: false });
      await page.keyboard.press('Escape');
      await tester.waitFor({ state: 'detached' });

      // The mapping behind it, in words: Twilio's statuses and what they mean for us.
      await page.getByRole('button', { name: 'Actions for Twilio numbers' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Twilio numbers' });
      await edit.waitFor();
      const eventRule = edit.getByRole('button', { name: /^event ← DialCallStatus or CallStatus/ });
      expect(await eventRule.textContent()).toContain(
        'busy/failed/no-answer/canceled → not connected',
      );
      await eventRule.click();
      await edit.getByRole('button', { name: 'Reset event to preset' }).waitFor();
      await settled(page);
      await saveScreenshot(page, 'tracker-mapping-desktop', { fullPage: false });
      expect(await seriousAxeProblems(page)).toEqual([]);
      await edit.getByRole('button', { name: 'Cancel', exact: true }).click();
      await edit.waitFor({ state: 'detached' });

      // Nothing was written: no lead, no refused call, no use of the key.
      await page.getByRole('navigation').getByRole('link', { name: 'Leads', exact: true }).click();
      await expectPath(page, '/admin/leads');
      await page.getByText('No leads yet.').waitFor();
      const leads = await api<{ total: number }>(admin, 'GET', 'admin/leads');
      expect(leads.total).toBe(0);
      const refusals = await api<{ total: number }>(admin, 'GET', 'admin/integrations/refusals');
      expect(refusals.total).toBe(0);
    });
  });

  it('fills a phone screen without sideways scrolling', async () => {
    expect(key).toMatch(/^ik_/);
    const url = `${server.url}/api/v1/ingest/calls?key=${key}`;
    await asAdmin(
      'tracker-console-phone',
      async (page) => {
        await page.goto('/admin/integrations');
        await rowWith(page, 'Integrations', 'Twilio numbers').waitFor();
        const phoneSetup = await openAction(page, 'Twilio numbers', 'How to connect');
        await phoneSetup.getByRole('list', { name: 'Setup steps' }).waitFor();
        expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
        await saveScreenshot(page, 'tracker-setup-phone', { fullPage: false });
        expect(await seriousAxeProblems(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await phoneSetup.waitFor({ state: 'detached' });
        const phoneConsole = await openAction(page, 'Twilio numbers', 'Test');
        const phoneResult = await runTest(phoneConsole, url, statusCallback('busy', 0));
        await phoneResult.getByText('Not connected: busy', { exact: false }).waitFor();
        expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
        await saveScreenshot(page, 'tracker-console-phone', { fullPage: false });
        expect(await seriousAxeProblems(page)).toEqual([]);
      },
      viewports.phone,
    );
  });
});
