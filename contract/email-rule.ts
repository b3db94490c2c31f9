// The e-mail rule without zod: the sign-in screen needs the rule, not the schema library.
/**
 * The one e-mail rule of the portal, used by every form and by the server (GoTrue's own
 * pattern). A dot in the domain is not required, so the default first admin `admin@localhost`
 * is an address like any other.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Longest address accepted (the users.email column and GoTrue agree on 255). */
export const EMAIL_MAX_LENGTH = 255;

/** The form message for an address the rule refuses. */
export const INVALID_EMAIL_MESSAGE = 'Enter a valid email address';

/** The address trimmed and lowercased when the rule accepts it, else null. */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    return null;
  }
  return email;
}

/** True when the rule accepts the address (surrounding spaces ignored). */
export function isEmailAddress(raw: string): boolean {
  return normalizeEmail(raw) !== null;
}
