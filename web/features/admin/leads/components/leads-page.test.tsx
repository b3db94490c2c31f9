import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, pageOf, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { LeadsPage } from './leads-page.tsx';

const lead = (i: number, over: Record<string, unknown> = {}) => ({
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
  ...over,
});

beforeEach(() => {
  stubFetch(({ url }) => {
    if (url.pathname === '/api/v1/admin/leads/totals')
      return json(200, {
        count: 95,
        count_exact: true,
        earned: 244,
        under_review: 120,
        rejected: 12,
      });
    if (url.pathname === '/api/v1/admin/leads/bulk-status') return json(200, { changed: 3 });
    if (url.pathname === '/api/v1/admin/leads')
      return json(200, pageOf([lead(1), lead(2), lead(3, { status: 'rejected', payout: 45 })]));
    return json(200, pageOf([]));
  });
});

describe('LeadsPage', () => {
  it('shows the totals of the filter above the table, and the bulk actions once a lead is picked', async () => {
    renderWithApp(<LeadsPage />, { url: '/admin/leads' });
    // Issue 27 item 1: earned and under review apart, rejected leads counted without money.
    const totals = await screen.findByRole('group', { name: 'Totals of the matching leads' });
    expect(totals.textContent).toBe('95 leads$244.00 earned$120.00 under review12 rejected');
    const boxes = await screen.findAllByRole('checkbox', {
      name: /^Select the lead of Bulk Bella/,
    });
    fireEvent.click(boxes[0]!);
    expect(await screen.findByText('1 selected')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText('1 selected')).toBeNull();
  });

  it('shows a rejected lead at $0.00 with the payout it would have had struck through', async () => {
    renderWithApp(<LeadsPage />, { url: '/admin/leads' });
    const struck = await screen.findByTestId('would-have-paid');
    expect(struck.tagName).toBe('S');
    expect(struck.textContent).toBe('would have paid $45.00');
    const cell = struck.parentElement!;
    expect(cell.textContent).toBe('$0.00 would have paid $45.00');
    // The other leads show their payout as it is.
    expect(screen.getAllByText('$12.50').length).toBeGreaterThanOrEqual(2);
  });

  it('offers only the reasons of the status picked: approving and rejecting differ', async () => {
    renderWithApp(<LeadsPage />, { url: '/admin/leads' });
    // The options of one select: its own listbox (other selects on the page have theirs).
    const optionsOf = async (select: HTMLElement) => {
      select.focus();
      fireEvent.click(select);
      await waitFor(() => expect(select.getAttribute('aria-controls')).toBeTruthy());
      const listbox = document.getElementById(select.getAttribute('aria-controls')!)!;
      return within(listbox).getAllByRole('option', { hidden: true });
    };
    const reasonsOf = async (status: 'Approved' | 'Rejected') => {
      const row = (
        await screen.findAllByRole('combobox', { name: /^Status of the lead of Bulk Bella/ })
      )[0]!;
      const pick = (await optionsOf(row)).find((o) => o.textContent === status)!;
      fireEvent.click(pick);
      const dialog = await screen.findByRole('dialog', { name: 'Change Lead Status' });
      const reason = within(dialog).getByRole('combobox', { name: /^Reason/ });
      const labels = (await optionsOf(reason)).map((o) => o.textContent);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      return labels;
    };
    const approve = await reasonsOf('Approved');
    expect(approve).toContain('Accepted by the buyer');
    expect(approve).not.toContain('Duplicate call');
    const reject = await reasonsOf('Rejected');
    expect(reject).toContain('Duplicate call');
    expect(reject).not.toContain('Accepted by the buyer');

    // The bulk dialogs too.
    const boxes = await screen.findAllByRole('checkbox', {
      name: /^Select the lead of Bulk Bella/,
    });
    fireEvent.click(boxes[0]!);
    for (const [button, title, offered, absent] of [
      ['Approve', 'Approve Leads', 'Accepted by the buyer', 'Duplicate call'],
      ['Reject', 'Reject Leads', 'Duplicate call', 'Accepted by the buyer'],
    ] as const) {
      fireEvent.click(await screen.findByRole('button', { name: button }));
      const dialog = await screen.findByRole('dialog', { name: title });
      const labels = (
        await optionsOf(within(dialog).getByRole('combobox', { name: /^Reason/ }))
      ).map((o) => o.textContent);
      expect(labels, title).toContain(offered);
      expect(labels, title).not.toContain(absent);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
  });

  it('confirms "Reject 3 leads" with a red button, "Approve 3 leads" with the usual one', async () => {
    renderWithApp(<LeadsPage />, { url: '/admin/leads' });
    const boxes = await screen.findAllByRole('checkbox', {
      name: /^Select the lead of Bulk Bella/,
    });
    for (const box of boxes.slice(0, 3)) fireEvent.click(box);
    const colorOf = (button: HTMLElement) => button.getAttribute('style') ?? '';
    for (const [action, title, confirm, red] of [
      ['Reject', 'Reject Leads', 'Reject 3 leads', true],
      ['Approve', 'Approve Leads', 'Approve 3 leads', false],
    ] as const) {
      fireEvent.click(await screen.findByRole('button', { name: action }));
      const dialog = await screen.findByRole('dialog', { name: title });
      const button = await within(dialog).findByRole('button', { name: confirm });
      expect(colorOf(button).includes('--mantine-color-red-filled'), confirm).toBe(red);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
  });
});
