import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '@/test/fake-api.ts';
import { itemTexts } from '@/test/item-texts.ts';
import { renderWithApp } from '@/test/render.tsx';

// The auth client and the toasts, as the screens see them (issue 34's recovery codes).
const auth = vi.hoisted(() => ({
  challengeAndVerify: vi.fn(),
  toast: vi.fn(),
  aal: 'aal1',
}));

/** An access token whose claims say `aal` (the screens read it without checking). */
const tokenWith = (aal: string) => `x.${btoa(JSON.stringify({ aal }))}.y`;
const session = () => ({
  access_token: tokenWith(auth.aal),
  user: {
    id: 'u1',
    factors: [{ id: 'f1', status: 'verified', friendly_name: 'Phone', factor_type: 'totp' }],
  },
});

vi.mock('@/lib/auth.tsx', () => ({
  loadAuthClient: async () => ({
    getSession: async () => ({ data: { session: session() } }),
    mfa: { challengeAndVerify: auth.challengeAndVerify },
  }),
  useAuth: () => ({ session: session(), user: session().user, loading: false, signOut: vi.fn() }),
}));
vi.mock('@/lib/notify.ts', () => ({ toast: auth.toast }));

const { RecoveryCodesPanel, NewRecoveryCodesButton } = await import('./recovery-codes.tsx');
const { TwoFactorVerifyPage } = await import('./two-factor-verify-page.tsx');

const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-wxyz${i}`);

beforeEach(() => {
  auth.challengeAndVerify.mockReset();
  auth.toast.mockReset();
  auth.aal = 'aal1';
});

describe('RecoveryCodesPanel', () => {
  it('lists the 10 codes once, with Copy and a Download of them as a text file', async () => {
    const made: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (b: Blob) => {
        made.push(b);
        return 'blob:codes';
      },
      revokeObjectURL: () => {},
    });
    renderWithApp(<RecoveryCodesPanel codes={codes} company="Acme Calls" />);
    const list = screen.getByRole('list', { name: 'Recovery codes' });
    expect(itemTexts(list)).toEqual(codes);
    expect(screen.getByText('Save your recovery codes now')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(made).toHaveLength(1);
    const text = await made[0]!.text();
    expect(text).toContain('Two-factor recovery codes for Acme Calls');
    for (const c of codes) expect(text).toContain(`\n${c}\n`);
  });
});

describe('NewRecoveryCodesButton', () => {
  it('asks first (red), then shows the new set the server made', async () => {
    auth.aal = 'aal2';
    const fetch = stubFetch(({ url, method }) =>
      url.pathname === '/auth/v1/factors/recovery-codes' && method === 'POST'
        ? json(200, { codes })
        : json(404, {}),
    );
    renderWithApp(<NewRecoveryCodesButton />);
    fireEvent.click(screen.getByRole('button', { name: 'New recovery codes' }));
    const ask = await screen.findByRole('dialog', { name: 'Replace your recovery codes?' });
    expect(ask.textContent).toContain('the codes you have now stop working at once');
    expect(fetch).not.toHaveBeenCalled();
    const confirm = within(ask).getByRole('button', { name: 'Make new codes' });
    expect(confirm.getAttribute('style')).toContain('--mantine-color-red-filled');
    fireEvent.click(confirm);
    const shown = await screen.findByRole('dialog', { name: 'Your new recovery codes' });
    expect(within(shown).getAllByRole('listitem')).toHaveLength(10);
    const [, init] = fetch.mock.calls[0]!;
    expect(new Headers(init?.headers).get('authorization')).toBe(`Bearer ${tokenWith('aal2')}`);
  });

  it('says why when the server refuses', async () => {
    stubFetch(() =>
      json(403, {
        code: 'insufficient_aal',
        message: 'Recovery codes need a session signed in with two-factor sign-in (AAL2).',
      }),
    );
    renderWithApp(<NewRecoveryCodesButton />);
    fireEvent.click(screen.getByRole('button', { name: 'New recovery codes' }));
    const ask = await screen.findByRole('dialog', { name: 'Replace your recovery codes?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Make new codes' }));
    await waitFor(() =>
      expect(auth.toast).toHaveBeenCalledWith(
        expect.objectContaining({
          title: 'No new codes',
          description: 'Recovery codes need a session signed in with two-factor sign-in (AAL2).',
        }),
      ),
    );
    expect(screen.queryByRole('dialog', { name: 'Your new recovery codes' })).toBeNull();
  });
});

describe('TwoFactorVerifyPage', () => {
  it('takes a recovery code instead of the app code through the same verify', async () => {
    auth.challengeAndVerify.mockResolvedValue({ data: {}, error: null });
    renderWithApp(<TwoFactorVerifyPage />, { url: '/login/verify' });
    expect(screen.getByLabelText(/^Code/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText(/^Recovery code/);
    fireEvent.change(field, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText(
        'Enter one of your recovery codes: 10 letters and digits, like k3f9q-7xw2m',
      ),
    ).toBeTruthy();
    expect(auth.challengeAndVerify).not.toHaveBeenCalled();
    fireEvent.change(field, { target: { value: ' K3F9Q-7XW2M ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(auth.challengeAndVerify).toHaveBeenCalledWith({
        factorId: 'f1',
        code: 'K3F9Q-7XW2M',
      }),
    );
    await waitFor(() =>
      expect(auth.toast).toHaveBeenCalledWith(
        expect.objectContaining({ title: 'Login Successful' }),
      ),
    );
  });

  it('shows the server refusal of a used code and keeps the step', async () => {
    auth.challengeAndVerify.mockResolvedValue({
      data: null,
      error: {
        code: 'mfa_verification_failed',
        message: 'This recovery code is not valid, or it has already been used.',
      },
    });
    renderWithApp(<TwoFactorVerifyPage />, { url: '/login/verify' });
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    fireEvent.change(screen.getByLabelText(/^Recovery code/), {
      target: { value: 'k3f9q-7xw2m' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('This recovery code is not valid, or it has already been used.'),
    ).toBeTruthy();
    expect(auth.toast).not.toHaveBeenCalled();
    // Back to the app's code.
    fireEvent.click(screen.getByRole('button', { name: 'Use a code from your authenticator app' }));
    expect(screen.getByLabelText(/^Code/)).toBeTruthy();
  });
});
