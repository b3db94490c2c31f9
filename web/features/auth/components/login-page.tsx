import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths, signedInState } from '@/app/routes.ts';
import { authCallWent, authFailedToast, fieldRules } from '@/features/auth/auth-errors.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { usePublicSettings } from '@/lib/public-settings.ts';
import { EmailField, SubmitButton } from './auth-fields.tsx';
import { AuthPageLayout } from './auth-page-layout.tsx';

/** /login: e-mail and password; on success the role redirect at `/` (which greets). */
export function LoginPage() {
  const { signIn, resendConfirmation } = useAuth();
  const navigate = useNavigate();
  const { data: settings } = usePublicSettings();
  const [pending, setPending] = useState(false);
  // The address that signed in correctly but is not confirmed yet: offer the mail again.
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const [resending, setResending] = useState(false);

  const resend = async () => {
    if (!unconfirmed) return;
    setResending(true);
    try {
      if (!(await authCallWent(resendConfirmation(unconfirmed), 'Not sent'))) return;
      toast({
        title: 'Confirmation e-mail sent',
        description: `Check the inbox of ${unconfirmed} and open the link.`,
      });
    } finally {
      setResending(false);
    }
  };
  // Two fields, checked on submit, an error cleared by typing: plain state instead of
  // @mantine/form keeps ~6 KB gzip out of what /login downloads (its 150 KB budget).
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});
  const fieldProps = (name: 'email' | 'password') => ({
    value: values[name],
    error: errors[name] ?? undefined,
    onChange: (event: { currentTarget: HTMLInputElement }) => {
      const value = event.currentTarget.value;
      setValues((v) => ({ ...v, [name]: value }));
      setErrors((e) => ({ ...e, [name]: null }));
    },
  });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = {
      email: fieldRules.email(values.email),
      password: fieldRules.password(values.password),
    };
    setErrors(found);
    if (found.email || found.password) return;
    setPending(true);
    try {
      const { error, session } = await signIn(values.email.trim(), values.password);
      setUnconfirmed(error?.code === 'email_not_confirmed' ? values.email.trim() : null);
      if (error) {
        authFailedToast('Login Failed', error);
        return;
      }
      if (session?.user.factors?.some((f) => f.status === 'verified')) {
        // The password was right; the authenticator code comes next (its own lazy screen).
        navigate(paths.twoFactorVerify, { replace: true });
        return;
      }
      // `/` sends an admin without an authenticator app to its enrolment first (issue 17), and
      // says "Login Successful" only when it goes straight to the dashboard.
      navigate(paths.root, { replace: true, state: signedInState });
    } catch {
      // The sign-in code (a chunk of its own) could not be fetched: offline for a moment.
      toast({
        title: 'Login Failed',
        description: 'Could not reach the server. Check your connection and try again.',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthPageLayout
      title={settings?.company_name ? `Sign in to ${settings.company_name}` : 'Sign in'}
      subtitle="Enter your email and password to access your dashboard."
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <EmailField {...fieldProps('email')} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...fieldProps('password')}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              Forgot your password?
            </Anchor>
          </Group>
          <SubmitButton pending={pending} label="Sign in" pendingLabel="Signing in…" />
          {unconfirmed ? (
            <Alert color="yellow" variant="light" title="Confirm your e-mail address">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">
                  We sent a confirmation link to {unconfirmed} when you signed up. Open it, then
                  sign in.
                </Text>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => void resend()}
                  disabled={resending}
                >
                  {resending ? 'Sending…' : 'Resend confirmation e-mail'}
                </Button>
              </Stack>
            </Alert>
          ) : null}
          <Stack gap={4} align="center">
            <Text size="sm" c="dimmed">
              Don't have an account?
            </Text>
            <Group gap="md" justify="center">
              <Anchor component={Link} to={paths.signup} size="sm">
                Sign up as a Publisher
              </Anchor>
              <Anchor component={Link} to={paths.buyerSignup} size="sm">
                Sign up as a Buyer
              </Anchor>
            </Group>
          </Stack>
        </Stack>
      </form>
    </AuthPageLayout>
  );
}
