import {
  Anchor,
  Button,
  PasswordInput,
  type PasswordInputProps,
  Text,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/app/routes.ts';

/** The e-mail box of the sign-in, sign-up and reset forms. */
export function EmailField(props: TextInputProps) {
  return <TextInput label="Email" type="email" autoComplete="email" required {...props} />;
}

/** A box for a new password, with its rule under the label. */
export function NewPasswordInput(props: PasswordInputProps) {
  return (
    <PasswordInput
      autoComplete="new-password"
      description="At least 6 characters."
      required
      {...props}
    />
  );
}

/** "New password" and "Confirm new password" (reset and change forms). */
export function NewPasswordFields({
  password,
  confirm,
}: {
  password: PasswordInputProps;
  confirm: PasswordInputProps;
}) {
  return (
    <>
      <NewPasswordInput label="New password" {...password} />
      <PasswordInput
        label="Confirm new password"
        autoComplete="new-password"
        required
        {...confirm}
      />
    </>
  );
}

/** A form's full-width submit button; while pending it says what it is doing. */
export function SubmitButton({
  pending,
  disabled = pending,
  label,
  pendingLabel,
}: {
  pending: boolean;
  /** Defaults to `pending`. */
  disabled?: boolean;
  label: string;
  pendingLabel: string;
}) {
  return (
    <Button type="submit" fullWidth disabled={disabled}>
      {pending ? pendingLabel : label}
    </Button>
  );
}

/** A centred, dimmed line with a link: "Already have an account? Sign in". */
function LinkLine({ prompt, to, label }: { prompt: string; to: string; label: string }) {
  return (
    <Text size="sm" ta="center" c="dimmed">
      {prompt}{' '}
      <Anchor component={Link} to={to} size="sm" underline="always">
        {label}
      </Anchor>
    </Text>
  );
}

/** The way from one role's sign-up to the other's. */
const otherSignup = {
  publisher: {
    prompt: 'Want to promote offers instead?',
    to: paths.signup,
    label: 'Sign up as a Publisher',
  },
  buyer: {
    prompt: 'Want to run campaigns instead?',
    to: paths.buyerSignup,
    label: 'Sign up as a Buyer',
  },
};

/**
 * The end of a sign-up form: "Create account", the way to sign in, and the way to the other
 * role's sign-up (`other`).
 */
export function SignupFooter({
  pending,
  other,
}: {
  pending: boolean;
  other: keyof typeof otherSignup;
}) {
  return (
    <>
      <SubmitButton pending={pending} label="Create account" pendingLabel="Creating account…" />
      <LinkLine prompt="Already have an account?" to={paths.login} label="Sign in" />
      <LinkLine {...otherSignup[other]} />
    </>
  );
}
