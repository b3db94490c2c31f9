import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pdfFile, polyglotFiles } from '../server/test/fixtures.ts';
import { seriousAxeProblems } from './support/a11y.ts';
import { passwordToken, signUpPublisherViaApi } from './support/api.ts';
import { saveScreenshot, viewports } from './support/browser.ts';
import { formOf, mp3, mp4, pdf } from './support/files.ts';
import { E2E_ADMIN } from './support/server.ts';
import { api, journey, publisherIdOf, server, withServerAndBrowser } from './support/suite.ts';
import {
  expectPath,
  expectToast,
  finishSignIn,
  pageOverflow,
  pickOption,
  rowWith,
  sidewaysOutside,
  signInViaUi,
  uniqueEmail,
} from './support/ui.ts';

withServerAndBrowser();

const publisher = {
  name: 'Paula Pipeline',
  email: uniqueEmail('paula'),
  password: 'paula-pass-1',
};

/** What the API seeding created: offers with a pending application each. */
type Seed = {
  /** Approved and given an IO in the applications journey. */
  ioOffer: { id: string; title: string };
  /** Rejected from the applications list. */
  rejectOffer: { id: string; title: string };
  /** Reviewed (media played) and approved in the compliance journey. */
  reviewOffer: { id: string; title: string };
};
let seed: Seed | null = null;

// ---------------------------------------------------------------------------
// Seeding through the real APIs
// ---------------------------------------------------------------------------

const passwordGrant = (email: string, password: string) =>
  passwordToken(server.url, email, password);

