import type { AdminReport, AdminReportFigures } from '@contract/reports.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, noRoute, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { ReportsPage } from './reports-page.tsx';

/** Figures as the server answers them; what a test does not name is zero. */
function figures(f: Partial<AdminReportFigures>): AdminReportFigures {
  return {
    calls: 0,
    payable_calls: 0,
    payable_rate: null,
    avg_duration: null,
    payout: 0,
    revenue: null,
    margin: null,
    margin_pct: null,
    payable_without_revenue: 0,
    payout_without_revenue: 0,
    disputes: 0,
    ...f,
  };
}

const row = (key: string, label: string, f: Partial<AdminReportFigures>) => ({
  key,
  label,
  figures: figures(f),
  previous_figures: null,
});

/**
 * The server test's day (server/modules/admin/reports.test.ts): offer X has a payable call with
 * a revenue ($30 payout, $50 revenue) and one without ($20); Y a rejected call with a revenue
 * ($40); Z a payable call without a revenue ($15).
 */
const byOffer: AdminReport = {
  timezone: 'UTC',
  range: 'custom',
  from: '2025-05-12',
  to: '2025-05-12',
  previous: null,
  group: 'offer',
  sort: 'label',
  order: 'asc',
  rows: [
    row('x', 'Margin X', {
      calls: 2,
      payable_calls: 2,
      payout: 50,
      revenue: 50,
      margin: 20,
      margin_pct: 40,
      payable_without_revenue: 1,
      payout_without_revenue: 20,
    }),
    row('y', 'Margin Y', { calls: 2, revenue: 40, margin: 40 }),
    row('z', 'Margin Z', {
      calls: 1,
      payable_calls: 1,
      payout: 15,
      payable_without_revenue: 1,
      payout_without_revenue: 15,
    }),
  ],
  groups: 3,
  totals: figures({
    calls: 5,
    payable_calls: 3,
    payout: 65,
    revenue: 90,
    margin: 60,
    payable_without_revenue: 2,
    payout_without_revenue: 35,
  }),
  previous_totals: null,
};

let answer: AdminReport;
let asked: URLSearchParams[];

beforeEach(() => {
  answer = byOffer;
  asked = [];
  stubFetch(({ url }) => {
    if (url.pathname !== '/api/v1/admin/reports') return noRoute();
    asked.push(url.searchParams);
    return json(200, answer);
  });
});

const url = '/admin/reports?range=custom&from=2025-05-12&to=2025-05-12&group=offer';

/** The table's cells of one row, by column name. */
async function cellsOf(label: string): Promise<Record<string, string>> {
  const table = await screen.findByRole('table');
  const heads = within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent ?? '');
  const tr = within(table).getByText(label).closest('tr')!;
  const cells = [...tr.querySelectorAll('td, th')].map((c) => c.textContent ?? '');
  return Object.fromEntries(heads.map((h, i) => [h, cells[i]!]));
}

describe('ReportsPage', () => {
  it('shows the margin of the calls with a revenue, what it leaves out beside it, and the rule', async () => {
    renderWithApp(<ReportsPage />, { url });
    const x = await cellsOf('Margin X');
    expect(x).toMatchObject({
      Payout: '$50.00',
      Revenue: '$50.00',
      Margin: '$20.00',
      'No revenue': '$20.001 call',
    });
    // Margin % (issue 31): margin ÷ revenue.
    expect(x['Margin %']).toMatch(/^40(\.0)?\s?%$/);
    // No revenue at all: no margin, all of the payout left out of it.
    expect(await cellsOf('Margin Z')).toMatchObject({
      Payout: '$15.00',
      Revenue: '—',
      Margin: '—',
      'No revenue': '$15.001 call',
    });
    expect(await cellsOf('Total')).toMatchObject({
      Payout: '$65.00',
      Revenue: '$90.00',
      Margin: '$60.00',
      'No revenue': '$35.002 calls',
    });
    const note = screen.getByTestId('margin-note').textContent;
    expect(note).toContain('Margin = revenue − payout of the calls that carry a revenue.');
    expect(note).toContain(
      '2 payable calls ($35.00 payout) have no revenue and are not in the margin',
    );
    // The column sorts like any other, on the server.
    fireEvent.click(screen.getByRole('button', { name: 'No revenue' }));
    await waitFor(() => expect(asked.at(-1)?.get('sort')).toBe('payout_without_revenue'));
    expect(asked.at(-1)?.get('order')).toBe('desc');
  });

  it('says there is no margin when no call carries a revenue', async () => {
    answer = {
      ...byOffer,
      rows: [byOffer.rows[2]!],
      groups: 1,
      totals: figures({
        calls: 1,
        payable_calls: 1,
        payout: 15,
        payable_without_revenue: 1,
        payout_without_revenue: 15,
      }),
    };
    renderWithApp(<ReportsPage />, { url });
    expect((await screen.findByTestId('margin-note')).textContent).toContain(
      'No call in this period carries a revenue, so there is no margin.',
    );
    expect(await cellsOf('Total')).toMatchObject({ Margin: '—', 'No revenue': '$15.001 call' });
  });
});

