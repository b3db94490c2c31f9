import { Alert, Anchor, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { authCallWent, authFailedToast, fieldRules } from '@/features/auth/auth-errors.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { NewPasswordFields, SubmitButton } from './auth-fields.tsx';
import { AuthPageLayout } from './auth-page-layout.tsx';

type Values = { password: string; confirmPassword: string; code: string };

/**
 * /account/password: a signed-in user changes the password. A session older than a day must
 * prove it is the owner with the code the server mails (GoTrue's reauthentication), so a stolen
 * access token alone cannot take the account over.
 */
export function ChangePasswordPage() {
  const { session, loading, updatePassword, reauthenticate } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [codeSent, setCodeSent] = useState(false);
  const form = useForm<Values>({
    initialValues: { password: '', confirmPassword: '', code: '' },
    validate: {
      password: fieldRules.newPassword,
      confirmPassword: (v, all) => (v === all.password ? null : 'Passwords do not match'),
      code: (v) => (codeSent && !/^\d{6}$/.test(v.trim()) ? 'Enter the 6-digit code' : null),
    },
  });

  const sendCode = async () => {
    if (!(await authCallWent(reauthenticate(), 'Code not sent'))) return false;
    setCodeSent(true);
    toast({ title: 'Code sent', description: 'Check your e-mail for a 6-digit code.' });
    return true;
  };

  const handleSubmit = form.onSubmit(async (values) => {
    setPending(true);
    try {
      const nonce = codeSent ? values.code.trim() : undefined;
      const { error } = await updatePassword(values.password, nonce);
      if (error?.code === 'reauthentication_needed') {
        await sendCode();
        return;
      }
      if (error?.code === 'reauthentication_not_valid') {
        form.setFieldError('code', 'This code is wrong or has expired. Send a new code.');
        return;
      }
      if (error) {
        authFailedToast('Error', error);
        return;
      }
      toast({ title: 'Password changed', description: 'Your other sessions were signed out.' });
      navigate(paths.root, { replace: true });
    } finally {
      setPending(false);
    }
  });

  if (!loading && !session) return <Navigate to={paths.login} replace />;

  let codeStep: ReactNode = null;
  if (codeSent) {
    codeStep = (
      <>
        <Alert color="blue" variant="light">
          For your security we e-mailed you a 6-digit code. Enter it to confirm the change.
        </Alert>
        <TextInput
          label="Code from the e-mail"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          {...form.getInputProps('code')}
        />
        <Group justify="flex-end" mt={-6}>
          <Anchor component="button" type="button" size="sm" onClick={() => void sendCode()}>
            Send a new code
          </Anchor>
        </Group>
      </>
    );
  }

  return (
    <AuthPageLayout title="Change your password" subtitle="Enter your new password twice.">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <NewPasswordFields
            password={form.getInputProps('password')}
            confirm={form.getInputProps('confirmPassword')}
          />
          {codeStep}
          <SubmitButton
            pending={pending}
            disabled={pending || loading}
            label="Change password"
            pendingLabel="Saving…"
          />
          <Anchor component={Link} to={paths.root} ta="center" size="sm">
            Back to my dashboard
          </Anchor>
        </Stack>
      </form>
    </AuthPageLayout>
  );
}
