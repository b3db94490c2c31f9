import { Anchor, Button, Select, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { needsSecondFactor } from '@/lib/second-factor.ts';
import { AuthPageLayout } from './auth-page-layout.tsx';
import {
  CodeField,
  RecoveryCodeField,
  recoveryCodeProblem,
  verifyCode,
} from './two-factor-shared.tsx';

/**
 * /login/verify: the step after the password for a user with an authenticator app. The code
 * raises the session to aal2 (GoTrue's challenge + verify); until then the API answers nothing.
 */
export function TwoFactorVerifyPage() {
  const { session, loading, signOut } = useAuth();
  const navigate = useNavigate();
  const factors = (session?.user.factors ?? []).filter((f) => f.status === 'verified');
  const [factorId, setFactorId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // A recovery code instead of the app's (issue 34): the same verify, another kind of code.
  const [recovery, setRecovery] = useState(false);

  if (!loading && !session) return <Navigate to={paths.login} replace />;
  if (session && !needsSecondFactor(session) && !pending) {
    return <Navigate to={paths.root} replace />;
  }
  const chosen = factorId ?? factors[0]?.id ?? null;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await verifyCode(
      { code, setCode, setError, setPending },
      chosen,
      () => {
        toast({
          title: 'Login Successful',
          description: recovery
            ? 'That recovery code is used up. Make new codes under Profile → Two-factor sign-in.'
            : 'Redirecting to your dashboard...',
        });
        navigate(paths.root, { replace: true });
      },
      recovery ? recoveryCodeProblem : undefined,
    );
  };

  const switchKind = () => {
    setRecovery((r) => !r);
    setCode('');
    setError(null);
  };

  const handleOtherAccount = async () => {
    await signOut('local');
    navigate(paths.login, { replace: true });
  };

  return (
    <AuthPageLayout
      title="Two-factor sign-in"
      subtitle={
        recovery
          ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in.'
          : 'Open your authenticator app and enter the 6-digit code it shows for this portal.'
      }
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          {factors.length > 1 && !recovery ? (
            <Select
              label="Authenticator app"
              data={factors.map((f) => ({
                value: f.id,
                label: f.friendly_name || 'Authenticator app',
              }))}
              value={chosen}
              onChange={setFactorId}
              allowDeselect={false}
            />
          ) : null}
          {recovery ? (
            <RecoveryCodeField
              value={code}
              error={error}
              onChange={(v) => {
                setCode(v);
                setError(null);
              }}
            />
          ) : (
            <CodeField value={code} error={error} onChange={setCode} autoFocus />
          )}
          <Button type="submit" fullWidth disabled={pending || !chosen}>
            {pending ? 'Checking…' : 'Verify'}
          </Button>
          <Anchor component="button" type="button" size="sm" onClick={switchKind}>
            {recovery ? 'Use a code from your authenticator app' : 'Use a recovery code'}
          </Anchor>
          <Text size="sm" c="dimmed">
            Lost the phone with your authenticator app and your recovery codes? Ask another
            administrator to reset your two-factor sign-in, or the operator of this portal.
          </Text>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => void handleOtherAccount()}
          >
            Sign in with another account
          </Anchor>
        </Stack>
      </form>
    </AuthPageLayout>
  );
}