/** Sign-up, admin approval, offers, and a submitted compliance application per offer. */
async function seedApplications(): Promise<Seed> {
  if (seed) return seed;
  await signUpPublisherViaApi(server.url, publisher.email, publisher.password, {
    full_legal_name: publisher.name,
    business_legal_name: 'Pipeline Media LLC',
    address: '5 Harbor Road, Tampa',
    phone_number: '+1 555 0150',
    whatsapp_number: '+1 555 0151',
    ms_teams_id: 'paula.pipeline',
  });

  const admin = await passwordGrant(E2E_ADMIN.email, E2E_ADMIN.password);
  const publisherId = await publisherIdOf(admin, publisher.email);
  await api(admin, 'PATCH', `admin/publishers/${publisherId}`, { status: 'approved' });

  const makeOffer = (title: string, payout: number) =>
    api<{ id: string; title: string }>(admin, 'POST', 'admin/offers', {
      title,
      vertical: 'Medicare',
      payout,
      script_instructions: 'Greet the caller and confirm their zip code.',
    });
  const ioOffer = await makeOffer('Seeded IO Offer', 42.5);
  const rejectOffer = await makeOffer('Seeded Reject Offer', 18);
  const reviewOffer = await makeOffer('Seeded Review Offer', 35.25);

  const pub = await passwordGrant(publisher.email, publisher.password);
  for (const offer of [ioOffer, rejectOffer, reviewOffer]) {
    const draft = await api<{ id: string }>(pub, 'POST', 'publisher/applications', {
      offer_id: offer.id,
    });
    const form = formOf(
      ['media', mp3('intro-call.mp3')],
      ['media', mp4('screen-capture.mp4')],
      ['document', pdf('script.pdf')],
    );
    await api(pub, 'POST', `publisher/applications/${draft.id}/compliance`, form);
  }
  // Uploads are parsed, so only a file damaged in storage afterwards is unplayable: replace
  // the stored videos with a bare MP4 container (no movie header) for the error screens.
  for (const file of readdirSync(server.dataDir, { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('-screen-capture.mp4')) {
      writeFileSync(path.join(server.dataDir, file), polyglotFiles.mp4NoTrack);
    }
  }
  seed = { ioOffer, rejectOffer, reviewOffer };
  return seed;
}

// ---------------------------------------------------------------------------
// Browser helpers
// ---------------------------------------------------------------------------

/** Runs a journey as the admin in a fresh context; a failure leaves a screenshot. */
async function adminJourney(
  name: string,
  steps: (page: Page) => Promise<void>,
  viewport: { width: number; height: number } = viewports.desktop,
) {
  await journey(
    `admin-b-${name}`,
    async (page) => {
      await signInViaUi(page, E2E_ADMIN.email, E2E_ADMIN.password);
      // An admin without an app goes to the two-factor enrolment: no "Login Successful" there.
      await finishSignIn(page);
      await expectPath(page, '/admin');
      await steps(page);
    },
    viewport,
  );
}

/** Opens an admin screen from the sidebar, as a person would. */
async function openFromSidebar(page: Page, label: string, path: string) {
  // Phone width: the sidebar sits behind the burger.
  if ((page.viewportSize()?.width ?? 1280) < 768) {
    await page.getByRole('button', { name: 'Open navigation' }).click();
  }
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
  await expectPath(page, path);
  await page.getByRole('heading', { level: 1, name: label }).waitFor();
}

/** Waits until open dialogs have finished their opening transition (axe and screenshots). */
async function waitForDialogSettled(page: Page) {
  await page.waitForFunction(() =>
    [
      ...document.querySelectorAll<HTMLElement>('.mantine-Modal-content, .mantine-Modal-overlay'),
    ].every((el) => {
      const style = getComputedStyle(el);
      const still = ['none', '', 'matrix(1, 0, 0, 1, 0, 0)'].includes(style.transform);
      return style.opacity === '1' && still;
    }),
  );
}

/** The admin lists of this file; `action` finds a row's primary action (issue 16: on a phone). */
const screens = [
  {
    label: 'Offers',
    path: '/admin/offers',
    empty: 'No offers yet.',
    action: (row: Locator) => row.getByRole('button', { name: /^Edit offer/ }),
  },
  {
    label: 'Applications',
    path: '/admin/applications',
    empty: 'No applications yet.',
    action: (row: Locator) => row.getByRole('button', { name: /^Review the application/ }),
  },
  {
    label: 'Compliance',
    path: '/admin/compliance',
    empty: 'No compliance submissions yet.',
    action: (row: Locator) => row.getByRole('button', { name: /^Review submission/ }),
  },
  {
    label: 'Leads',
    path: '/admin/leads',
    empty: 'No leads yet.',
    action: (row: Locator) => row.getByRole('combobox', { name: /^Status of the lead/ }),
  },
  {
    label: 'Payouts',
    path: '/admin/payouts',
    empty: 'No payouts recorded yet.',
    action: (row: Locator) => row.getByRole('button', { name: /^Statement PDF/ }),
  },
] as const;

// ---------------------------------------------------------------------------
// Journeys
// ---------------------------------------------------------------------------

describe('admin screens B in Chromium', () => {
  it('shows each screen empty, and the payout form says No Publishers Found', async () => {
    await adminJourney('empty', async (page) => {
      for (const s of screens) {
        await openFromSidebar(page, s.label, s.path);
        await page.getByText(s.empty).waitFor();
        await saveScreenshot(page, `admin-b-${s.label.toLowerCase()}-empty-desktop`);
      }
      await page.getByRole('button', { name: 'Record Payout' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record Payout' });
      await dialog.getByText('No Publishers Found').waitFor();
      await waitForDialogSettled(page);
      expect(await dialog.getByRole('button', { name: 'Record Payout' }).isDisabled()).toBe(true);
      await saveScreenshot(page, 'admin-b-payout-no-publishers');
      expect(await seriousAxeProblems(page)).toEqual([]);
    });
  });

  it('creates, edits and deletes an offer; a used offer cannot be deleted', async () => {
    const s = await seedApplications();
    await adminJourney('offers', async (page) => {
      await openFromSidebar(page, 'Offers', '/admin/offers');
      await rowWith(page, 'Offers', s.ioOffer.title).waitFor();

      await page.getByRole('button', { name: 'Create Offer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Offer' });
      await dialog.getByRole('button', { name: 'Create Offer' }).click();
      await dialog.getByText('Title is required.').waitFor();
      await dialog.getByText('Vertical is required.').waitFor();
      await dialog.getByText('Payout is required.').waitFor();
      await saveScreenshot(page, 'admin-b-offer-form-errors');

      await dialog.getByRole('textbox', { name: 'Title' }).fill('Final Expense Inbound');
      await dialog.getByRole('combobox', { name: 'Vertical' }).fill('Final Expense');
      await dialog.getByRole('textbox', { name: 'Payout' }).fill('12.5');
      await dialog.getByRole('textbox', { name: 'Script instructions' }).fill('Ask for age.');
      await dialog.getByRole('button', { name: 'Create Offer' }).click();
      await expectToast(page, 'Offer Created');
      await dialog.waitFor({ state: 'hidden' });
      const row = rowWith(page, 'Offers', 'Final Expense Inbound');
      await row.getByText('$12.50').waitFor();
      await row.getByText('Active').waitFor();
      await saveScreenshot(page, 'admin-b-offers-desktop');

      await page.getByRole('button', { name: 'Edit offer Final Expense Inbound' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Offer' });
      expect(await edit.getByRole('textbox', { name: 'Title' }).inputValue()).toBe(
        'Final Expense Inbound',
      );
      await edit.getByRole('textbox', { name: 'Title' }).fill('Final Expense Premium');
      await edit.getByRole('textbox', { name: 'Payout' }).fill('30');
      await edit.getByText('Inactive', { exact: true }).click();
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Offer Updated');
      const edited = rowWith(page, 'Offers', 'Final Expense Premium');
      await edited.getByText('$30.00').waitFor();
      await edited.getByText('Inactive').waitFor();

      await page.getByRole('button', { name: 'Delete offer Final Expense Premium' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this offer?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, 'Offer Deleted');
      await edited.waitFor({ state: 'detached' });

      // An offer with applications is refused, and the message suggests making it inactive.
      await page.getByRole('button', { name: `Delete offer ${s.ioOffer.title}` }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, 'Failed to delete offer', 'Make it inactive instead.');
      await rowWith(page, 'Offers', s.ioOffer.title).waitFor();

      // Filter and search narrow the list on the server.
      await page.getByRole('textbox', { name: 'Search' }).fill('Review');
      await rowWith(page, 'Offers', s.reviewOffer.title).waitFor();
      await rowWith(page, 'Offers', s.ioOffer.title).waitFor({ state: 'detached' });
    });
  });

  it('approves an application and uploads its IO; rejects another after confirming', async () => {
    const s = await seedApplications();
    await adminJourney('applications', async (page) => {
      await openFromSidebar(page, 'Applications', '/admin/applications');
      const row = rowWith(page, 'Applications', s.ioOffer.title);
      await row.getByText(publisher.name).waitFor();
      await row.getByText(publisher.email).waitFor();
      await row.getByText('Pending').waitFor();
      await saveScreenshot(page, 'admin-b-applications-desktop');

      // Approve/Reject happen in the review of the submission (issue 16), not blind in the row.
      await row.getByRole('button', { name: /^Review the application/ }).click();
      const review = page.getByRole('dialog', { name: 'Review application' });
      await review.getByRole('button', { name: /^Approve/ }).click();
      await expectToast(page, 'Application Updated');
      await review.waitFor({ state: 'hidden' });
      await row.getByText('Approved').waitFor();

      const chooser = page.waitForEvent('filechooser');
      await row.getByRole('button', { name: /^Upload IO/ }).click();
      await (await chooser).setFiles({
        name: 'insertion-order.pdf',
        mimeType: 'application/pdf',
        buffer: pdfFile,
      });
      await expectToast(page, 'IO Uploaded Successfully');
      await row.getByText('IO Uploaded').waitFor();
      expect(await row.getByRole('button', { name: /^Upload IO/ }).count()).toBe(0);
      const ioHref = await row.getByRole('link', { name: /Open the IO/ }).getAttribute('href');
      const io = await page.request.get(ioHref ?? '');
      expect(io.status()).toBe(200);
      expect(io.headers()['content-type']).toContain('application/pdf');

      const rejectRow = rowWith(page, 'Applications', s.rejectOffer.title);
      await rejectRow.getByRole('button', { name: /^Review the application/ }).click();
      await review.getByRole('button', { name: /^Reject/ }).click();
      const confirm = page.getByRole('dialog', { name: 'Reject this application?' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await rejectRow.getByText('Pending').waitFor();
      await review.getByRole('button', { name: /^Reject/ }).click();
      await confirm.getByRole('radio', { name: /do not follow the offer’s script/ }).check();
      await confirm.getByRole('button', { name: 'Reject' }).click();
      await expectToast(page, 'Application Updated');
      await rejectRow.getByText('Rejected').waitFor();

      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Pending' }).click();
      await rowWith(page, 'Applications', s.reviewOffer.title).waitFor();
      await row.waitFor({ state: 'detached' });
    });
  });

  it('reviews a compliance submission, plays its media, opens the document, approves', async () => {
    const s = await seedApplications();
    await adminJourney('compliance', async (page) => {
      await openFromSidebar(page, 'Compliance', '/admin/compliance');
      const row = rowWith(page, 'Compliance submissions', s.reviewOffer.title);
      await row.getByText('Pending').waitFor();
      await saveScreenshot(page, 'admin-b-compliance-desktop');
      await row.getByRole('button', { name: /^Review/ }).click();

      const dialog = page.getByRole('dialog', { name: 'Review compliance submission' });
      await dialog.getByText(publisher.name).waitFor();
      const audio = dialog.locator('audio');
      await audio.waitFor();
      // The mp3 really loads from its signed URL: metadata arrives and no media error fires.
      await page.waitForFunction(
        () => {
          const el = document.querySelector<HTMLAudioElement>('[role="dialog"] audio');
          return el !== null && (el.readyState > 0 || el.error !== null);
        },
        undefined,
        { timeout: 15_000 },
      );
      const state = await audio.evaluate((el: HTMLAudioElement) => ({
        readyState: el.readyState,
        error: el.error?.code ?? null,
        src: el.currentSrc,
      }));
      expect(state.error).toBeNull();
      expect(state.readyState).toBeGreaterThan(0);
      expect(state.src).toContain('/files/compliance-questionnaires/');
      // The stored mp4 is a bare container without a movie header: Chromium's media error
      // event fires and the page says so in the spec's words instead of a dead player.
      const video = dialog.getByText('screen-capture.mp4').locator('..');
      await video.getByText('Could not load file').waitFor();
      await video.getByRole('button', { name: 'Try again' }).waitFor();

      const docLink = dialog.getByRole('link', { name: /Open document/ });
      expect(await docLink.getAttribute('target')).toBe('_blank');
      const doc = await page.request.get((await docLink.getAttribute('href')) ?? '');
      expect(doc.status()).toBe(200);
      expect(doc.headers()['content-type']).toContain('application/pdf');
      await saveScreenshot(page, 'admin-b-compliance-review-desktop');

      await dialog.getByRole('button', { name: /^Approve/ }).click();
      await expectToast(page, 'Application Updated');
      await dialog.getByText('Approved').waitFor();
      expect(await dialog.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
      await page.keyboard.press('Escape');
      await row.getByText('Approved').waitFor();
    });
  });

  it("shows the spec's file errors and loading errors, and recovers on retry", async () => {
    const s = await seedApplications();
    await adminJourney('errors', async (page) => {
      // A list that fails to load: the spec's toast, an error state, and Retry that works.
      let failOffers = true;
      await page.route('**/api/v1/admin/offers?**', (route) =>
        failOffers
          ? route.fulfill({
              status: 503,
              contentType: 'application/json',
              body: JSON.stringify({
                error: { code: 'unavailable', message: 'The database is restarting.' },
              }),
            })
          : route.continue(),
      );
      await openFromSidebar(page, 'Offers', '/admin/offers');
      await expectToast(page, 'Error loading offers', 'The database is restarting.');
      const retry = page.getByRole('button', { name: 'Retry' });
      await retry.waitFor();
      failOffers = false;
      await retry.click();
      await rowWith(page, 'Offers', s.ioOffer.title).waitFor();

      // Submissions whose stored links are missing or unusable say so in the spec's words.
      await page.route('**/api/v1/admin/compliance?**', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as {
          items: { offer_title: string; media: { name: string; url: string }[] }[];
        };
        for (const item of body.items) {
          if (item.offer_title !== s.ioOffer.title) continue;
          item.media = [
            { name: 'gone.mp3', url: '' },
            { name: 'evil.mp3', url: 'javascript:alert(1)' },
          ];
        }
        await route.fulfill({ response: res, json: body });
      });
      await openFromSidebar(page, 'Compliance', '/admin/compliance');
      await rowWith(page, 'Compliance submissions', s.ioOffer.title)
        .getByRole('button', { name: /^Review/ })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Review compliance submission' });
      await dialog.getByText('gone.mp3').locator('..').getByText('File not available').waitFor();
      await dialog.getByText('evil.mp3').locator('..').getByText('Invalid file URL').waitFor();
      expect(await dialog.locator('audio').count()).toBe(0);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await page.unroute('**/api/v1/admin/compliance?**');

      // A media file that cannot be played; asking for fresh links fails too.
      await rowWith(page, 'Compliance submissions', s.reviewOffer.title)
        .getByRole('button', { name: /^Review/ })
        .click();
      const video = dialog.getByText('screen-capture.mp4').locator('..');
      await video.getByText('Could not load file').waitFor();
      await page.route('**/api/v1/admin/compliance?**', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'internal_error', message: 'Signing failed.' } }),
        }),
      );
      await video.getByRole('button', { name: 'Try again' }).click();
      await expectToast(page, 'Could not get file URL', 'Signing failed.');
    });
  });

  it('records a payout and sees it listed', async () => {
    await seedApplications();
    await adminJourney('payouts', async (page) => {
      await openFromSidebar(page, 'Payouts', '/admin/payouts');
      await page.getByRole('button', { name: 'Record Payout' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record Payout' });
      await dialog.getByRole('button', { name: 'Record Payout' }).click();
      await expectToast(page, 'Validation Error', 'Please select a publisher.');
      await dialog.getByText('Amount is required.').waitFor();

      await pickOption(dialog, 'Publisher', publisher.name);
      await dialog.getByRole('textbox', { name: 'Amount' }).fill('250.75');
      await dialog.getByRole('textbox', { name: 'Notes' }).fill('March payout, wire 7731');
      await dialog.getByRole('button', { name: 'Record Payout' }).click();
      await expectToast(page, 'Payout Created');
      await dialog.waitFor({ state: 'hidden' });
      const row = rowWith(page, 'Payouts', publisher.name);
      await row.getByText('$250.75').waitFor();
      await row.getByText('March payout, wire 7731').waitFor();
      await saveScreenshot(page, 'admin-b-payouts-desktop');

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const csv = await (await download).createReadStream();
      let text = '';
      for await (const chunk of csv) text += chunk;
      expect(text).toContain('250.75');
      expect(text).toContain(publisher.email);
    });
  });

  it('records a lead by hand with the offer payout, changes its status, exports the CSV', async () => {
    const s = await seedApplications();
    await adminJourney('leads', async (page) => {
      await openFromSidebar(page, 'Leads', '/admin/leads');
      await page.getByRole('button', { name: 'Record Lead' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record Lead' });
      await dialog.getByRole('button', { name: 'Record Lead' }).click();
      await dialog.getByText('Please select a publisher.').waitFor();
      await dialog.getByText('Please select an offer.').waitFor();

      await pickOption(dialog, 'Publisher', publisher.name);
      await pickOption(dialog, 'Offer', s.reviewOffer.title);
      expect(await dialog.getByRole('textbox', { name: 'Payout' }).inputValue()).toBe('$35.25');
      await dialog.getByRole('textbox', { name: 'Call duration (min)' }).fill('7');
      await saveScreenshot(page, 'admin-b-lead-form');
      await dialog.getByRole('button', { name: 'Record Lead' }).click();
      await expectToast(page, 'Lead Created');
      await dialog.waitFor({ state: 'hidden' });
      const row = rowWith(page, 'Leads', s.reviewOffer.title);
      await row.getByText('$35.25').waitFor();
      await row.getByText('7 min').waitFor();

      // A status set by hand asks for the reason first.
      await row.getByRole('combobox', { name: /^Status of the lead/ }).click();
      await page.getByRole('option', { name: 'Approved' }).click();
      const reasonDialog = page.getByRole('dialog', { name: 'Change Lead Status' });
      await reasonDialog.getByRole('button', { name: 'Set to Approved' }).click();
      await reasonDialog.getByText('Choose a reason for the change.').waitFor();
      await reasonDialog.getByRole('combobox', { name: /^Reason/ }).click();
      await page.getByRole('option', { name: 'Recording reviewed' }).click();
      await reasonDialog.getByRole('button', { name: 'Set to Approved' }).click();
      await expectToast(page, 'Lead Updated');
      await reasonDialog.waitFor({ state: 'hidden' });
      await saveScreenshot(page, 'admin-b-leads-desktop');

      // The status filter runs on the server.
      await page.getByRole('combobox', { name: 'Status', exact: true }).click();
      await page.getByRole('option', { name: 'Rejected' }).click();
      await page.getByText('No leads match these filters.').waitFor();
      await page.getByRole('combobox', { name: 'Status', exact: true }).click();
      await page.getByRole('option', { name: 'Approved' }).click();
      await row.waitFor();

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const csv = await (await download).createReadStream();
      let text = '';
      for await (const chunk of csv) text += chunk;
      expect(text).toContain(s.reviewOffer.title);
      expect(text).toContain('35.25');
    });
  });

  it('fits a phone: every screen with data, no sideways scrolling, no serious axe issues', async () => {
    await seedApplications();
    await adminJourney(
      'phone',
      async (page) => {
        for (const s of screens) {
          await openFromSidebar(page, s.label, s.path);
          // Rows made by the seeding and by the journeys above (this one runs last).
          const tableName = s.label === 'Compliance' ? 'Compliance submissions' : s.label;
          const row = rowWith(
            page,
            tableName,
            s.label === 'Offers' ? 'Seeded IO Offer' : publisher.name,
          ).first();
          await row.waitFor();
          expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
          // The list's primary action, on the first card: on screen at 390 px (issue 16).
          expect(await sidewaysOutside(s.action(row)), s.label).toBeLessThanOrEqual(0);
          await saveScreenshot(page, `admin-b-${s.label.toLowerCase()}-phone`);
          expect(await seriousAxeProblems(page)).toEqual([]);
        }
        // Payouts' other tabs: a publisher's balance is picked for a run; a run exports its CSV.
        await page.getByRole('tab', { name: 'Balances' }).click();
        const balance = rowWith(page, 'Balances', publisher.name).first();
        await balance.waitFor();
        expect(
          await sidewaysOutside(
            balance.getByRole('checkbox', { name: `Select ${publisher.name}` }),
          ),
        ).toBeLessThanOrEqual(0);
        expect(
          await sidewaysOutside(page.getByRole('button', { name: 'Run payouts for selected' })),
        ).toBeLessThanOrEqual(0);
        expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
        await saveScreenshot(page, 'admin-b-balances-phone');
        expect(await seriousAxeProblems(page)).toEqual([]);
        await page.getByRole('tab', { name: 'Payout runs' }).click();
        const run = rowWith(page, 'Payout runs', 'Manual payout').first();
        await run.waitFor();
        expect(
          await sidewaysOutside(run.getByRole('button', { name: /^Export the run/ })),
        ).toBeLessThanOrEqual(0);
        expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
        await saveScreenshot(page, 'admin-b-runs-phone');
        expect(await seriousAxeProblems(page)).toEqual([]);

        await openFromSidebar(page, 'Compliance', '/admin/compliance');
        await page
          .getByRole('button', { name: /^Review/ })
          .first()
          .click();
        const dialog = page.getByRole('dialog', { name: 'Review compliance submission' });
        await dialog.locator('audio').waitFor();
        await waitForDialogSettled(page);
        await saveScreenshot(page, 'admin-b-compliance-review-phone');
        expect(await seriousAxeProblems(page)).toEqual([]);
      },
      viewports.phone,
    );
  });
});
