import { TextInput } from '@mantine/core';
import type { AuthError } from '@supabase/auth-js';
import { loadAuthClient } from '@/lib/auth.tsx';

/** What a person reads for the server's MFA refusals (its own sentence when it has a good one). */
export function twoFactorErrorMessage(error: AuthError): string {
  switch (error.code) {
    case 'mfa_verification_failed':
      return error.message === 'Invalid TOTP code entered'
        ? 'That code is not right. Enter the code your authenticator app shows now.'
        : error.message;
    case 'mfa_challenge_expired':
      return 'That took too long. Enter the code your authenticator app shows now.';
    case 'over_request_rate_limit':
      return error.message || 'Too many codes tried. Wait a minute, then try again.';
    case 'mfa_factor_name_conflict':
      return 'You already have an authenticator app with this name. Choose another name.';
    case 'too_many_enrolled_mfa_factors':
      return 'You have 10 authenticator apps already. Remove one before adding another.';
    default:
      return error.message || 'Something went wrong. Please try again.';
  }
}

/** Mantine's field descriptions are gray.6 (3.3:1 on white, refused by axe): the dimmed gray.7. */
export const readableDescription = { color: 'var(--mantine-color-dimmed)' };

/** A 6-digit code: checked on submit, before anything is sent. */
export function codeProblem(code: string): string | null {
  return /^\d{6}$/.test(code.trim()) ? null : 'Enter the 6-digit code from your authenticator app';
}

/** A recovery code ("k3f9q-7xw2m"; case, spaces and the dash do not matter). */
export function recoveryCodeProblem(code: string): string | null {
  return /^[0-9a-z]{10}$/i.test(code.replace(/[\s-]/g, ''))
    ? null
    : 'Enter one of your recovery codes: 10 letters and digits, like k3f9q-7xw2m';
}

/** A recovery code field: letters and digits, no autofill of one-time codes. */
export function RecoveryCodeField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      label="Recovery code"
      description="One of the codes you saved when you set up two-factor sign-in; each works once"
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={13}
      autoFocus
      value={value}
      error={error ?? undefined}
      onChange={(e) => onChange(e.currentTarget.value)}
      styles={{
        input: { fontFamily: 'monospace', fontSize: 20, letterSpacing: 2 },
        description: readableDescription,
      }}
    />
  );
}

type CodeFieldProps = {
  value: string;
  error: string | null;
  onChange: (value: string) => void;
  autoFocus?: boolean;
  label?: string;
};

/** The code field: digits only, the phone's one-time-code autofill, large monospaced text. */
export function CodeField({ value, error, onChange, autoFocus, label = 'Code' }: CodeFieldProps) {
  return (
    <TextInput
      label={label}
      description="6 digits, a new one every 30 seconds"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      autoFocus={autoFocus}
      value={value}
      error={error ?? undefined}
      onChange={(e) => onChange(e.currentTarget.value.replace(/\D/g, ''))}
      styles={{
        input: { fontFamily: 'monospace', fontSize: 20, letterSpacing: 4 },
        description: readableDescription,
      }}
    />
  );
}

/** The state a code form sets while its code is checked and verified. */
type CodeForm = {
  code: string;
  setCode: (code: string) => void;
  setError: (message: string | null) => void;
  setPending: (pending: boolean) => void;
};

/**
 * Submits a typed code for `factorId`: shows its problem, or verifies it with the auth client
 * (pending meanwhile); a refused code shows why and is cleared, an accepted one runs `then`.
 */
export async function verifyCode(
  form: CodeForm,
  factorId: string | null | undefined,
  then: () => Promise<void> | void,
  problemOf: (code: string) => string | null = codeProblem,
): Promise<void> {
  const problem = problemOf(form.code);
  form.setError(problem);
  if (problem || !factorId) return;
  form.setPending(true);
  try {
    const { error } = await (await loadAuthClient()).mfa.challengeAndVerify({
      factorId,
      code: form.code.trim(),
    });
    if (error) {
      form.setError(twoFactorErrorMessage(error));
      form.setCode('');
      return;
    }
    await then();
  } finally {
    form.setPending(false);
  }
}
