import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveRange } from '../contract/reports.ts';
import { saveScreenshot } from './support/browser.ts';
import {
  adminAccessToken,
  api,
  approvedPublisher,
  asAdmin,
  journey,
  withServerAndBrowser,
} from './support/suite.ts';
import { expectPath, pageOverflow, signInViaUi, uniqueEmail } from './support/ui.ts';

/**
 * Issue 15 in a browser: the admin picks "Last month" grouped by offer on the Reports screen,
 * exports the CSV (read back and compared with the table), and drills into one offer's leads.
 * The network runs on New York time: the leads sit on last month's edges in that zone.
 */

const ZONE = 'America/New_York';
withServerAndBrowser();
const publisher = { name: 'Report Rita', email: uniqueEmail('rita'), password: 'rita-pass-1' };
const offers = { a: 'Medicare Inbound', b: 'Solar Leads Live' };
let offerA = '';
const lastMonth = resolveRange(ZONE, { range: 'last_month' });
const thisMonth = resolveRange(ZONE, { range: 'this_month' });

/** An instant at `hh:mm` New York time on `day` (EST/EDT both handled by probing). */
function nyInstant(day: string, hhmm: string): string {
  for (const off of ['-05:00', '-04:00']) {
    const at = new Date(`${day}T${hhmm}:00${off}`);
    const wall = new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .format(at)
      .replace(', ', 'T');
    if (wall === `${day}T${hhmm}`) return at.toISOString();
  }
  throw new Error(`no instant for ${day} ${hhmm}`);
}

beforeAll(async () => {
  const admin = await adminAccessToken();
  await api(admin, 'PATCH', 'admin/settings', { timezone: ZONE });
  const publisherId = await approvedPublisher(admin, publisher);
  const made: Record<string, string> = {};
  for (const [k, title] of Object.entries(offers)) {
    made[k] = (
      await api<{ id: string }>(admin, 'POST', 'admin/offers', {
        title,
        vertical: 'Insurance',
        payout: 30,
      })
    ).id;
  }
  offerA = made.a!;
  // Offer A: 3 calls last month (first minute and last minute of the month, New York time),
  // 2 of them approved; one more this month, outside the report. Offer B: 1 call last month.
  const leads: [string, string, string][] = [
    [made.a!, nyInstant(lastMonth.from, '00:01'), 'approved'],
    [made.a!, nyInstant(lastMonth.to, '23:59'), 'approved'],
    [made.a!, nyInstant(lastMonth.from, '12:00'), 'rejected'],
    [made.a!, nyInstant(thisMonth.from, '00:00'), 'approved'],
    [made.b!, nyInstant(lastMonth.to, '08:30'), 'pending'],
  ];
  for (const [offer_id, timestamp, status] of leads) {
    await api(admin, 'POST', 'admin/leads', {
      publisher_id: publisherId,
      offer_id,
      timestamp,
      status,
      call_duration: 3,
    });
  }
});

