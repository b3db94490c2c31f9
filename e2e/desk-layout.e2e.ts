import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeProblems } from './support/a11y.ts';
import { signUpPublisherViaApi } from './support/api.ts';
import { saveScreenshot, viewports } from './support/browser.ts';
import {
  adminApi,
  asAdmin,
  createOffer,
  offerWithLeads,
  seedingAdminToken,
  server,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectPath, pageOverflow, sidewaysScrollers, uniqueEmail } from './support/ui.ts';

// Issue 34, items 1, 2 and 8, on a desk (1280×800) and a phone (390×844): every sidebar entry
// reachable, the wide lists without sideways scrolling, the leads filters folded on a phone,
// what waits for the admin on the dashboard and the bell, and the newcomer's checklist.
withServerAndBrowser();

const SIDEBAR = [
  'Dashboard',
  'Publishers',
  'Buyers',
  'Offers',
  'Campaigns',
  'Applications',
  'Compliance',
  'Disputes',
  'Leads',
  'Payouts',
  'Reports',
  'Integrations',
  'Tracking numbers',
  'Webhooks',
  'Settings',
];

/** The wide screens of the issue, each with what shows it has loaded. */
const WIDE_SCREENS: [path: string, loaded: RegExp][] = [
  ['/admin/publishers', /Approve/],
  ['/admin/payouts?tab=balances', /Payment details/],
  ['/admin/applications', /Applications/],
  ['/admin/reports?compare=true&group=publisher', /Disputes/],
];

describe('a newcomer on an empty network (issue 34, item 8)', () => {
  it('sees the getting-started checklist, ticked from the data, and can dismiss it for good', async () => {
    await asAdmin('desk-checklist', async (page) => {
      const card = page.getByRole('region', { name: 'Get your network started' });
      await card.waitFor();
      await card.getByText('0 of 4 done').waitFor();
      for (const step of [
        'Brand the portal',
        'Create an offer',
        'Connect a tracker',
        'Invite publishers',
      ]) {
        await card.getByText(`${step} — to do`).waitFor();
      }
      expect(await seriousAxeProblems(page, 'dashboard with the checklist')).toEqual([]);
      await saveScreenshot(page, 'desk-checklist-empty');

      await createOffer(await seedingAdminToken(), {
        title: 'Checklist Offer',
        vertical: 'Medicare',
        payout: 20,
      });
      await page.reload();
      await card.getByText('1 of 4 done').waitFor();
      await card.getByText('Create an offer — done').waitFor();

      await card.getByRole('button', { name: 'Dismiss' }).click();
      await card.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('heading', { name: 'What needs your attention today' }).waitFor();
      expect(await card.count()).toBe(0);
    });
  });
});

