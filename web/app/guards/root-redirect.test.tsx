import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoleCheck } from './use-verified-role.ts';

// Issue 34: "Login Successful" only when `/` goes straight to the dashboard after the password,
// never over the two-factor step or the enrolment that follows it.
const state = vi.hoisted(() => ({
  check: { state: 'loading' } as RoleCheck,
  toast: vi.fn(),
}));
vi.mock('./use-verified-role.ts', () => ({ useVerifiedRole: () => state.check }));
vi.mock('@/lib/auth.tsx', () => ({ useAuth: () => ({ user: { id: 'u1', factors: [] } }) }));
vi.mock('@/lib/notify.ts', () => ({ toast: state.toast }));
vi.mock('@/components/layouts/area-skeleton.tsx', () => ({ AreaSkeleton: () => null }));

const { RootRedirect } = await import('./root-redirect.tsx');

function At() {
  return <output data-testid="at">{useLocation().pathname}</output>;
}

function renderAt(afterSignIn: boolean) {
  render(
    <MemoryRouter initialEntries={[{ pathname: '/', state: afterSignIn ? { afterSignIn } : null }]}>
      <Routes>
        <Route path="/" element={<RootRedirect />} />
        <Route path="*" element={<At />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => state.toast.mockReset());

describe('RootRedirect after the password', () => {
  it('greets on the way to the dashboard', () => {
    state.check = { state: 'ready', role: 'admin', mfaRequired: false };
    renderAt(true);
    expect(screen.getByTestId('at').textContent).toBe('/admin');
    expect(state.toast).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Login Successful' }),
    );
  });

  it('says nothing when the two-factor enrolment comes first', () => {
    state.check = { state: 'ready', role: 'admin', mfaRequired: true };
    renderAt(true);
    expect(screen.getByTestId('at').textContent).toBe('/account/two-factor/setup');
    expect(state.toast).not.toHaveBeenCalled();
  });

  it('says nothing when the code step comes first', () => {
    state.check = { state: 'needs-second-factor' };
    renderAt(true);
    expect(screen.getByTestId('at').textContent).toBe('/login/verify');
    expect(state.toast).not.toHaveBeenCalled();
  });

  it('says nothing on a later visit of `/`', () => {
    state.check = { state: 'ready', role: 'admin', mfaRequired: false };
    renderAt(false);
    expect(screen.getByTestId('at').textContent).toBe('/admin');
    expect(state.toast).not.toHaveBeenCalled();
  });
});
