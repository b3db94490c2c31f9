import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import { saveScreenshot, viewports } from './support/browser.ts';
import {
  adminAccessToken,
  approvedPublisher,
  asAdmin,
  createOffer,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import {
  closeToasts,
  copyIntegrationKey,
  createIntegrationViaUi,
  expectPath,
  expectToast,
  pageOverflow,
  pickOption,
  rowWith,
  settled,
  sidewaysOutside,
  uniqueEmail,
} from './support/ui.ts';

/**
 * Issue 13 in a browser: the admin creates an integration and copies its key, a call tracker
 * posts calls with it, the accepted call shows in the leads list, and a refused one is replayed
 * from the Integrations screen after its tracker id is attached.
 */

withServerAndBrowser();
const publisher = { name: 'Tracker Tina', email: uniqueEmail('tina'), password: 'tina-pass-1' };
let publisherId = '';
let offer = { id: '', title: 'Final Expense Calls' };

beforeAll(async () => {
  const admin = await adminAccessToken();
  publisherId = await approvedPublisher(admin, publisher);
  offer = await createOffer(admin, {
    title: offer.title,
    vertical: 'Insurance',
    payout: 35,
  });
});

/** A tracker's GET pixel, as Ringba fires it with its tokens filled in. */
async function firePixel(params: Record<string, string>) {
  const res = await fetch(`${server.url}/api/v1/ingest/calls?${new URLSearchParams(params)}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('integrations in Chromium', () => {
  it('admin creates an integration, a posted call becomes a lead, a refused one is replayed', async () => {
    await asAdmin('integrations-journey', async (page) => {
      await page.getByRole('navigation').getByRole('link', { name: 'Integrations' }).click();
      await expectPath(page, '/admin/integrations');
      await page.getByText('No integrations yet.').waitFor();

      // Create: the key is shown once, with a copy button.
      const keyDialog = await createIntegrationViaUi(page, 'Ringba production');
      await keyDialog.getByText('It will not be shown again', { exact: false }).waitFor();
      await settled(page);
      await saveScreenshot(page, 'integrations-key-once-desktop');
      expect(await seriousAxeProblems(page)).toEqual([]);
      const key = await copyIntegrationKey(keyDialog);
      await keyDialog.waitFor({ state: 'detached' });
      const row = rowWith(page, 'Integrations', 'Ringba production');
      await row.getByText(`${key.slice(0, 9)}…`).waitFor();
      expect(await page.locator('body').textContent()).not.toContain(key);

      // The tracker posts a completed call with our ids (the offer has no rules: it pays), and
      // one with its own publisher id.
      const accepted = await firePixel({
        key,
        call_id: 'RGB-CALL-1',
        event: 'completed',
        publisher: publisherId,
        offer: offer.id,
        caller: '+15551234567',
        duration: '95',
      });
      expect(accepted).toMatchObject({ status: 200, body: { status: 'approved' } });
      const refused = await firePixel({
        key,
        call_id: 'RGB-CALL-2',
        publisher: 'RB-PUB-17',
        offer: offer.id,
        duration: '240',
      });
      expect(refused.status).toBe(422);

      // The accepted call is in the leads list, its 95 s shown as the spec's minutes.
      await page.getByRole('navigation').getByRole('link', { name: 'Leads', exact: true }).click();
      await expectPath(page, '/admin/leads');
      const lead = rowWith(page, 'Leads', offer.title);
      await lead.waitFor();
      expect(await lead.count()).toBe(1);
      await lead.getByText(publisher.name).waitFor();
      await lead.getByText('2 min').waitFor();

      // The refused call waits on the Integrations screen; attach RB-PUB-17, then replay it.
      await page.getByRole('navigation').getByRole('link', { name: 'Integrations' }).click();
      const refusal = rowWith(page, 'Refused calls', 'RB-PUB-17');
      await refusal.getByText('No publisher matches "RB-PUB-17"', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Actions for Ringba production' }).click();
      await page.getByRole('menuitem', { name: 'Tracker ids' }).click();
      const ids = page.getByRole('dialog', { name: /Tracker ids/ });
      await ids.getByRole('textbox', { name: "Tracker's publisher id" }).fill('RB-PUB-17');
      await pickOption(ids, 'Our publisher', new RegExp(publisher.name), 'Tracker');
      await ids.getByRole('button', { name: 'Attach' }).click();
      await expectToast(page, 'Id Attached');
      await ids.getByRole('cell', { name: 'RB-PUB-17', exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await ids.waitFor({ state: 'detached' });
      await refusal.getByRole('button', { name: 'Replay' }).click();
      await expectToast(page, 'Call Replayed');
      await refusal.getByText('Replayed').waitFor();
      // The toast (Mantine's own grey description) is gone before the screen is judged.
      await closeToasts(page);
      await saveScreenshot(page, 'integrations-screen-desktop');
      expect(await seriousAxeProblems(page)).toEqual([]);

      await page.getByRole('navigation').getByRole('link', { name: 'Leads', exact: true }).click();
      await rowWith(page, 'Leads', '4 min').waitFor();
      expect(await rowWith(page, 'Leads', offer.title).count()).toBe(2);

      // On a phone both lists are cards: the screen does not scroll sideways, and each row's
      // action (the integration's menu, a refused call's Replay) is on screen at 390 px.
      const refusedAgain = await firePixel({
        key,
        call_id: 'RGB-CALL-3',
        publisher: 'RB-PUB-99',
        offer: offer.id,
        duration: '60',
      });
      expect(refusedAgain.status).toBe(422);
      await page.setViewportSize(viewports.phone);
      await page.goto('/admin/integrations');
      const integration = rowWith(page, 'Integrations', 'Ringba production');
      await integration.waitFor();
      const waiting = rowWith(page, 'Refused calls', 'RB-PUB-99');
      await waiting.waitFor();
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      expect(
        await sidewaysOutside(
          integration.getByRole('button', { name: 'Actions for Ringba production' }),
        ),
      ).toBeLessThanOrEqual(0);
      expect(
        await sidewaysOutside(waiting.getByRole('button', { name: 'Replay' })),
      ).toBeLessThanOrEqual(0);
      await saveScreenshot(page, 'integrations-screen-phone');
      expect(await seriousAxeProblems(page)).toEqual([]);
    });
  });
});
