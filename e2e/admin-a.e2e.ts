import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfFile } from '../server/test/fixtures.ts';
import { seriousAxeProblems } from './support/a11y.ts';
import {
  authHeaders,
  confirmedBuyerViaApi,
  passwordToken,
  signUpBuyerViaApi,
  signUpPublisherViaApi,
} from './support/api.ts';
import { saveScreenshot, viewports } from './support/browser.ts';
import { waitForMail } from './support/mailbox.ts';
import {
  adminAccessToken,
  api,
  approvedPublisher,
  asAdmin,
  asPublisher,
  journey,
  pendingPublisher,
  publisherIdOf,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import {
  expectInsideWidth,
  expectPath,
  expectToast,
  pageOverflow,
  uniqueEmail,
} from './support/ui.ts';

/** A list's rows: table rows on wider screens, cards (list items) on a phone. */
const rowOrCard = (page: Page) => page.getByRole('row').or(page.getByRole('listitem'));

withServerAndBrowser();
let adminToken: string;

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A real PNG logo (a coloured bar with a white square), big enough to see in screenshots. */
function makeLogoPng(width = 240, height = 60): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const square = x > 12 && x < 48 && y > 12 && y < 48;
      const [r, g, b] = square ? [255, 255, 255] : [20 + x / 3, 90, 200];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  adminToken = await adminAccessToken();
});

const screens = [
  { path: '/admin', heading: 'Dashboard', empty: 'Quick Actions' },
  { path: '/admin/publishers', heading: 'Publishers', empty: 'No publishers have signed up yet.' },
  { path: '/admin/buyers', heading: 'Buyers', empty: 'No buyers have signed up yet.' },
  { path: '/admin/campaigns', heading: 'Campaigns', empty: 'No campaigns have been created yet.' },
  { path: '/admin/settings', heading: 'Settings', empty: 'Company' },
];

async function openScreen(page: Page, path: string, heading: string) {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  // Wait until no skeleton is left (the first answers are in).
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
}

