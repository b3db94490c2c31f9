import { Alert, Anchor, Skeleton, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { authCallWent } from '@/features/auth/auth-errors.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { NewPasswordFields, SubmitButton } from './auth-fields.tsx';
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
    /** Marks the box and says why in a toast titled like the box's message. */
    const refuse = (field: keyof typeof form.values, title: string, description: string) => {
      form.setFieldError(field, title);
      toast({ title, description, variant: 'destructive' });
    };
    if (password !== confirmPassword) {
      return refuse(
        'confirmPassword',
        'Passwords do not match',
        'Please make sure your passwords match.',
      );
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      return refuse(
        'password',
        'Password too short',
        'Password should be at least 6 characters long.',
      );
    }
    setPending(true);
    try {
      if (!(await authCallWent(updatePassword(password)))) return;
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
          <NewPasswordFields
            password={form.getInputProps('password')}
            confirm={form.getInputProps('confirmPassword')}
          />
          <SubmitButton
            pending={pending}
            disabled={pending || done}
            label="Reset password"
            pendingLabel="Saving…"
          />
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
