import { type AdminIntegration, callFields } from '@contract/integrations.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { IntegrationsPage } from './integrations-page.tsx';

const KEY = 'ik_TheSecretKeyShownOnlyOnce_0123456789abcdefghij';

const integration: AdminIntegration = {
  id: '7b0e8d8e-2f7a-4c1e-9a55-0c1f3a9d2b11',
  name: 'Ringba production',
  key_prefix: KEY.slice(0, 9),
  allowed_ips: ['203.0.113.0/24'],
  // The contract's default parameter names: each field under its own name.
  field_map: Object.fromEntries(callFields.map((f) => [f, f])),
  revoked_at: null,
  last_used_at: null,
  accepted_count: 0,
  refused_count: 0,
  created_at: '2026-11-25T09:00:00.000Z',
};

const page = (items: unknown[]) => ({ items, total: items.length, page: 1, page_size: 25 });

let created = false;
let posted: unknown[] = [];

beforeEach(() => {
  created = false;
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const method = init?.method ?? 'GET';
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      if (url.pathname === '/api/v1/admin/integrations/refusals') return json(200, page([]));
      if (url.pathname === '/api/v1/admin/integrations' && method === 'POST') {
        posted.push(JSON.parse(String(init?.body)));
        created = true;
        return json(201, { integration, key: KEY });
      }
      if (url.pathname === '/api/v1/admin/integrations') {
        return json(200, page(created ? [integration] : []));
      }
      return json(404, { error: { code: 'not_found', message: 'No route.' } });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('IntegrationsPage', () => {
  it('creates an integration and shows its key once', async () => {
    renderWithApp(<IntegrationsPage />, { url: '/admin/integrations' });
    await screen.findByText('No integrations yet.');
    fireEvent.click(screen.getByRole('button', { name: 'New Integration' }));
    const form = await screen.findByRole('dialog', { name: 'New Integration' });
    fireEvent.change(within(form).getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Ringba production' },
    });
    fireEvent.change(within(form).getByLabelText('Allowed source addresses'), {
      target: { value: '203.0.113.0/24' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Integration' }));

    const keyDialog = await screen.findByRole('dialog', { name: 'Key for Ringba production' });
    expect(posted).toEqual([
      { name: 'Ringba production', allowed_ips: ['203.0.113.0/24'], field_map: {} },
    ]);
    expect(within(keyDialog).getByText(KEY)).toBeTruthy();
    expect(within(keyDialog).getByText(/It will not be shown again/)).toBeTruthy();
    expect(within(keyDialog).getByRole('button', { name: 'Copy secret key' })).toBeTruthy();
    // The pixel URL carries the key and Ringba's tokens.
    const pixel = within(keyDialog).getByText(/\[Call:InboundCallId\]/);
    expect(pixel.textContent).toContain(`key=${KEY}`);
    expect(pixel.textContent).toContain('caller=[tag:InboundNumber:Number]');

    fireEvent.click(within(keyDialog).getByRole('button', { name: 'I have copied the key' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Key for Ringba production' })).toBeNull(),
    );
    // The list shows the new integration by its prefix; the key itself is gone for good.
    await screen.findByText(`${KEY.slice(0, 9)}…`);
    expect(screen.getByText('Ringba production')).toBeTruthy();
    expect(document.body.textContent).not.toContain(KEY);
  });

  it('says which source address is wrong and sends nothing', async () => {
    renderWithApp(<IntegrationsPage />, { url: '/admin/integrations' });
    fireEvent.click(await screen.findByRole('button', { name: 'New Integration' }));
    const form = await screen.findByRole('dialog', { name: 'New Integration' });
    fireEvent.change(within(form).getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Locked' },
    });
    fireEvent.change(within(form).getByLabelText('Allowed source addresses'), {
      target: { value: '10.0.0.0/33' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Integration' }));
    await within(form).findByText(/10\.0\.0\.0\/33 is not an IP address or CIDR range/);
    expect(posted).toEqual([]);
  });
});
