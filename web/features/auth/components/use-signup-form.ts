import { type FormValidateInput, useForm } from '@mantine/form';
import type { AuthError } from '@supabase/auth-js';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/app/routes.ts';
import { type SignUpInput, useAuth } from '@/lib/auth.tsx';
import { type Toast, toast } from '@/lib/notify.ts';

type SignupValues = { email: string; password: string };

/**
 * A sign-up form (publisher's or buyer's): its fields and rules, the sign-up call, then the
 * sign-in screen with a toast. A session the server opened at once is closed: a new account
 * signs in only once it is approved or confirmed.
 */
export function useSignupForm<V extends SignupValues>({
  initialValues,
  validate,
  request,
  created,
  onRefused,
  onThrown,
}: {
  initialValues: V;
  validate: FormValidateInput<V>;
  /** The sign-up call's input, from the form's values. */
  request: (values: V) => SignUpInput;
  /** The toast once the account exists. */
  created: Toast;
  /** The server refused: say so; `toLogin` goes on to the sign-in screen when it still may. */
  onRefused: (error: AuthError, toLogin: () => void) => void;
  /** The call itself failed (offline); without it the error is thrown on. */
  onThrown?: (err: unknown) => void;
}) {
  const { signUp, signOut } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const form = useForm<V>({ initialValues, validate });
  const toLogin = () => navigate(paths.login);

  const handleSubmit = form.onSubmit(async (values) => {
    setPending(true);
    try {
      const { error, session } = await signUp(request(values));
      if (error) return onRefused(error, toLogin);
      // With auto-confirm the server signs the new user in; the account still awaits its step.
      if (session) await signOut('local');
      toast(created);
      toLogin();
    } catch (err) {
      if (!onThrown) throw err;
      onThrown(err);
    } finally {
      setPending(false);
    }
  });

  return { form, pending, handleSubmit };
}
