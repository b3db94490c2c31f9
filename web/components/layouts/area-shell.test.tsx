import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminArea } from '@/app/routes/admin-area.tsx';
import { AuthProvider } from '@/lib/auth.tsx';
import { json, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { AreaShell } from './area-shell.tsx';

describe('AreaShell (the admin sidebar, issue 34)', () => {
  it('reads in sections and keeps every entry and the account links', () => {
    stubFetch(() => json(200, { unread: 0, exact: true }));
    renderWithApp(
      <AuthProvider>
        <AreaShell areaLabel="Admin" nav={adminArea.nav} />
      </AuthProvider>,
      { url: '/admin/webhooks' },
    );
    const nav = screen.getByRole('navigation', { name: 'Admin navigation' });
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => a.getAttribute('aria-label') ?? a.textContent);
    // The area's nineteen entries (Signatures and Returns joined Review, Live and Fraud the
    // calls, issues 31-33), then the account's links.
    expect(adminArea.nav).toHaveLength(19);
    expect(links).toEqual([
      ...adminArea.nav.map((n) => n.label),
      'Change password',
      'Two-factor sign-in',
    ]);
    // Each section's heading comes right before its first entry.
    const text = nav.textContent ?? '';
    expect(text.indexOf('Partners')).toBeLessThan(text.indexOf('Publishers'));
    expect(text.indexOf('Review')).toBeLessThan(text.indexOf('Applications'));
    expect(text.indexOf('Calls and money')).toBeLessThan(text.indexOf('Leads'));
    expect(text.indexOf('Setup')).toBeLessThan(text.indexOf('Integrations'));
    expect(text.indexOf('Setup')).toBeGreaterThan(text.indexOf('Reports'));
    for (const heading of ['Partners', 'Review', 'Calls and money', 'Setup']) {
      expect(within(nav).getByText(heading)).toBeTruthy();
    }
    expect(within(nav).getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(nav).getByRole('button', { name: 'Sign Out' })).toBeTruthy();
  });
});
