import { z } from 'zod';
import { INVALID_EMAIL_MESSAGE, isEmailAddress } from './email-rule.ts';

export {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  INVALID_EMAIL_MESSAGE,
  isEmailAddress,
  normalizeEmail,
} from './email-rule.ts';

/** A zod e-mail field with the portal's rule: trims, checks, keeps the case as typed. */
export function emailField(message: string = INVALID_EMAIL_MESSAGE) {
  return z
    .string({ error: message })
    .trim()
    .refine((v) => isEmailAddress(v), { error: message });
}
