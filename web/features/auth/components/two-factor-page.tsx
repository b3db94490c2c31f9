import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import type { Factor } from '@supabase/auth-js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { twoFactorPaths } from '@/app/two-factor-paths.ts';
import { loadAuthClient, useAuth } from '@/lib/auth.tsx';
import { formatDate } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';
import { usePublicSettings } from '@/lib/public-settings.ts';
import { needsSecondFactor } from '@/lib/second-factor.ts';
import { AuthPageLayout } from './auth-page-layout.tsx';
import { NewRecoveryCodesButton } from './recovery-codes.tsx';
import { CodeField, codeProblem, twoFactorErrorMessage, verifyCode } from './two-factor-shared.tsx';

const factorsKey = (userId: string | undefined) => ['mfa-factors', userId ?? null] as const;

/**
 * /account/two-factor (Profile → Two-factor sign-in): the user's authenticator apps. Removing
 * one asks for a current code from that app first, so an unattended signed-in browser cannot
 * turn two-factor sign-in off.
 */
export function TwoFactorPage() {
  const { session, user, loading } = useAuth();
  const navigate = useNavigate();
  const { data: settings } = usePublicSettings();
  const queryClient = useQueryClient();
  const secondFactorDue = needsSecondFactor(session);
  const factors = useQuery({
    queryKey: factorsKey(user?.id),
    enabled: Boolean(user) && !secondFactorDue,
    queryFn: async () => {
      const { data, error } = await (await loadAuthClient()).mfa.listFactors();
      if (error) throw error;
      return data.all.filter((f) => f.status === 'verified');
    },
  });
  const [removing, setRemoving] = useState<Factor | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  if (!loading && !session) return <Navigate to={paths.login} replace />;
  if (secondFactorDue) return <Navigate to={paths.twoFactorVerify} replace />;
  const list = factors.data ?? [];

  const closeRemoval = () => {
    setRemoving(null);
    setCode('');
    setError(null);
  };

  const handleRemove = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // (Only the open removal dialog submits; without one, just the code's own problem shows.)
    if (!removing) {
      setError(codeProblem(code));
      return;
    }
    await verifyCode({ code, setCode, setError, setPending }, removing.id, async () => {
      const { error: failed } = await (await loadAuthClient()).mfa.unenroll({
        factorId: removing.id,
      });
      if (failed) {
        setError(twoFactorErrorMessage(failed));
        return;
      }
      // The session drops back to aal1 without this app: fetch its new claims now.
      await (await loadAuthClient()).refreshSession();
      toast({
        title: 'Authenticator app removed',
        description: `${removing.friendly_name || 'The app'} no longer signs you in.`,
      });
      closeRemoval();
      await queryClient.invalidateQueries({ queryKey: factorsKey(user?.id) });
    });
  };

  return (
    <AuthPageLayout
      title="Two-factor sign-in"
      subtitle="Sign in with your password and a 6-digit code from an app on your phone."
    >
      <Stack gap="md">
        {factors.isLoading ? (
          <Text size="sm" c="dimmed">
            Loading your authenticator apps…
          </Text>
        ) : factors.isError ? (
          <Alert color="red" variant="light" title="Could not load your authenticator apps">
            <Button size="xs" variant="light" onClick={() => void factors.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : list.length === 0 ? (
          <Alert color="yellow" variant="light" title="Two-factor sign-in is off">
            Your password alone opens your account. Add an authenticator app to turn it on.
          </Alert>
        ) : (
          <Stack gap="xs">
            <Group gap="xs">
              <Badge color="teal.9" variant="filled">
                On
              </Badge>
              <Text size="sm">Signing in asks for a code from one of these apps:</Text>
            </Group>
            {list.map((f) => (
              <Paper key={f.id} withBorder p="sm" radius="md">
                <Group justify="space-between" wrap="nowrap">
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text fw={600} truncate="end">
                      {f.friendly_name || 'Authenticator app'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      Added {formatDate(f.created_at)}
                    </Text>
                  </Stack>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => setRemoving(f)}
                    aria-label={`Remove ${f.friendly_name || 'authenticator app'}`}
                  >
                    Remove
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
        <Button onClick={() => navigate(twoFactorPaths.setup)} disabled={list.length >= 10}>
          Add authenticator app
        </Button>
        {list.length > 0 ? (
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              Recovery codes sign you in once each when your phone is lost. Making new ones ends the
              old ones.
            </Text>
            <NewRecoveryCodesButton company={settings?.company_name} />
          </Stack>
        ) : null}
        <Anchor component={Link} to={paths.root} size="sm">
          Back to your dashboard
        </Anchor>
      </Stack>
      <Modal
        opened={removing !== null}
        onClose={closeRemoval}
        title={`Remove ${removing?.friendly_name || 'authenticator app'}`}
        centered
      >
        <form onSubmit={handleRemove} noValidate>
          <Stack gap="md">
            <Text size="sm">
              Enter a current code from this app to confirm it is you.
              {list.length === 1
                ? ' It is your only app: your password alone will open your account again.'
                : ''}
            </Text>
            <CodeField value={code} error={error} onChange={setCode} autoFocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={closeRemoval}>
                Cancel
              </Button>
              <Button type="submit" color="red" disabled={pending}>
                {pending ? 'Removing…' : 'Remove'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </AuthPageLayout>
  );
}
