import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { confirmedBuyerViaApi } from './support/api.ts';
import { saveScreenshot } from './support/browser.ts';
import * as suite from './support/suite.ts';
import { expectPath, expectToast, signInViaUi, uniqueEmail } from './support/ui.ts';

/**
 * Issue 31 in a browser: a buyer creates a campaign, the admin approves it on an offer at a
 * price, a tracker posts calls, the buyer watches the spend and the burn-down, plays a call's
 * recording and returns the call, the admin accepts the return, and the call shows the credit.
 */

suite.withServerAndBrowser();

const buyer = { name: 'Journey Buyer', email: uniqueEmail('jbuyer'), password: 'jbuyer-pass-1' };
const campaignName = 'Journey Auto Leads';
const offerTitle = 'Journey Auto Insurance';
let ids: suite.TrackerIds;
const recording = suite.withRecordingHost('/rec/JB-1.wav');

beforeAll(async () => {
  ids = await suite.trackerSeed('Journey', { title: offerTitle, vertical: 'Auto', payout: 10 });
  await confirmedBuyerViaApi(suite.server.url, buyer.email, buyer.password, {
    full_name: buyer.name,
    company_name: 'Journey Co',
  });
});

async function signInBuyer(page: Page) {
  await signInViaUi(page, buyer.email, buyer.password);
  await expectPath(page, '/buyer-dashboard');
}

/** A completed call as the tracker posts it, on the approved campaign's offer. */
async function trackerCall(callId: string) {
  const answer = await suite.seededCall(ids, {
    call_id: callId,
    event: 'completed',
    duration: 95,
    caller: '+1 (312) 555-0199',
    state: 'IL',
    recording_url: recording.url,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

describe('the buyer journey in Chromium', () => {
  it('creates a campaign; the admin approves it on an offer at a price', async () => {
    await suite.journey('buyer-journey-create', async (page) => {
      await signInBuyer(page);
      await page.getByRole('button', { name: 'Create New Campaign' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Campaign' });
      await dialog.getByLabel('Campaign name').fill(campaignName);
      await dialog.getByLabel('Budget').fill('500');
      await dialog.getByRole('button', { name: 'Create Campaign' }).click();
      await expectToast(page, 'Campaign created successfully!');
    });
    await suite.asAdmin('buyer-journey-approve', async (page) => {
      await page.goto('/admin/campaigns');
      await page.getByRole('button', { name: `Actions for ${campaignName}` }).click();
      await page.getByRole('menuitem', { name: 'Approve…' }).click();
      const dialog = page.getByRole('dialog', { name: `Approve ${campaignName}` });
      const offer = dialog.getByLabel('Offer it buys');
      await offer.click();
      await offer.fill('Journey');
      await page.getByRole('option', { name: new RegExp(offerTitle) }).click();
      await dialog.getByLabel('Price per billable call').fill('25');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await expectToast(page, 'Campaign approved');
      await saveScreenshot(page, 'buyer-journey-approved');
    });
  });

  it('calls arrive; the buyer watches the spend, plays a recording and returns a call', async () => {
    await trackerCall('JB-1');
    await trackerCall('JB-2');
    await suite.journey('buyer-journey-calls', async (page) => {
      await signInBuyer(page);
      // The dashboard's burn-down: $50 of $500 spent today.
      await page.getByRole('heading', { name: 'Budget burn-down' }).waitFor();
      await page.getByText(/Spent \$50\.00 of \$500\.00/).waitFor();
      await page.getByTestId('burn-down-projection').waitFor();
      // The chart: the budget left (solid) and the projection (dashed) once its chunk is in and
      // its place nears the screen (WhenVisible).
      await page.getByTestId('burn-down-projection').scrollIntoViewIfNeeded();
      await page.getByTestId('budget-burn-down').locator('.recharts-line').nth(1).waitFor();
      await saveScreenshot(page, 'buyer-journey-burn-down');

      await page.goto('/buyer-dashboard/calls');
      const table = page.getByRole('table', { name: 'Calls' });
      await table.getByText('billed', { exact: true }).first().waitFor();
      expect(await table.getByText('$25.00').count()).toBe(2);
      // Play the first call's recording (muted; a click is the user gesture autoplay asks).
      const audio = table.locator('audio').first();
      await audio.click();
      const played = await audio.evaluate(async (el: HTMLAudioElement) => {
        el.muted = true;
        await el.play();
        await new Promise((r) => setTimeout(r, 400));
        return { currentTime: el.currentTime, error: el.error?.code ?? null };
      });
      expect(played.error).toBeNull();
      expect(played.currentTime).toBeGreaterThan(0);

      await table.getByRole('button', { name: 'Return' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Return this call' });
      await dialog.getByLabel('Reason').fill('Wrong number');
      await dialog.getByRole('button', { name: 'Return call' }).click();
      await expectToast(page, 'Call returned');
      await table.getByText('Return pending').waitFor();
      await saveScreenshot(page, 'buyer-journey-returned');
    });
  });

  it('the admin accepts the return; the call shows the credit', async () => {
    await suite.asAdmin('buyer-journey-accept', async (page) => {
      await page.goto('/admin/returns');
      await page.getByRole('button', { name: 'Accept' }).first().click();
      await expectToast(page, 'Return accepted');
      // The network's margin by campaign (item 7): $25 revenue left (the credited call carries
      // none now) less the $20 payout of the two calls: $5.00, 20%.
      await page.goto('/admin/reports?range=today&group=campaign');
      const row = page.getByRole('row').filter({ hasText: campaignName });
      await row.waitFor();
      const text = await row.innerText();
      expect(text).toContain('$25.00');
      expect(text).toContain('$5.00');
      expect(text).toMatch(/20(\.0)?\s?%/);
      await saveScreenshot(page, 'buyer-journey-margin-report');
    });
    await suite.journey('buyer-journey-credit', async (page) => {
      await signInBuyer(page);
      // The credit: the spend is back to one call.
      await page.getByText(/Spent \$25\.00 of \$500\.00/).waitFor();
      await page.goto('/buyer-dashboard/calls');
      const table = page.getByRole('table', { name: 'Calls' });
      await table.getByText('Return accepted').waitFor();
      await saveScreenshot(page, 'buyer-journey-credit');
    });
  });
});
