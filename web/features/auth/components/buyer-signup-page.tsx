import { Stack, TextInput } from '@mantine/core';
import { paths } from '@/app/routes.ts';
import { fieldRules } from '@/features/auth/auth-errors.ts';
import { toast } from '@/lib/notify.ts';
import { EmailField, NewPasswordInput, SignupFooter } from './auth-fields.tsx';
import { AuthPageLayout } from './auth-page-layout.tsx';
import { useSignupForm } from './use-signup-form.ts';

/** The toast of a sign-up that did not go through, with the server's sentence when there is one. */
function signupFailed(message: string) {
  toast({
    title: 'Signup Failed',
    description: message || 'An unexpected error occurred.',
    variant: 'destructive',
  });
}

/** /buyer-signup: a buyer signs up, then confirms the e-mail before the first sign-in. */
export function BuyerSignupPage() {
  const { form, pending, handleSubmit } = useSignupForm({
    initialValues: { full_name: '', company_name: '', email: '', password: '' },
    validate: {
      full_name: fieldRules.required('Full name'),
      email: fieldRules.email,
      password: fieldRules.newPassword,
    },
    request: (values) => ({
      email: values.email.trim(),
      password: values.password,
      data: {
        full_name: values.full_name.trim(),
        company_name: values.company_name.trim(),
        role: 'buyer',
      },
      emailRedirectTo: `${window.location.origin}${paths.login}`,
    }),
    created: {
      title: 'Signup Successful',
      description: 'Please check your email to confirm your account. You can then log in.',
      duration: 5000,
    },
    onRefused: (error, toLogin) => {
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
        toLogin();
        return;
      }
      signupFailed(message);
    },
    onThrown: (err) => {
      console.error('Buyer sign-up failed', err);
      signupFailed('');
    },
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
          <EmailField {...form.getInputProps('email')} />
          <NewPasswordInput label="Password" {...form.getInputProps('password')} />
          <SignupFooter pending={pending} other="publisher" />
        </Stack>
      </form>
    </AuthPageLayout>
  );
}
