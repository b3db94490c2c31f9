import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';

/** Sign Out of every shell: ends the session, says so, and goes to /login. */
export function useSignOut() {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function handleSignOut() {
    setPending(true);
    try {
      const { error } = await signOut();
      if (error) {
        toast({
          title: 'Sign out Failed',
          description: error.message || 'Something went wrong',
          variant: 'destructive',
        });
        return;
      }
      toast({ title: 'Logged out', description: 'You have been successfully logged out.' });
      navigate(paths.login, { replace: true });
    } catch (err) {
      toast({
        title: 'Sign out Failed',
        description: err instanceof Error && err.message ? err.message : 'Something went wrong',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  }

  return { handleSignOut, pending };
}
