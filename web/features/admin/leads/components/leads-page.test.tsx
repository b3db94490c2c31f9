import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { LeadsPage } from './leads-page.tsx';

const lead = (i: number) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  publisher_id: '10000000-0000-4000-8000-000000000001',
  publisher_name: 'Bulk Bella',
  publisher_email: 'bella@example.com',
  offer_id: '20000000-0000-4000-8000-000000000001',
  offer_title: 'Solar',
  payout: 12.5,
  status: 'pending',
  call_duration: 3,
  timestamp: '2026-11-25T09:00:00.000Z',
});

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const json = (body: unknown) =>
        new Response(JSON.stringify(body), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      if (url.pathname === '/api/v1/admin/leads/totals')
        return json({ count: 3, count_exact: true, payout: 37.5 });
      if (url.pathname === '/api/v1/admin/leads')
        return json({
          items: [lead(1), lead(2), lead(3)],
          total: 3,
          total_exact: true,
          page: 1,
          page_size: 25,
          next_cursor: null,
        });
      return json({
        items: [],
        total: 0,
        total_exact: true,
        page: 1,
        page_size: 25,
        next_cursor: null,
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('LeadsPage', () => {
  it('shows the totals of the filter above the table, and the bulk actions once a lead is picked', async () => {
    renderWithApp(<LeadsPage />, { url: '/admin/leads' });
    expect(await screen.findByText('$37.50')).toBeTruthy();
    const boxes = await screen.findAllByRole('checkbox', {
      name: /^Select the lead of Bulk Bella/,
    });
    fireEvent.click(boxes[0]!);
    expect(await screen.findByText('1 selected')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText('1 selected')).toBeNull();
  });
});
