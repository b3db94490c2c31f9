import type { FraudFlag } from '@contract/fraud.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, noRoute, pageOf, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { FraudPage } from './fraud-page.tsx';

const flag: FraudFlag = {
  id: '1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b',
  lead_id: '0b6f3c1e-2a4d-4e8f-9c1a-3d5e7f9a1b2c',
  publisher_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  publisher_name: 'Ann Lee',
  rule: 'repeat_caller',
  action: 'hold',
  status: 'open',
  reason: '4 calls from +12125550123 in 24 h across offers: more than 3',
  figures: { calls: 4, hours: 24, max_calls: 3 },
  caller: '+12125550123',
  lead_status: 'pending',
  created_at: '2026-11-25T09:00:00.000Z',
  resolved_at: null,
  resolution_note: null,
};

type Call = { method: string; path: string; body: unknown };
let calls: Call[];

beforeEach(() => {
  calls = [];
  stubFetch(({ url, method, ...req }) => {
    calls.push({ method, path: url.pathname, body: method === 'GET' ? null : req.body() });
    const p = url.pathname;
    if (p === '/api/v1/admin/fraud-flags') return json(200, pageOf([flag]));
    if (p === '/api/v1/admin/fraud-flags/confirm') return json(200, { changed: 1 });
    if (p === '/api/v1/admin/fraud-flags/clear') return json(200, { changed: 1 });
    if (p === '/api/v1/admin/publishers') return json(200, pageOf([]));
    return noRoute();
  });
});

describe('FraudPage', () => {
  it('shows why a call was flagged, and confirms the picked flags with a reason', async () => {
    renderWithApp(<FraudPage />, { url: '/admin/fraud' });
    const row = (await screen.findByText(flag.reason)).closest('tr')!;
    expect(within(row).getByText('Repeat caller')).toBeTruthy();
    expect(within(row).getByText('hold')).toBeTruthy();
    fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm (reject calls)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm fraud' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject calls' }));
    expect(await within(dialog).findByText('Say why (a reason is required).')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), {
      target: { value: 'Robocalls' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject calls' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/v1/admin/fraud-flags/confirm')?.body).toEqual({
        ids: [flag.id],
        reason: 'Robocalls',
      }),
    );
  });

  it('clears the picked flags', async () => {
    renderWithApp(<FraudPage />, { url: '/admin/fraud' });
    const row = (await screen.findByText(flag.reason)).closest('tr')!;
    fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.click(await screen.findByRole('button', { name: 'Clear' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/v1/admin/fraud-flags/clear')?.body).toEqual({
        ids: [flag.id],
      }),
    );
  });
});
