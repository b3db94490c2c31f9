import { beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import * as suite from './support/suite.ts';
import { expectPath, expectToast } from './support/ui.ts';

/**
 * Issue 32's blocklist in a browser: the admin opens a tracker's call, blocks its caller from
 * the lead detail ("Block this caller"), and the next call from that number shows in the leads
 * list as rejected, not payable, with the block's reason.
 */

suite.withServerAndBrowser();
let ids: suite.TrackerIds;
const CALLER = '+1 (312) 555-0177';
const REASON = 'Robo caller seen on three offers';

beforeAll(async () => {
  ids = await suite.trackerSeed('Fraud', { title: 'Solar', vertical: 'Solar', payout: 25 });
});

/** A completed call of the tracker from CALLER; answers the lead's id. */
async function completedCall(callId: string) {
  const answer = await suite.seededCall(ids, {
    call_id: callId,
    caller: CALLER,
    event: 'completed',
    duration: 140,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.id;
}

describe('Block this caller in Chromium', () => {
  it('blocks a call’s caller from its detail; the next call from the number is not payable', async () => {
    const first = await completedCall('FRAUD-CALL-1');
    await suite.asAdmin('fraud-block-journey', async (page) => {
      const leadsLink = page
        .getByRole('navigation')
        .getByRole('link', { name: 'Leads', exact: true });
      await leadsLink.click();
      await expectPath(page, '/admin/leads');
      const firstRow = page.locator('tbody tr').filter({ hasText: 'FRAUD-CALL-1' });
      await firstRow.getByRole('link').first().click();
      await expectPath(page, `/admin/leads/${first}`);

      await page.getByRole('button', { name: 'Block this caller' }).click();
      const dialog = page.getByRole('dialog', { name: 'Block this caller' });
      await dialog.getByRole('textbox', { name: 'Reason' }).fill(REASON);
      await saveScreenshot(page, 'fraud-block-dialog-desktop');
      await dialog.getByRole('button', { name: 'Block', exact: true }).click();
      await expectToast(page, 'Caller blocked');
      await page.getByText(`This caller is blocked`).waitFor();

      // The next call from the number: recorded, rejected with the block's reason.
      const second = await completedCall('FRAUD-CALL-2');
      expect(second).not.toBe(first);
      await leadsLink.click();
      await expectPath(page, '/admin/leads');
      const secondRow = page.locator('tbody tr').filter({ hasText: 'FRAUD-CALL-2' });
      await secondRow.waitFor();
      const status = secondRow.getByLabel(/^Status of the lead/);
      expect(await status.inputValue()).toBe('Rejected');
      // Not payable: nothing earned for it (the offer's payout struck through).
      expect(await secondRow.textContent()).toContain('$0.00');
      await saveScreenshot(page, 'fraud-blocked-call-in-leads-desktop');

      await secondRow.getByRole('link').first().click();
      await expectPath(page, `/admin/leads/${second}`);
      await page.getByText(REASON).first().waitFor();
      await saveScreenshot(page, 'fraud-blocked-call-detail-desktop');
    });
  });
});