async function pick(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function tableRows(page: Page): Promise<string[][]> {
  return page
    .getByTestId('report-row')
    .evaluateAll((rows) =>
      rows.map((r) =>
        [...r.querySelectorAll('td')].map((td) => (td.firstChild?.textContent ?? '').trim()),
      ),
    );
}

describe('reports in Chromium', () => {
  it('last month by offer, CSV equal to the table, drill into one offer', async () => {
    await asAdmin('reports-journey', async (page) => {
      // The dashboard follows the same picker: last month's 4 calls in the chart, no payouts.
      await pick(page, 'Period', 'Last month');
      const period = `${lastMonth.from} – ${lastMonth.to} (${ZONE})`;
      await page.getByTestId('chart-period').filter({ hasText: period }).waitFor();
      const payoutsCard = page.locator('.mantine-Card-root').filter({ hasText: 'Total Payouts' });
      await payoutsCard.getByTestId('stat-note').filter({ hasText: period }).waitFor();
      expect(await payoutsCard.getByTestId('stat-value').textContent()).toBe('$0.00');
      await page.getByTestId('chart-leads').filter({ hasText: /^4$/ }).waitFor();
      expect(new URL(page.url()).searchParams.get('range')).toBe('last_month');
      await saveScreenshot(page, 'reports-admin-dashboard-last-month-desktop');
      await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
      await expectPath(page, '/admin/reports');
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      expect(await page.title()).toMatch(/^Reports · /);

      await pick(page, 'Period', 'Last month');
      await pick(page, 'Group by', 'Offer');
      await page.getByText(`${lastMonth.from} – ${lastMonth.to} (${ZONE})`).waitFor();
      await page.getByTestId('report-row').filter({ hasText: offers.b }).waitFor();
      const rows = await tableRows(page);
      expect(rows.map((r) => r.slice(0, 4))).toEqual([
        [offers.a, '3', '2', '66.7%'],
        [offers.b, '1', '0', '0.0%'],
      ]);
      const totals = await page.getByTestId('report-totals').locator('td, th').allTextContents();
      expect(totals.slice(0, 3)).toEqual(['Total', '4', '2']);
      // No call carries a revenue: no margin (nor margin %), and offer A's 2 payable calls ($60)
      // are shown beside it as left out of it, with the rule in words under the table.
      expect(rows[0]!.slice(5, 10)).toEqual(['$60.00', '—', '—', '—', '$60.00']);
      expect(totals.slice(7, 10)).toEqual(['—', '—', '$60.002 calls']);
      expect(await page.getByTestId('margin-note').textContent()).toContain(
        'Margin = revenue − payout of the calls that carry a revenue. Revenue counts every call that carries one, whatever its status; payout counts payable (approved) calls. No call in this period carries a revenue, so there is no margin.',
      );
      // Every column fits the 1280 px screen beside the sidebar: the table does not scroll.
      const sideways = await page.getByRole('table').evaluate((t) => {
        const box = t.closest('.mantine-ScrollArea-viewport')!;
        return box.scrollWidth - box.clientWidth;
      });
      expect(sideways).toBeLessThanOrEqual(0);
      const params = new URL(page.url()).searchParams;
      expect([params.get('range'), params.get('group')]).toEqual(['last_month', 'offer']);
      await saveScreenshot(page, 'reports-admin-last-month-by-offer-desktop');

      // CSV: exactly the rows and totals on screen.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      let text = '';
      for await (const chunk of await (await download).createReadStream()) text += chunk;
      const lines = text.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        // The zone goes with days and hours only: an offer's name carries none (issue 34).
        `Offer,Calls,Payable calls,Payable %,Avg duration (s),Payout,Revenue,Margin (calls with revenue),Margin %,Payable calls without revenue,Payout without revenue,Disputes`,
      );
      expect(lines.slice(1).map((l) => l.split(',').slice(0, 4))).toEqual([
        [offers.a, '3', '2', '66.7'],
        [offers.b, '1', '0', '0'],
        ['Total', '4', '2', '50'],
      ]);
      // Payout, revenue, margin, margin %, payable calls without revenue and their payout.
      expect(lines[1]!.split(',').slice(5, 11)).toEqual(['60', '', '', '', '2', '60']);

      // Comparison with the month before: no calls then, so each figure is "new".
      await page.getByLabel('Compare with the previous period').click();
      await page.getByText(/compared with/).waitFor();
      await page.getByRole('table').getByText('new').first().waitFor();
      await saveScreenshot(page, 'reports-admin-compared-desktop');

      // Drill into offer A: the leads list with the same offer and days.
      await page.getByRole('link', { name: offers.a }).click();
      await expectPath(page, '/admin/leads');
      const q = new URL(page.url()).searchParams;
      expect([q.get('offer_id'), q.get('from'), q.get('to')]).toEqual([
        offerA,
        lastMonth.from,
        lastMonth.to,
      ]);
      await page.getByText('1–3 of 3').waitFor();
      const leadRows = page.getByRole('table').locator('tbody tr');
      expect(await leadRows.count()).toBe(3);
      expect(await leadRows.filter({ hasText: offers.a }).count()).toBe(3);
      // The list's picker shows the report's period as the same preset, in the network's zone.
      await page.getByText(`${lastMonth.from} – ${lastMonth.to} (${ZONE})`).waitFor();
      await saveScreenshot(page, 'reports-drill-into-leads-desktop');
    });
  });

  it('reads on a phone, and the publisher sees their own report', async () => {
    await asAdmin(
      'reports-phone',
      async (page) => {
        await page.goto('/admin/reports?range=last_month&group=offer');
        await page.getByTestId('report-totals-card').waitFor();
        expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
        // Cards instead of the wide table: every card, its name (the drill-down link) and its
        // figures inside the 375 px screen; the table is not shown.
        expect(await page.getByRole('table').isVisible()).toBe(false);
        const cards = page.getByTestId('report-card');
        expect(await cards.count()).toBe(2);
        for (const card of await cards.all()) {
          const box = (await card.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(375);
        }
        const first = cards.first();
        expect(await first.getByText('Disputes').isVisible()).toBe(true);
        const link = first.getByRole('link', { name: offers.a });
        const linkBox = (await link.boundingBox())!;
        expect(linkBox.x + linkBox.width).toBeLessThanOrEqual(375);
        await saveScreenshot(page, 'reports-admin-by-offer-phone');
        await link.click();
        await expectPath(page, '/admin/leads');
        expect(new URL(page.url()).searchParams.get('offer_id')).toBe(offerA);
      },
      { width: 375, height: 812 },
    );
    await journey('reports-publisher', async (page) => {
      await signInViaUi(page, publisher.email, publisher.password);
      await expectPath(page, '/dashboard');
      await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
      await expectPath(page, '/dashboard/reports');
      // The overview has a Period picker too: pick once the Reports screen is there.
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      await pick(page, 'Period', 'Last month');
      await pick(page, 'Group by', 'Offer');
      await page.getByTestId('report-row').filter({ hasText: offers.b }).waitFor();
      expect(await page.getByText('Revenue').count()).toBe(0);
      await saveScreenshot(page, 'reports-publisher-by-offer-desktop');
    });
    await journey(
      'reports-publisher-phone',
      async (page) => {
        await signInViaUi(page, publisher.email, publisher.password);
        await expectPath(page, '/dashboard');
        await page.goto('/dashboard/reports?range=last_month&group=offer');
        await page.getByTestId('report-totals-card').waitFor();
        expect(await page.getByTestId('report-card').count()).toBe(2);
        expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
        await saveScreenshot(page, 'reports-publisher-by-offer-phone');
      },
      { width: 375, height: 812 },
    );
  });
});