describe('admin screens A in Chromium', () => {
  it('every screen shows its empty state on a fresh portal (desktop and phone)', async () => {
    for (const [size, viewport] of Object.entries(viewports)) {
      await asAdmin(
        `admin-empty-${size}`,
        async (page) => {
          for (const s of screens) {
            await openScreen(page, s.path, s.heading);
            await page.getByText(s.empty, { exact: true }).first().waitFor();
            await saveScreenshot(page, `admin-a-${s.heading.toLowerCase()}-empty-${size}`);
          }
          await openScreen(page, '/admin', 'Dashboard');
          await page.getByText('Pending Publishers').waitFor();
          await page
            .locator('.mantine-Card-root')
            .filter({ hasText: 'Total Payouts' })
            .getByText('$0.00', { exact: true })
            .waitFor();
        },
        viewport,
      );
    }
  });

  it('approve a pending publisher: the list shows Approved and the publisher can apply to offers', async () => {
    const pending = await pendingPublisher('pending-pub', 'publisher-pass-1');
    const { email } = pending;
    await api(adminToken, 'POST', 'admin/offers', {
      title: 'Solar Leads USA',
      vertical: 'Solar',
      payout: 42.5,
      script_instructions: 'Ask for the home owner.',
    });

    // Before approval the publisher sees offers but cannot apply.
    await asPublisher(pending, 'publisher-before-approval', async (pubPage) => {
      await pubPage.getByText('Your account is pending approval').first().waitFor();
    });

    await asAdmin('approve-publisher', async (page) => {
      await page.getByText('Pending Publishers').waitFor();
      await page
        .getByRole('navigation', { name: 'Admin navigation' })
        .getByRole('link', { name: 'Publishers' })
        .click();
      await expectPath(page, '/admin/publishers');
      await page.getByLabel('Search').fill(email);
      const row = rowOrCard(page).filter({ hasText: email });
      await row.getByText('Pending', { exact: true }).waitFor();
      // Only the spec's transitions are offered for a pending publisher.
      await expect(row.getByRole('button', { name: /^Block / }).count()).resolves.toBe(0);
      await expect(row.getByRole('button', { name: /^Unblock / }).count()).resolves.toBe(0);

      // Reject asks first; cancelling changes nothing.
      await row.getByRole('button', { name: 'Reject Api Publisher' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reject this publisher?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row.getByText('Pending', { exact: true }).waitFor();

      await row.getByRole('button', { name: 'Approve Api Publisher' }).click();
      await expectToast(page, 'Publisher Updated', 'Api Publisher has been approved.');
      await row.getByText('Approved', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Block Api Publisher' }).waitFor();

      // The details page: profile, the approval in the history.
      await row.getByRole('link', { name: 'Api Publisher' }).click();
      await page.getByRole('heading', { level: 1, name: 'Api Publisher' }).waitFor();
      await page.getByText('Api Publishing LLC').first().waitFor();
      await page.getByRole('heading', { name: 'History' }).waitFor();
      await page.getByRole('cell', { name: 'Approved', exact: true }).waitFor();
      await page.getByText('status: pending → approved').waitFor();
      await saveScreenshot(page, 'admin-a-publisher-detail-desktop');
    });

    const me = await api<{ status: string }>(
      await passwordToken(server.url, email, pending.password),
      'GET',
      'me',
    );
    expect(me.status).toBe('approved');
    const mail = await waitForMail(server.url, email, /approved/i);
    expect(mail.subject).toMatch(/approved/i);

    // After approval: no pending notice, and Apply Now is available on the offer.
    await asPublisher(pending, 'publisher-after-approval', async (page) => {
      await page.getByRole('heading', { name: /Welcome/ }).waitFor();
      await expect(page.getByText('Your account is pending approval').count()).resolves.toBe(0);
      await page.goto('/dashboard/offers');
      await page.getByText('Solar Leads USA').first().waitFor();
      const apply = page.getByRole('button', { name: 'Apply Now: Solar Leads USA' });
      await apply.waitFor();
      await expect(apply.isEnabled()).resolves.toBe(true);
    });
  });

  it('block asks for confirmation, signs the publisher out of new sign-ins, and unblock approves again', async () => {
    const email = uniqueEmail('block-pub');
    await approvedPublisher(adminToken, {
      name: 'Api Publisher',
      email,
      password: 'publisher-pass-2',
    });

    await asAdmin('block-publisher', async (page) => {
      await page.goto(`/admin/publishers?q=${encodeURIComponent(email)}`);
      const row = rowOrCard(page).filter({ hasText: email });
      await row.getByText('Approved', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Block Api Publisher' }).click();
      const dialog = page.getByRole('dialog', { name: 'Block this publisher?' });
      // A block needs a reason (issue 16): the publisher is e-mailed it.
      await dialog.getByRole('button', { name: 'Block' }).click();
      await dialog.getByText('Choose a reason').waitFor();
      await dialog.getByRole('radio', { name: 'The network’s policies were not followed' }).check();
      await dialog.getByRole('button', { name: 'Block' }).click();
      await expectToast(page, 'Publisher Updated', 'Api Publisher has been blocked.');
      await row.getByText('Blocked', { exact: true }).waitFor();

      // The status filter finds it among blocked ones.
      await page.getByLabel('Status', { exact: true }).first().click();
      await page.getByRole('option', { name: 'Blocked' }).click();
      await row.getByText('Blocked', { exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get('status')).toBe('blocked');

      await row.getByRole('button', { name: 'Unblock Api Publisher' }).click();
      await expectToast(page, 'Publisher Updated', 'Api Publisher has been unblocked.');
      await page.getByText('No publishers match these filters.').waitFor();
    });
    const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ email, password: 'publisher-pass-2' }),
    });
    expect(res.status).toBe(200);
  });

  it('agreement: a wrong file type says Upload Failed, a PDF is stored and opens from the details', async () => {
    const email = uniqueEmail('agreement-pub');
    await signUpPublisherViaApi(server.url, email, 'publisher-pass-3');
    const id = await publisherIdOf(adminToken, email);

    await asAdmin('agreement-upload', async (page) => {
      await page.goto(`/admin/publishers/${id}`);
      await page.getByText('No agreement uploaded yet.').waitFor();
      const input = page.locator('input[type="file"]').first();
      await input.setInputFiles({
        name: 'agreement.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('not an agreement'),
      });
      await expectToast(page, 'Upload Failed', 'The agreement must be a PDF, DOC or DOCX file.');

      // A file named .pdf whose content is not a PDF: the server refuses it.
      await input.setInputFiles({
        name: 'fake.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('plain text pretending'),
      });
      await expectToast(page, 'Upload Failed');

      // A real one-page PDF (the server parses uploads: a PDF without pages is refused).
      await input.setInputFiles({
        name: 'agreement.pdf',
        mimeType: 'application/pdf',
        buffer: pdfFile,
      });
      await expectToast(
        page,
        'Publisher Updated',
        'The agreement of Api Publisher has been uploaded.',
      );
      const open = page.getByRole('link', { name: /Open agreement/ });
      await open.waitFor();
      const href = await open.getAttribute('href');
      expect(href).toBeTruthy();
      const file = await fetch(new URL(href!, server.url));
      expect(file.status).toBe(200);
      expect((await file.text()).startsWith('%PDF')).toBe(true);
      await page.getByText('Agreement uploaded').waitFor();
    });
  });

  it('buyers: block and unblock after confirmation with Buyer Updated', async () => {
    const email = uniqueEmail('buyer');
    await signUpBuyerViaApi(server.url, email, 'buyer-pass-1', {
      full_name: 'Bo Buyer',
      company_name: 'Bo Brands',
    });

    await asAdmin('buyers-block', async (page) => {
      await page
        .getByRole('navigation', { name: 'Admin navigation' })
        .getByRole('link', { name: 'Buyers' })
        .click();
      await page.getByLabel('Search').fill('Bo Buyer');
      const row = rowOrCard(page).filter({ hasText: email });
      await row.getByText('Active', { exact: true }).waitFor();
      await row.getByText('Email not confirmed').waitFor();
      await row.getByRole('button', { name: 'Block Bo Buyer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Block this buyer?' });
      await dialog.getByRole('button', { name: 'Block' }).click();
      await expectToast(page, 'Buyer Updated', 'Bo Buyer has been blocked.');
      await row.getByText('Blocked', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Unblock Bo Buyer' }).click();
      await page
        .getByRole('dialog', { name: 'Unblock this buyer?' })
        .getByRole('button', { name: 'Unblock' })
        .click();
      await expectToast(page, 'Buyer Updated', 'Bo Buyer has been unblocked.');
      await row.getByText('Active', { exact: true }).waitFor();
    });
  });

  it('change the logo and the company name: the sidebar and the /login title show both at once', async () => {
    const logo = makeLogoPng();
    await asAdmin('settings-branding', async (page) => {
      await page
        .getByRole('navigation', { name: 'Admin navigation' })
        .getByRole('link', { name: 'Settings' })
        .click();
      await expectPath(page, '/admin/settings');
      await page.getByText('Max 5MB. PNG, JPG, SVG.').waitFor();
      const sidebar = page.getByRole('navigation', { name: 'Admin navigation' });
      await sidebar.getByText('MR.LEADS').waitFor();

      await page.getByRole('button', { name: 'Upload logo' }).click();
      await expectToast(page, 'No file selected');

      // Over 5 MB: refused by the server, its message in the toast.
      const huge = Buffer.concat([logo, Buffer.alloc(5 * 1024 * 1024 + 10)]);
      await page.locator('input[type="file"]').setInputFiles({
        name: 'huge.png',
        mimeType: 'image/png',
        buffer: huge,
      });
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await expectToast(page, 'Logo upload failed', '5');

      await page.locator('input[type="file"]').setInputFiles({
        name: 'brand.png',
        mimeType: 'image/png',
        buffer: logo,
      });
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await expectToast(page, 'Logo Uploaded');
      const img = sidebar.locator('img');
      await img.waitFor();
      expect(await img.getAttribute('src')).toMatch(/logos\//);
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('nav img')].some(
            (i) => (i as HTMLImageElement).naturalWidth === 240,
          ),
        undefined,
        { timeout: 10_000 },
      );

      const name = page.getByLabel('Company name');
      await name.fill('');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Company name is required.').waitFor();
      await page.getByLabel('Support email').fill('not-an-email');
      await name.fill('Acme Leads');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Support e-mail must be a valid e-mail address.').waitFor();
      await page.getByLabel('Support email').fill('help@acme.test');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expectToast(page, 'Settings Saved');
      await sidebar.getByRole('img', { name: 'Acme Leads' }).waitFor();
      await page.waitForFunction(() => document.title === 'Settings · Acme Leads');
      await saveScreenshot(page, 'admin-a-settings-saved-desktop');
    });

    await journey('login-branding', async (page) => {
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Sign in to Acme Leads' }).waitFor();
      await page.waitForFunction(() => document.title === 'Sign in · Acme Leads');
      await page.getByRole('img', { name: 'Acme Leads' }).first().waitFor();
    });
  });

  it('every screen with data, on desktop and phone', async () => {
    // Seed: an approved publisher with leads over the last days, payouts, a buyer's campaign.
    const email = uniqueEmail('busy-pub');
    const pubId = await approvedPublisher(adminToken, {
      name: 'Api Publisher',
      email,
      password: 'publisher-pass-4',
    });
    const offer = await api<{ id: string }>(adminToken, 'POST', 'admin/offers', {
      title: 'Medicare Inbound',
      vertical: 'Insurance',
      payout: 35,
    });
    const day = 24 * 3600 * 1000;
    for (let i = 0; i < 20; i++) {
      await api(adminToken, 'POST', 'admin/leads', {
        publisher_id: pubId,
        offer_id: offer.id,
        status: i % 4 === 0 ? 'rejected' : 'approved',
        call_duration: 3 + (i % 7),
        timestamp: new Date(Date.now() - (i % 12) * day - 3600_000).toISOString(),
      });
    }
    await api(adminToken, 'POST', 'admin/payouts', {
      publisher_id: pubId,
      amount: 1234.5,
      notes: 'Weekly payout',
    });
    for (let i = 0; i < 3; i++) {
      await signUpPublisherViaApi(server.url, uniqueEmail('waiting-pub'), 'publisher-pass-5');
    }
    const buyerEmail = uniqueEmail('campaign-buyer');
    await confirmedBuyerViaApi(server.url, buyerEmail, 'buyer-pass-2', {
      full_name: 'Cara Campaigner',
      company_name: 'Cara Co',
    });
    const buyerToken = await passwordToken(server.url, buyerEmail, 'buyer-pass-2');
    await api(buyerToken, 'POST', 'buyer/campaigns', {
      name: 'Spring Solar Push',
      goal: 'Fill the call center in April',
      target_audience: 'Home owners 35+',
      location: 'Texas',
      budget: 25000,
      start_date: '2025-04-01',
      end_date: '2025-04-30',
    });

    const a11y: string[] = [];
    const check = async (page: Page, where: string, size: string) => {
      if (size === 'desktop') a11y.push(...(await seriousAxeProblems(page, where)));
    };
    for (const [size, viewport] of Object.entries(viewports)) {
      await asAdmin(
        `admin-data-${size}`,
        async (page) => {
          await openScreen(page, '/admin', 'Dashboard');
          await page.getByText('$1,234.50').first().waitFor();
          // The chart is drawn once its place nears the screen (WhenVisible): a phone scrolls.
          await page.getByRole('heading', { name: 'Leads and payouts' }).scrollIntoViewIfNeeded();
          await page.locator('.recharts-surface').first().waitFor();
          await saveScreenshot(page, `admin-a-dashboard-data-${size}`);
          await check(page, 'dashboard', size);
          await openScreen(page, '/admin/publishers', 'Publishers');
          const publisherRow = rowOrCard(page).filter({ hasText: email });
          await publisherRow.waitFor();
          // Each list's primary action is on screen, a phone's 390 px included (issue 16).
          await expectInsideWidth(
            publisherRow.getByRole('button', { name: /^Block Api Publisher/ }),
          );
          const waiting = rowOrCard(page).filter({ hasText: 'waiting-pub' }).first();
          await expectInsideWidth(waiting.getByRole('button', { name: /^Approve / }));
          expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
          await saveScreenshot(page, `admin-a-publishers-data-${size}`);
          await check(page, 'publishers', size);
          await openScreen(page, `/admin/publishers/${pubId}`, 'Api Publisher');
          await page.getByText('$1,234.50').waitFor();
          await saveScreenshot(page, `admin-a-publisher-detail-data-${size}`);
          await check(page, 'publisher detail', size);
          await openScreen(page, '/admin/buyers', 'Buyers');
          const buyerRow = rowOrCard(page).filter({ hasText: buyerEmail });
          await buyerRow.waitFor();
          await expectInsideWidth(buyerRow.getByRole('button', { name: /^Block / }));
          expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
          await saveScreenshot(page, `admin-a-buyers-data-${size}`);
          await check(page, 'buyers', size);
          await openScreen(page, '/admin/campaigns', 'Campaigns');
          const row = rowOrCard(page).filter({ hasText: 'Spring Solar Push' });
          await row.getByText('Cara Campaigner').waitFor();
          await row.getByText(buyerEmail).waitFor();
          await row.getByText('$25,000.00').waitFor();
          await saveScreenshot(page, `admin-a-campaigns-data-${size}`);
          await check(page, 'campaigns', size);
          await openScreen(page, '/admin/settings', 'Settings');
          await saveScreenshot(page, `admin-a-settings-data-${size}`);
          await check(page, 'settings', size);
        },
        viewport,
      );
    }
    expect(a11y).toEqual([]);
  });
});
