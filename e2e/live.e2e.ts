import { beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import * as suite from './support/suite.ts';
import { expectPath } from './support/ui.ts';

/**
 * Issue 32 in a browser: Admin → Live shows a call a tracker posts within 2 s of the postback's
 * answer, ringing (in progress) first, then completed, updated in place.
 */

suite.withServerAndBrowser();
let ids: suite.TrackerIds;

beforeAll(async () => {
  ids = await suite.trackerSeed('Live', { title: 'Live', vertical: 'Auto', payout: 20 });
});

/** One event of the tracker's call; answers the lead's id and when the answer came. */
async function post(event: Record<string, unknown>) {
  const answer = await suite.seededCall(ids, {
    call_id: 'LIVE-CALL-1',
    caller: '+1 (312) 555-0142',
    ...event,
  });
  expect(answer.status).toBe(200);
  return { id: answer.body.id, answeredAt: Date.now() };
}

describe('Admin → Live in Chromium', () => {
  it('shows a tracker’s call within 2 s, in progress, then completed', async () => {
    await suite.asAdmin('live-journey', async (page) => {
      await page.getByRole('navigation').getByRole('link', { name: 'Live', exact: true }).click();
      await expectPath(page, '/admin/live');
      await page.getByTestId('live-status').getByText('Live', { exact: true }).waitFor();
      await page.getByText('No call is ringing or talking now.').waitFor();

      const ringing = await post({ event: 'incoming' });
      const inProgress = page
        .getByRole('region', { name: 'Calls in progress' })
        .locator(`[data-call-id="${ringing.id}"]`);
      await inProgress.waitFor({ timeout: 2000 });
      expect(Date.now() - ringing.answeredAt).toBeLessThan(2000);
      expect(await inProgress.getByTestId('live-call-event').textContent()).toBe('Ringing');
      await saveScreenshot(page, 'live-in-progress-desktop');

      const done = await post({ event: 'completed', duration: 95 });
      expect(done.id).toBe(ringing.id);
      const row = page
        .getByRole('region', { name: 'Last calls' })
        .locator(`[data-call-id="${ringing.id}"]`);
      await row
        .getByTestId('live-call-event')
        .getByText('Completed', { exact: true })
        .waitFor({ timeout: 2000 });
      expect(Date.now() - done.answeredAt).toBeLessThan(2000);
      // Updated in place: one row for the call, and it left the calls in progress.
      expect(await page.locator(`[data-call-id="${ringing.id}"]`).count()).toBe(1);
      await page.getByText('No call is ringing or talking now.').waitFor({ timeout: 2000 });
      expect(await row.textContent()).toContain('1:35');
      const calls = page.getByRole('region', { name: 'Calls today' });
      expect(await calls.getByTestId('stat-value').textContent()).toBe('1');
      await saveScreenshot(page, 'live-completed-desktop');
    });
  });
});
