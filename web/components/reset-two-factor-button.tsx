import { Button } from '@mantine/core';
import { IconShieldOff } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { failedToast, toast } from '@/lib/notify.ts';

type ResetTwoFactorButtonProps = {
  user: { id: string; name: string | null; email: string };
  /** The user's verified authenticator apps; nothing to reset (no button) when 0. */
  apps: number;
  size?: 'xs' | 'sm';
};

/**
 * "Reset two-factor" for a user who lost their phone (issue 17): asks first, then removes every
 * authenticator app of the user. The server audits it and e-mails the user.
 */
export function ResetTwoFactorButton({ user, apps, size = 'sm' }: ResetTwoFactorButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const mutation = useApiMutation(
    (userId: string) => apiCall(apiRoutes.admin.resetUserFactors(userId)),
    ['admin'],
  );
  if (apps === 0) return null;
  const who = user.name || user.email;

  const handleConfirm = () =>
    mutation.mutate(user.id, {
      onSuccess: () => {
        setConfirming(false);
        toast({
          title: 'Two-factor sign-in reset',
          description: `${who} signs in with the password alone until they add an app again. They have been e-mailed.`,
        });
      },
      onError: (err) => {
        setConfirming(false);
        failedToast('Reset failed')(err);
      },
    });

  return (
    <>
      <Button
        size={size}
        variant="light"
        color="red"
        leftSection={<IconShieldOff size={16} />}
        onClick={(e) => {
          e.stopPropagation();
          setConfirming(true);
        }}
        aria-label={`Reset two-factor sign-in of ${who}`}
      >
        Reset two-factor
      </Button>
      <ConfirmDialog
        opened={confirming}
        title="Reset two-factor sign-in?"
        confirmLabel="Reset two-factor"
        pending={mutation.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={handleConfirm}
      >
        {`${who}'s ${apps === 1 ? 'authenticator app is' : `${apps} authenticator apps are`} removed: they sign in with their password alone until they add an app again. Do this only when you are sure it is them (a lost phone). They get an e-mail naming you, and the audit log keeps it.`}
      </ConfirmDialog>
    </>
  );
}
