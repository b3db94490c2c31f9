import type { AdminSettings } from '@contract/admin.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, noRoute, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { SettingsPage } from './settings-page.tsx';

const settings: AdminSettings = {
  company_name: 'Acme Calls',
  logo_url: null,
  welcome_message: 'Welcome!',
  support_email: 'help@acme.example',
  timezone: 'UTC',
  currency: 'USD',
  min_payout: 50,
  phone_country: 'US',
  company_address: null,
  payout_holds: ['tax_form', 'payment_details', 'blocked', 'under_review'],
  buyer_return_days: 7,
  buyer_sees_full_caller: false,
  updated_at: '2026-11-25T09:00:00.000Z',
};

let patched: unknown[];

beforeEach(() => {
  patched = [];
  stubFetch((req) => {
    if (req.url.pathname === '/api/v1/admin/settings' && req.method === 'PATCH') {
      const body = req.body();
      patched.push(body);
      return json(200, { ...settings, ...body });
    }
    if (req.url.pathname === '/api/v1/admin/settings') return json(200, settings);
    return noRoute();
  });
});

describe('SettingsPage', () => {
  it('saves the country phone numbers without a country code are read in', async () => {
    renderWithApp(<SettingsPage />, { url: '/admin/settings' });
    // Label and text queries: role queries walk the ~250 country options and take seconds.
    const picker = (await screen.findByLabelText(
      'Phone numbers without a country code are read as',
      { selector: 'input' },
    )) as HTMLInputElement;
    expect(picker.value).toBe('United States (US)');
    picker.focus();
    fireEvent.click(picker);
    fireEvent.change(picker, { target: { value: 'United King' } });
    fireEvent.click(await screen.findByText('United Kingdom (GB)'));
    fireEvent.click(screen.getByText('Save settings'));
    await waitFor(() => expect(patched).toHaveLength(1));
    expect(patched[0]).toMatchObject({ phone_country: 'GB', company_name: 'Acme Calls' });
  });

  it('saves the postal address printed on statements, several lines', async () => {
    renderWithApp(<SettingsPage />, { url: '/admin/settings' });
    const address = (await screen.findByLabelText('Postal address (printed on statements)', {
      selector: 'textarea',
    })) as HTMLTextAreaElement;
    expect(address.value).toBe('');
    expect(address.maxLength).toBe(500);
    fireEvent.change(address, {
      target: { value: '  Acme Calls LLC \n1200 Harbor Blvd, Suite 400\nSan Diego, CA 92101  ' },
    });
    fireEvent.click(screen.getByText('Save settings'));
    await waitFor(() => expect(patched).toHaveLength(1));
    expect(patched[0]).toMatchObject({
      company_address: 'Acme Calls LLC \n1200 Harbor Blvd, Suite 400\nSan Diego, CA 92101',
    });
    // Emptied again, the address is cleared (null: statements print none).
    fireEvent.change(address, { target: { value: '   ' } });
    fireEvent.click(screen.getByText('Save settings'));
    await waitFor(() => expect(patched).toHaveLength(2));
    expect(patched[1]).toMatchObject({ company_address: null });
  });

  it("saves the buyers' return window and whether they see the full caller number", async () => {
    renderWithApp(<SettingsPage />, { url: '/admin/settings' });
    const days = (await screen.findByLabelText('Return window (days)')) as HTMLInputElement;
    expect(days.value).toBe('7');
    const save = screen.getByText('Save buyer settings').closest('button')!;
    expect(save.disabled).toBe(true);
    fireEvent.change(days, { target: { value: '14' } });
    fireEvent.click(screen.getByLabelText('Buyers see the full caller number'));
    fireEvent.click(save);
    await waitFor(() => expect(patched).toHaveLength(1));
    expect(patched[0]).toEqual({ buyer_return_days: 14, buyer_sees_full_caller: true });
  });
});