describe('ReportsPage comparison and periods (issue 34)', () => {
  it('says "new" where the previous period had nothing, and the zone only beside days', async () => {
    answer = {
      ...byOffer,
      previous: { from: '2025-05-11', to: '2025-05-11' },
      rows: [
        { ...byOffer.rows[0]!, previous_figures: figures({}) },
        { ...byOffer.rows[2]!, previous_figures: figures({ calls: 2, payable_calls: 1 }) },
      ],
      previous_totals: figures({ calls: 2, payable_calls: 1 }),
    };
    renderWithApp(<ReportsPage />, { url: `${url}&compare=true` });
    const x = await cellsOf('Margin X');
    expect(x.Calls).toBe('2new');
    expect(x.Payout).toBe('$50.00new');
    // A figure that had one before keeps "was" and the change.
    expect((await cellsOf('Margin Z')).Calls).toBe('1was 2-50.0%');
    // Nothing now and nothing before: the figure alone, no "was —".
    expect((await cellsOf('Margin Z')).Revenue).toBe('—');
    expect(screen.queryByText('no change %')).toBeNull();
    // Offers are names: no time zone under the column's name.
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader')[0]!.textContent).toBe('Offer');
  });

  it('offers "Last 30 days" and asks the server for it', async () => {
    renderWithApp(<ReportsPage />, { url: '/admin/reports?range=last_30_days&group=offer' });
    await screen.findByRole('table');
    expect(asked.at(-1)?.get('range')).toBe('last_30_days');
    const period = screen.getAllByLabelText('Period').find((e) => e.tagName === 'INPUT');
    expect((period as HTMLInputElement).value).toBe('Last 30 days');
  });
});

describe('ReportsPage sub-ids (issue 34)', () => {
  it('offers the sub-ids marked in Settings by their tag, and groups by one with no zone', async () => {
    answer = {
      ...byOffer,
      group: 'sub1',
      rows: [row('google', 'google', { calls: 3 }), row('', '(none)', { calls: 1 })],
    };
    stubFetch(({ url }) => {
      if (url.pathname === '/api/v1/admin/report-settings') {
        return json(200, { sub_id_tags: ['utm_source', '', '', '', ''] });
      }
      if (url.pathname !== '/api/v1/admin/reports') return noRoute();
      asked.push(url.searchParams);
      return json(200, answer);
    });
    renderWithApp(<ReportsPage />, {
      url: '/admin/reports?range=custom&from=2025-05-12&to=2025-05-12&group=sub1',
    });
    const table = await screen.findByRole('table');
    expect(asked.at(-1)?.get('group')).toBe('sub1');
    await waitFor(() =>
      expect(within(table).getAllByRole('columnheader')[0]!.textContent).toBe('Sub 1 (utm_source)'),
    );
    // A tag's value has no leads filter to drill into: no link.
    expect(within(table).getByText('google').closest('a')).toBeNull();
    const group = screen.getAllByLabelText('Group by').find((e) => e.tagName === 'INPUT')!;
    expect((group as HTMLInputElement).value).toBe('Sub 1 (utm_source)');
  });
});
