import { SimpleGrid, Stack, Textarea, TextInput, type TextInputProps } from '@mantine/core';
import { authFailedToast, fieldRules } from '@/features/auth/auth-errors.ts';
import { EmailField, NewPasswordInput, SignupFooter } from './auth-fields.tsx';
import { AuthPageLayout } from './auth-page-layout.tsx';
import { useSignupForm } from './use-signup-form.ts';

/** The profile's fields and their labels (the boxes' and the "… is required" messages'). */
const profileLabels = {
  full_legal_name: 'Full legal name',
  business_legal_name: 'Business legal name',
  address: 'Address',
  phone_number: 'Phone number',
  whatsapp_number: 'WhatsApp number',
  ms_teams_id: 'Microsoft Teams ID',
};
type ProfileField = keyof typeof profileLabels;
const profileFields = Object.keys(profileLabels) as ProfileField[];

const initialValues = {
  ...(Object.fromEntries(profileFields.map((f) => [f, ''])) as Record<ProfileField, string>),
  email: '',
  password: '',
};

/** /signup: the publisher's sign-up form; the account then waits for an admin's approval. */
export function SignupPage() {
  const { form, pending, handleSubmit } = useSignupForm({
    initialValues,
    validate: {
      ...(Object.fromEntries(
        profileFields.map((f) => [f, fieldRules.required(profileLabels[f])]),
      ) as Record<ProfileField, (value: string) => string | null>),
      email: fieldRules.email,
      password: fieldRules.newPassword,
    },
    request: ({ email, password, ...profile }) => ({
      email: email.trim(),
      password,
      data: Object.fromEntries(Object.entries(profile).map(([key, value]) => [key, value.trim()])),
    }),
    created: {
      title: 'Account Created Successfully!',
      description: 'Your account is now pending approval. Please check back later.',
      duration: 5000,
    },
    onRefused: (error) => {
      // The spec only logs publisher sign-up errors; we also tell the person what went wrong.
      console.error('Publisher sign-up failed', error);
      authFailedToast('Sign up Failed', error);
    },
  });

  /** A required profile box with its label. */
  const profileInput = (field: ProfileField, props?: TextInputProps) => (
    <TextInput label={profileLabels[field]} required {...props} {...form.getInputProps(field)} />
  );

  return (
    <AuthPageLayout
      title="Create a publisher account"
      subtitle="All fields are required. An administrator reviews every new publisher."
      wide
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {profileInput('full_legal_name', { autoComplete: 'name' })}
            {profileInput('business_legal_name', { autoComplete: 'organization' })}
          </SimpleGrid>
          <Textarea
            label={profileLabels.address}
            autoComplete="street-address"
            autosize
            minRows={2}
            required
            {...form.getInputProps('address')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {profileInput('phone_number', { type: 'tel', autoComplete: 'tel' })}
            {profileInput('whatsapp_number', { type: 'tel' })}
          </SimpleGrid>
          {profileInput('ms_teams_id')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <EmailField {...form.getInputProps('email')} />
            <NewPasswordInput
              label="Password"
              // The hint goes under the box, so the box lines up with the e-mail box beside it.
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps('password')}
            />
          </SimpleGrid>
          <SignupFooter pending={pending} other="buyer" />
        </Stack>
      </form>
    </AuthPageLayout>
  );
}
