import type { Session, User } from '@supabase/auth-js';

// Kept out of web/lib/auth.tsx (which /login downloads): only the guards and the two-factor
// screens, all lazy, read these.

/** The `aal` claim of an access token (GoTrue's aal1 or aal2), read without checking it. */
function tokenAal(token: string): string | null {
  try {
    const part = token.split('.')[1] ?? '';
    const json = atob(part.replaceAll('-', '+').replaceAll('_', '/'));
    const aal = (JSON.parse(json) as { aal?: unknown }).aal;
    return typeof aal === 'string' ? aal : null;
  } catch {
    return null;
  }
}

/** True when the user has an authenticator app that is verified (two-factor sign-in is on). */
export function hasVerifiedFactor(user: User | null | undefined): boolean {
  return user?.factors?.some((f) => f.status === 'verified') ?? false;
}

/**
 * True when the session still needs the authenticator code: the user has a verified factor and
 * the token is aal1 (a password sign-in). The server refuses /api/v1 until then.
 */
export function needsSecondFactor(session: Session | null | undefined): boolean {
  return Boolean(
    session && hasVerifiedFactor(session.user) && tokenAal(session.access_token) !== 'aal2',
  );
}
