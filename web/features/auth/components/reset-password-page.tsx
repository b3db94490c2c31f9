import { Alert, Anchor, Button, PasswordInput, Skeleton, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { authErrorMessage } from '@/features/auth/auth-errors.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { AuthPageLayout } from './auth-page-layout.tsx';

const MIN_PASSWORD_LENGTH = 6;

/** /reset-password: the new-password form, shown only after a PASSWORD_RECOVERY event. */
export function ResetPasswordPage() {
  const { recovery, loading, updatePassword, signOut } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const form = useForm({ initialValues: { password: '', confirmPassword: '' } });

  const handleSubmit = form.onSubmit(async ({ password, confirmPassword }) => {
    form.clearErrors();
    if (password !== confirmPassword) {
      form.setFieldError('confirmPassword', 'Passwords do not match');
      toast({
        title: 'Passwords do not match',
        description: 'Please make sure your passwords match.',
        variant: 'destructive',
      });
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      form.setFieldError('password', 'Password too short');
      toast({
        title: 'Password too short',
        description: 'Password should be at least 6 characters long.',
        variant: 'destructive',
      });
      return;
    }
    setPending(true);
    try {
      const { error } = await updatePassword(password);
      if (error) {
        toast({ title: 'Error', description: authErrorMessage(error), variant: 'destructive' });
        return;
      }
      setDone(true);
      toast({
        title: 'Password Reset Successful',
        description: 'You can now log in with your new password.',
      });
      // The recovery session has done its job: sign in again with the new password.
      await signOut('local');
      navigate(paths.login, { replace: true });
    } finally {
      setPending(false);
    }
  });

  let body: ReactNode;
  if (loading && !done) {
    body = (
      <Stack gap="md" aria-busy="true" aria-label="Checking your reset link">
        <Skeleton height={36} />
        <Skeleton height={36} />
        <Skeleton height={36} />
      </Stack>
    );
  } else if (!recovery && !done) {
    body = (
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert">
          Invalid or expired password reset link. Please request a new one.
        </Alert>
        <Anchor component={Link} to={paths.forgotPassword} ta="center">
          Request a new reset link
        </Anchor>
      </Stack>
    );
  } else {
    body = (
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description="At least 6 characters."
            required
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" fullWidth disabled={pending || done}>
            {pending ? 'Saving…' : 'Reset password'}
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <AuthPageLayout title="Choose a new password" subtitle="Enter your new password twice.">
      {body}
    </AuthPageLayout>
  );
}
