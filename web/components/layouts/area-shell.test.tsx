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
    // Fifteen entries, in their sections' order, then the account's three.
    expect(links).toEqual([
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
      'Change password',
      'Two-factor sign-in',
    ]);
    for (const heading of ['Partners', 'Review', 'Calls and money', 'Setup']) {
      expect(within(nav).getByText(heading)).toBeTruthy();
    }
    expect(within(nav).getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(nav).getByRole('button', { name: 'Sign Out' })).toBeTruthy();
  });
});
