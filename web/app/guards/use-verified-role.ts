import { useEffect, useRef } from 'react';
import { useAuth } from '@/lib/auth.tsx';
import { useMe } from '@/lib/me.ts';
import { toast } from '@/lib/notify.ts';
import { needsSecondFactor } from '@/lib/second-factor.ts';

export type RoleCheck =
  | { state: 'loading' }
  | { state: 'signed-out' }
  | { state: 'failed' }
  /** Signed in with the password only; the authenticator code is still to come. */
  | { state: 'needs-second-factor' }
  | { state: 'ready'; role: string; mfaRequired: boolean };

/**
 * Resolves the signed-in user's role from GET /api/v1/me (the server's word, not the token's).
 * When the role cannot be read, it says so and signs out, as spec §6 asks.
 */
export function useVerifiedRole(): RoleCheck {
  const { user, session, loading, signOut } = useAuth();
  const secondFactorDue = needsSecondFactor(session);
  // Not asked before the code: the server answers 403 until the session is aal2.
  const me = useMe(secondFactorDue ? null : user?.id);
  const reported = useRef<string | null>(null);

  useEffect(() => {
    if (!user) reported.current = null;
    if (!me.isError || !user || reported.current === user.id) return;
    reported.current = user.id;
    toast({
      title: 'Authentication Error',
      description: 'Could not verify your role. Please log in again.',
      variant: 'destructive',
    });
    void signOut().then(async ({ error }) => {
      // The server may refuse the call (e.g. a session it already ended): drop it locally anyway.
      if (error) await signOut('local');
    });
  }, [me.isError, user, signOut]);

  if (loading) return { state: 'loading' };
  if (!user) return { state: 'signed-out' };
  if (secondFactorDue) return { state: 'needs-second-factor' };
  if (me.isError) return { state: 'failed' };
  if (!me.data) return { state: 'loading' };
  return { state: 'ready', role: me.data.role, mfaRequired: me.data.mfa_required === true };
}
