import { INVALID_EMAIL_MESSAGE, isEmailAddress } from '@contract/email-rule.ts';
import { toast } from '@/lib/notify.ts';

/** The message to show for a failed auth call; the server's sentence when it sent one. */
export function authErrorMessage(error: unknown, fallback = 'Something went wrong'): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const message = String((error as { message: unknown }).message ?? '').trim();
    // auth-js puts the raw JSON in the message when the body had no readable text.
    if (message && !message.startsWith('{')) return message;
  }
  return fallback;
}

/** Field rules shared by the sign-in and sign-up forms (inline messages). */
export const fieldRules = {
  required: (label: string) => (value: string) => (value.trim() ? null : `${label} is required`),
  email: (value: string) => {
    if (!value.trim()) return 'Email is required';
    return isEmailAddress(value) ? null : INVALID_EMAIL_MESSAGE;
  },
  password: (value: string) => (value ? null : 'Password is required'),
  newPassword: (value: string) => {
    if (!value) return 'Password is required';
    return value.length >= 6 ? null : 'Password should be at least 6 characters.';
  },
};

/** The destructive toast of a failed auth call: its title and the server's sentence. */
export function authFailedToast(title: string, error: unknown): void {
  toast({ title, description: authErrorMessage(error), variant: 'destructive' });
}

/** Whether the auth call went through; a failed one shows its toast (authFailedToast). */
export async function authCallWent(
  call: Promise<{ error: unknown }>,
  title = 'Error',
): Promise<boolean> {
  const { error } = await call;
  if (error) authFailedToast(title, error);
  return !error;
}
