import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { fieldRules } from '@/features/auth/auth-errors.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { AuthPageLayout } from './auth-page-layout.tsx';

/** /buyer-signup: a buyer signs up, then confirms the e-mail before the first sign-in. */
export function BuyerSignupPage() {
  const { signUp, signOut } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const form = useForm({
    initialValues: { full_name: '', company_name: '', email: '', password: '' },
    validate: {
      full_name: fieldRules.required('Full name'),
      email: fieldRules.email,
      password: fieldRules.newPassword,
    },
  });

  const handleSubmit = form.onSubmit(async (values) => {
    setPending(true);
    try {
      const { error, session } = await signUp({
        email: values.email.trim(),
        password: values.password,
        data: {
          full_name: values.full_name.trim(),
          company_name: values.company_name.trim(),
          role: 'buyer',
        },
        emailRedirectTo: `${window.location.origin}${paths.login}`,
      });
      if (error) {
        const message = error.message ?? '';
        // A mail rate limit means the account exists and only its confirmation e-mail was held
        // back. The per-IP request limit refused the request itself, so that one is a failure.
        if (
          message.toLowerCase().includes('rate limit') &&
          error.code !== 'over_request_rate_limit'
        ) {
          toast({
            title: 'Account Created!',
            description:
              'Your confirmation email is delayed because of high demand. Please try logging in in a few minutes.',
            duration: 7000,
          });
          navigate(paths.login);
          return;
        }
        toast({
          title: 'Signup Failed',
          description: message || 'An unexpected error occurred.',
          variant: 'destructive',
        });
        return;
      }
      if (session) await signOut('local');
      toast({
        title: 'Signup Successful',
        description: 'Please check your email to confirm your account. You can then log in.',
        duration: 5000,
      });
      navigate(paths.login);
    } catch (err) {
      console.error('Buyer sign-up failed', err);
      toast({
        title: 'Signup Failed',
        description: 'An unexpected error occurred.',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  });

  return (
    <AuthPageLayout
      title="Create a buyer account"
      subtitle="We will email you a link to confirm your address."
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Full name"
            autoComplete="name"
            required
            {...form.getInputProps('full_name')}
          />
          <TextInput
            label="Company name"
            description="Optional"
            autoComplete="organization"
            {...form.getInputProps('company_name')}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description="At least 6 characters."
            required
            {...form.getInputProps('password')}
          />
          <Button type="submit" fullWidth disabled={pending}>
            {pending ? 'Creating account…' : 'Create account'}
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            Already have an account?{' '}
            <Anchor component={Link} to={paths.login} size="sm" underline="always">
              Sign in
            </Anchor>
          </Text>
          <Text size="sm" ta="center" c="dimmed">
            Want to promote offers instead?{' '}
            <Anchor component={Link} to={paths.signup} size="sm" underline="always">
              Sign up as a Publisher
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthPageLayout>
  );
}
