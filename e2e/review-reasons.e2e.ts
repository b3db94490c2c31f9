import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import { passwordToken, signUpPublisherViaApi } from './support/api.ts';
import { saveScreenshot } from './support/browser.ts';
import { formOf, mp3, pdf } from './support/files.ts';
import { waitForMail } from './support/mailbox.ts';
import {
  adminAccessToken,
  api,
  approvedPublisher,
  asAdmin,
  createOffer,
  journey,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectPath, expectToast, signInViaUi, uniqueEmail } from './support/ui.ts';

// Issue 16 items 2 and 3 in the browser: the admin opens a submission before deciding, rejects
// with a reason; the publisher reads it and submits new files; the admin sees both submissions
// and approves; two sign-ups are rejected together with one reason.

withServerAndBrowser();
let admin: string;
const publisher = {
  name: 'Rhea Reasons',
  email: uniqueEmail('reasons-pub'),
  password: 'publisher-pass-1',
};
let offer: { id: string; title: string };

beforeAll(async () => {
  admin = await adminAccessToken();
  await approvedPublisher(admin, publisher);
  offer = await createOffer(admin, {
    title: 'Reasons Medicare Inbound',
    vertical: 'Medicare',
    payout: 30,
    script_instructions: 'Read the disclosure first.',
  });
  await createOffer(admin, { title: 'Reasons Other Offer', vertical: 'Solar', payout: 10 });
  const pub = await passwordToken(server.url, publisher.email, publisher.password);
  const draft = await api<{ id: string }>(pub, 'POST', 'publisher/applications', {
    offer_id: offer.id,
  });
  const form = formOf(['media', mp3('first-call.mp3')], ['document', pdf('first-script.pdf')]);
  await api(pub, 'POST', `publisher/applications/${draft.id}/compliance`, form);
});

/** An admin journey that may raise no page error. */
const asCleanAdmin = (name: string, steps: (page: Page) => Promise<void>) =>
  asAdmin(name, async (page, errors) => {
    await steps(page);
    expect(errors).toEqual([]);
  });

