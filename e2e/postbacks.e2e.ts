import { describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import {
  adminAccessToken,
  approvedPublisher,
  asUser,
  createOffer,
  recordLeads,
  withServerAndReceiver,
} from './support/suite.ts';
import { expectPath, expectToast, uniqueEmail } from './support/ui.ts';

// Profile → Postbacks (issue 30): a publisher points their `approved` postback at a local
// receiver, tests it, a call pays, and the delivery shows in their log. The receiver is on
// 127.0.0.1, so this portal allows private outbound addresses.
const receiver = withServerAndReceiver(() => ({ status: 200, body: 'conversion recorded' }));

const publisher = { name: 'Pia Tracker', email: uniqueEmail('pub'), password: 'pub-pass-12' };

describe('Postbacks in Chromium', () => {
  it('sets a postback URL, tests it, a call pays, the delivery shows in the log', async () => {
    const admin = await adminAccessToken();
    const publisherId = await approvedPublisher(admin, publisher);
    const offer = await createOffer(admin, {
      title: 'Postback Solar',
      vertical: 'Solar',
      payout: 35,
    });
    const template = `${receiver().url}/pb?call={call_id}&payout={payout}&status={status}`;

    await asUser(publisher.email, publisher.password, 'postbacks-publisher', async (page) => {
      await expectPath(page, '/dashboard');
      await page.getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('link', { name: 'Set Up Postbacks' }).click();
      await expectPath(page, '/dashboard/postbacks');
      await page.getByText('No deliveries yet.').waitFor();
      await page.getByRole('textbox', { name: 'URL for Call payable (approved)' }).fill(template);

      await page.getByRole('button', { name: 'Test Call payable (approved)' }).click();
      await page.getByText(/^Answered 200 in \d+ ms$/).waitFor();
      await page.getByText('conversion recorded').waitFor();
      expect(receiver().requests).toHaveLength(1);
      expect(receiver().requests[0]!.url).toMatch(
        /^\/pb\?call=[^&]+&payout=[\d.]+&status=approved$/,
      );

      await page.getByRole('button', { name: 'Save Postbacks' }).click();
      await expectToast(page, 'Postbacks Saved');
      expect(await seriousAxeProblems(page)).toEqual([]);

      // A call pays: the admin records an approved $35 call for this publisher.
      await recordLeads(admin, publisherId, offer.id, [[35, 'approved']]);
      await expect.poll(() => receiver().requests.length, { timeout: 15_000 }).toBe(2);
      expect(receiver().requests[1]!.url).toMatch(/&payout=35\.00&status=approved$/);

      // The delivery shows in their log, delivered with the receiver's 200.
      await page.reload();
      const row = page.getByRole('row', { name: /approved/ }).filter({ hasText: 'Delivered' });
      await row.waitFor();
      expect(await row.textContent()).toContain('200');
      await row.getByRole('button', { name: /^Details of approved/ }).click();
      const detail = page.getByRole('dialog', { name: 'Delivery' });
      await detail.getByText('Attempt 1: 200', { exact: false }).waitFor();
      await detail.getByText('conversion recorded').waitFor();
    });
  });
});
