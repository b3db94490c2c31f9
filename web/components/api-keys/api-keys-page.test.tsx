import type { ApiKey } from '@contract/api-keys.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { fakeCollection, stubApi } from '@/test/stub-api.ts';
import { ApiKeysScreen } from './api-keys-page.tsx';

const KEY = 'pk_TheSecretKeyShownOnlyOnce_0123456789abcdefghijk';

/** The server's keys, as the stubbed API keeps them. */
let keys: ReturnType<typeof fakeCollection<ApiKey>>;

beforeEach(() => {
  keys = fakeCollection(
    '/api/v1/me/api-keys',
    (body: Pick<ApiKey, 'name' | 'scopes' | 'expires_at'>): ApiKey => ({
      id: '5f0e8d8e-2f7a-4c1e-9a55-0c1f3a9d2b11',
      name: body.name,
      prefix: KEY.slice(0, 12),
      scopes: body.scopes,
      created_at: new Date().toISOString(),
      expires_at: body.expires_at,
      last_used_at: null,
    }),
    (key) => ({ ...key, key: KEY }),
  );
  stubApi(keys.route);
});

describe('ApiKeysScreen', () => {
  it('offers a publisher only the read scopes', async () => {
    renderWithApp(<ApiKeysScreen userRole="publisher" />);
    await screen.findByText(/No API keys yet/);
    fireEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    const form = await screen.findByRole('dialog', { name: 'New API Key' });
    const boxes = within(form)
      .getAllByRole('checkbox')
      .map((b) => (b as HTMLInputElement).value);
    expect(boxes).toEqual(['leads:read', 'payouts:read', 'reports:read']);
  });

  it('creates a key, shows it once with a copy button, lists it without the secret, revokes it after a confirmation', async () => {
    renderWithApp(<ApiKeysScreen userRole="admin" />);
    await screen.findByText(/No API keys yet/);
    fireEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    const form = await screen.findByRole('dialog', { name: 'New API Key' });
    expect(within(form).getByRole('checkbox', { name: /leads:write/ })).toBeTruthy();

    // Nothing chosen: the form says what is missing and sends nothing.
    fireEvent.click(within(form).getByRole('button', { name: 'Create Key' }));
    expect(await within(form).findByText('Give the key a name.')).toBeTruthy();
    expect(within(form).getByText('Choose at least one scope.')).toBeTruthy();
    expect(keys.posted).toEqual([]);

    fireEvent.change(within(form).getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Nightly export' },
    });
    fireEvent.click(within(form).getByRole('checkbox', { name: /leads:read/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Create Key' }));

    const once = await screen.findByRole('dialog', { name: 'Key Nightly export' });
    expect(within(once).getByText(KEY)).toBeTruthy();
    expect(within(once).getByText('Copy this key now')).toBeTruthy();
    expect(within(once).getByRole('button', { name: 'Copy API key' })).toBeTruthy();
    expect(keys.posted).toHaveLength(1);
    expect(keys.posted[0]).toMatchObject({ name: 'Nightly export', scopes: ['leads:read'] });
    // 90 days unless chosen otherwise.
    const expiry = Date.parse((keys.posted[0] as { expires_at: string }).expires_at);
    expect(Math.round((expiry - Date.now()) / 86_400_000)).toBe(90);

    fireEvent.click(within(once).getByRole('button', { name: 'I have copied the key' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Key / })).toBeNull());
    // The list: its name and first characters, never the key itself.
    expect(await screen.findByText('Nightly export')).toBeTruthy();
    expect(screen.getByText(`${KEY.slice(0, 12)}…`)).toBeTruthy();
    expect(screen.queryByText(KEY)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Revoke Nightly export' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke API key?' });
    expect(within(confirm).getByText(/stops working at once/)).toBeTruthy();
    expect(keys.deleted).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke Key' }));
    await waitFor(() => expect(keys.deleted).toEqual(['5f0e8d8e-2f7a-4c1e-9a55-0c1f3a9d2b11']));
    expect(await screen.findByText(/No API keys yet/)).toBeTruthy();
  });
});
