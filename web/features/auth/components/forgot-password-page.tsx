import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/app/routes.ts';
import { authCallWent, fieldRules } from '@/features/auth/auth-errors.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { EmailField, SubmitButton } from './auth-fields.tsx';
import { AuthPageLayout } from './auth-page-layout.tsx';

/** /forgot-password: asks for a reset link that lands on /reset-password. */
export function ForgotPasswordPage() {
  const { resetPasswordForEmail } = useAuth();
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);
  const form = useForm({ initialValues: { email: '' }, validate: { email: fieldRules.email } });

  const handleSubmit = form.onSubmit(async ({ email }) => {
    setPending(true);
    try {
      if (!(await authCallWent(resetPasswordForEmail(email.trim())))) return;
      setSent(true);
      toast({
        title: 'Check your email',
        description: 'A password reset link has been sent to your email address.',
      });
    } finally {
      setPending(false);
    }
  });

  return (
    <AuthPageLayout
      title="Forgot your password?"
      subtitle="Enter the email of your account and we will send you a link to choose a new password."
    >
      {sent ? (
        <Stack gap="md">
          <Alert color="green" variant="light" role="status">
            Password reset email sent! Please check your inbox (and spam folder).
          </Alert>
          <Anchor component={Link} to={paths.login} ta="center">
            Back to login
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <EmailField {...form.getInputProps('email')} />
            <SubmitButton pending={pending} label="Send reset link" pendingLabel="Sending…" />
            <Text size="sm" ta="center">
              <Anchor component={Link} to={paths.login} size="sm">
                Back to login
              </Anchor>
            </Text>
          </Stack>
        </form>
      )}
    </AuthPageLayout>
  );
}