describe('reviewer reasons, resubmission and bulk decisions (issue 16)', () => {
  it('the admin opens the submission, rejects with a reason; the publisher reads it and submits new files; the admin sees both and approves', async () => {
    await asCleanAdmin('reasons-reject', async (page) => {
      await page.goto('/admin/applications');
      // Filter by offer and status.
      const offerFilter = page.getByRole('combobox', { name: 'Offer', exact: true });
      await offerFilter.click();
      await offerFilter.fill('Reasons Medicare');
      await page.getByRole('option', { name: offer.title }).click();
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Pending' }).click();
      const row = page.getByRole('row').filter({ hasText: publisher.email });
      await row.getByText('Pending').waitFor();
      await expect(
        page.getByRole('row').filter({ hasText: 'Reasons Other Offer' }).count(),
      ).resolves.toBe(0);

      // No blind decision in the row: Review opens the recordings and the document.
      await expect(row.getByRole('button', { name: /^Approve/ }).count()).resolves.toBe(0);
      await row.getByRole('button', { name: /^Review the application/ }).click();
      const review = page.getByRole('dialog', { name: 'Review application' });
      await review.getByText('first-script.pdf').waitFor();
      await review.locator('audio').waitFor();
      await saveScreenshot(page, 'reasons-review-first');
      expect(await seriousAxeProblems(page, 'application review')).toEqual([]);

      await review.getByRole('button', { name: /^Reject/ }).click();
      const reject = page.getByRole('dialog', { name: 'Reject this application?' });
      await reject.getByRole('button', { name: 'Reject' }).click();
      await reject.getByText('Choose a reason').waitFor();
      await reject.getByRole('radio', { name: 'Another reason (see the note)' }).check();
      await reject.getByRole('button', { name: 'Reject' }).click();
      await reject.getByText('Write the reason the publisher will read').waitFor();
      await reject
        .getByLabel('Note to the publisher')
        .fill('The disclosure is missing from the call.');
      await saveScreenshot(page, 'reasons-reject-dialog');
      expect(await seriousAxeProblems(page, 'reject dialog')).toEqual([]);
      await reject.getByRole('button', { name: 'Reject' }).click();
      await expectToast(page, 'Application Updated');
      await review.waitFor({ state: 'hidden' });
    });

    const mail = await waitForMail(server.url, publisher.email, /was not approved/);
    expect(mail.text).toContain("The reviewer's reason: The disclosure is missing from the call.");

    await journey('reasons-resubmit', async (page, errors) => {
      await signInViaUi(page, publisher.email, publisher.password);
      await expectPath(page, '/dashboard');
      await page.goto('/dashboard/offers');
      const card = page.locator('.mantine-Card-root').filter({ hasText: offer.title });
      await card.getByText('The disclosure is missing from the call.').waitFor();
      await saveScreenshot(page, 'reasons-publisher-card');
      expect(await seriousAxeProblems(page, 'publisher offers')).toEqual([]);
      await card.getByRole('button', { name: `Submit new files: ${offer.title}` }).click();
      const dialog = page.getByRole('dialog', { name: `Submit new files for ${offer.title}` });
      await dialog.locator('input[name="media"]').setInputFiles([mp3('second-call.mp3')]);
      await dialog.locator('input[name="document"]').setInputFiles([pdf('second-script.pdf')]);
      await dialog.getByRole('button', { name: 'Submit Application' }).click();
      await expectToast(page, 'Applied. Thank you.');
      await card.getByText('Pending').waitFor();
      expect(errors).toEqual([]);
    });

    await asCleanAdmin('reasons-history', async (page) => {
      await page.goto('/admin/applications?status=pending');
      const row = page.getByRole('row').filter({ hasText: publisher.email });
      await row.getByText('Resubmitted (2)').waitFor();
      await row.getByRole('button', { name: /^Review the application/ }).click();
      const review = page.getByRole('dialog', { name: 'Review application' });
      await review.getByText('second-script.pdf').waitFor();
      const earlier = review.getByTestId('earlier-submission');
      await earlier.getByText('The disclosure is missing from the call.').waitFor();
      await earlier.getByText('first-script.pdf').waitFor();
      await saveScreenshot(page, 'reasons-review-history');
      expect(await seriousAxeProblems(page, 'application history')).toEqual([]);
      await review.getByRole('button', { name: /^Approve/ }).click();
      await expectToast(page, 'Application Updated');
    });
  });

  it('rejects two pending sign-ups at once with one reason; each is e-mailed it', async () => {
    const a = uniqueEmail('bulk-a');
    const b = uniqueEmail('bulk-b');
    await signUpPublisherViaApi(server.url, a, 'publisher-pass-1', { full_legal_name: 'Bulk Ann' });
    await signUpPublisherViaApi(server.url, b, 'publisher-pass-1', { full_legal_name: 'Bulk Ben' });
    await asCleanAdmin('reasons-bulk-publishers', async (page) => {
      await page.goto('/admin/publishers?status=pending&q=bulk-');
      await page.getByRole('checkbox', { name: 'Select Bulk Ann' }).check();
      await page.getByRole('checkbox', { name: 'Select Bulk Ben' }).check();
      await page.getByText('2 publishers selected').waitFor();
      await page.getByRole('button', { name: 'Reject selected' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reject 2 publishers?' });
      // Rejecting sign-ups offers their reasons, not a block's (issue 27 item 4).
      expect(
        await dialog
          .getByRole('radio', { name: 'Suspected fraudulent or low-quality traffic' })
          .count(),
      ).toBe(0);
      await dialog.getByRole('radio', { name: 'The profile is incomplete' }).check();
      await saveScreenshot(page, 'reasons-bulk-publishers');
      expect(await seriousAxeProblems(page, 'bulk reject')).toEqual([]);
      await dialog.getByRole('button', { name: 'Reject selected' }).click();
      await expectToast(page, 'Publishers Updated', '2 publishers rejected.');
      await page.getByText('No publishers match these filters.').waitFor();
    });
    for (const to of [a, b]) {
      const mail = await waitForMail(server.url, to, /was not approved/);
      expect(mail.text).toContain('The profile is incomplete.');
    }
  });
});
