import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { useAuth } from '@/lib/auth.tsx';
import { failedToast, toast } from '@/lib/notify.ts';

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
        failedToast('Sign out Failed')(error);
        return;
      }
      toast({ title: 'Logged out', description: 'You have been successfully logged out.' });
      navigate(paths.login, { replace: true });
    } catch (err) {
      failedToast('Sign out Failed')(err);
    } finally {
      setPending(false);
    }
  }

  return { handleSignOut, pending };
}