describe('desk-size layout and what needs attention (issue 34, items 1 and 2)', () => {
  it('seeds a network with waiting sign-ups and paid publishers', async () => {
    const offer = {
      title: 'Medicare Advantage AEP Inbound Spanish Transfers',
      vertical: 'Medicare',
      payout: 35,
    };
    await offerWithLeads(offer, [
      [
        {
          name: 'Bartholomew Fitzgerald-Whitmore',
          email: uniqueEmail('bartholomew.fitzgerald-whitmore.longname'),
          password: 'publisher-pass-1',
        },
        [
          [35, 'approved'],
          [35, 'pending'],
          [35, 'rejected'],
        ],
      ],
      [
        {
          name: 'Short Name',
          email: uniqueEmail('short'),
          password: 'publisher-pass-1',
        },
        [[35, 'approved']],
      ],
    ]);
    for (const i of [1, 2, 3]) {
      await signUpPublisherViaApi(
        server.url,
        uniqueEmail(`waiting-publisher-with-a-long-address-${i}`),
        'publisher-pass-1',
        {
          full_legal_name: `Waiting Publisher ${i}`,
          business_legal_name: 'Keystone Communications Group LLC',
        },
      );
    }
    const stats = await adminApi<{ pending_publishers: number }>('GET', '/stats');
    expect(stats.pending_publishers).toBe(3);
  });

  for (const [size, viewport] of Object.entries(viewports)) {
    it(`reaches every sidebar entry and the wide lists fit (${size})`, async () => {
      await asAdmin(
        `desk-layout-${size}`,
        async (page) => {
          await reachEverySidebarEntry(page, size === 'phone');

          const a11y: string[] = [];
          for (const [path, loaded] of WIDE_SCREENS) {
            await page.goto(path);
            await page.getByText(loaded).first().waitFor();
            await page.waitForLoadState('networkidle');
            expect(await pageOverflow(page), `${path} (${size}) document`).toBeLessThanOrEqual(0);
            expect(await sidewaysScrollers(page), `${path} (${size})`).toEqual([]);
            a11y.push(...(await seriousAxeProblems(page, `${path} (${size})`)));
            await saveScreenshot(page, `desk-layout-${size}-${path.split(/[/?]/)[2]}`);
          }
          expect(a11y).toEqual([]);
        },
        viewport,
      );
    });
  }

  it('lists what waits on the dashboard and counts it on the bell (desk)', async () => {
    await asAdmin('desk-attention', async (page) => {
      const attention = page.getByRole('region', { name: 'What needs your attention today' });
      const pending = attention.getByRole('link', { name: '3 publishers wait for approval' });
      await pending.waitFor();
      // The bell counts it although no notification was read or unread about it.
      await page
        .getByRole('button', { name: /^Notifications, 3 waiting/ })
        .first()
        .waitFor();
      expect(await seriousAxeProblems(page, 'dashboard')).toEqual([]);
      await saveScreenshot(page, 'desk-attention');
      await page
        .getByRole('button', { name: /^Notifications, 3 waiting/ })
        .first()
        .click();
      const popover = page.getByRole('dialog', { name: 'Notifications' });
      await popover.getByRole('button', { name: '3 publishers wait for approval' }).waitFor();
      await saveScreenshot(page, 'desk-bell-waiting');
      await page.keyboard.press('Escape');

      await pending.click();
      await expectPath(page, '/admin/publishers');
      expect(new URL(page.url()).searchParams.get('status')).toBe('pending');
    });
  });

  it('folds the leads filters behind a Filters button with a count on a phone', async () => {
    await asAdmin(
      'phone-leads-filters',
      async (page) => {
        await page.goto('/admin/leads?status=approved');
        const filters = page.getByRole('button', { name: 'Filters, 1 on' });
        await filters.waitFor();
        expect(await page.getByRole('textbox', { name: 'Find a call' }).count()).toBe(0);
        // The first lead is on the first screen.
        const firstCard = page.getByText('Bartholomew Fitzgerald-Whitmore').first();
        await firstCard.waitFor();
        expect((await firstCard.boundingBox())!.y).toBeLessThan(viewports.phone.height);
        await filters.click();
        await page.getByRole('textbox', { name: 'Find a call' }).waitFor();
        expect(await seriousAxeProblems(page, 'leads (phone)')).toEqual([]);
        await saveScreenshot(page, 'phone-leads-filters-open');
      },
      viewports.phone,
    );
  });
});

/**
 * Follows every sidebar entry: on a desk each is on screen without scrolling (the sections fit
 * 800 px); on a phone through the burger's drawer.
 */
async function reachEverySidebarEntry(page: Page, phone: boolean) {
  const nav = page.getByRole('navigation', { name: 'Admin navigation' });
  for (const label of SIDEBAR) {
    if (phone) {
      // Following the entry of the screen already shown leaves the drawer open.
      const burger = page.getByRole('button', { name: /^(Open|Close) navigation$/ });
      if ((await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
    }
    const link = nav.getByRole('link', { name: label, exact: true });
    await link.waitFor();
    if (!phone) {
      const box = (await link.boundingBox())!;
      expect(box.y + box.height, `${label} on screen`).toBeLessThanOrEqual(
        viewports.desktop.height,
      );
    }
    await link.click();
    await nav
      .getByRole('link', { name: label, exact: true })
      .and(page.locator('[aria-current="page"]'))
      .waitFor({ state: 'attached' });
  }
  await saveScreenshot(page, `desk-sidebar-${phone ? 'phone' : 'desktop'}`, { fullPage: false });
}
