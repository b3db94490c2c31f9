import { useEffect, useRef } from 'react';
import { useAuth } from '@/lib/auth.tsx';
import { useMe } from '@/lib/me.ts';
import { toast } from '@/lib/notify.ts';

export type RoleCheck =
  | { state: 'loading' }
  | { state: 'signed-out' }
  | { state: 'failed' }
  | { state: 'ready'; role: string };

/**
 * Resolves the signed-in user's role from GET /api/v1/me (the server's word, not the token's).
 * When the role cannot be read, it says so and signs out, as spec §6 asks.
 */
export function useVerifiedRole(): RoleCheck {
  const { user, loading, signOut } = useAuth();
  const me = useMe(user?.id);
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
  if (me.isError) return { state: 'failed' };
  if (!me.data) return { state: 'loading' };
  return { state: 'ready', role: me.data.role };
}
