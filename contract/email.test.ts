import { describe, expect, it } from 'vitest';
import { fieldRules } from '../web/features/auth/auth-errors.ts';
import { UpdateSettings } from './admin.ts';
import { EMAIL_MAX_LENGTH, emailField, INVALID_EMAIL_MESSAGE, normalizeEmail } from './email.ts';

const accepted = [
  'admin@localhost',
  'Admin@LocalHost',
  '  pat@example.com  ',
  'first.last+tag@sub.example.co.uk',
  "o'brien@example.ie",
  'x@a-b.c',
];
const refused = [
  '',
  'plain',
  '@example.com',
  'pat@',
  'pat@@example.com',
  'pat example@example.com',
  'pat@exa mple.com',
  'pat@-example.com',
  'pat@example-.com',
  'pat@example..com',
  'pat@.example.com',
  `${'a'.repeat(EMAIL_MAX_LENGTH)}@example.com`,
];

describe('the one e-mail rule (contract/email.ts)', () => {
  it.each(accepted)('accepts %j in every place that asks for an address', (address) => {
    expect(normalizeEmail(address)).toBe(address.trim().toLowerCase());
    expect(fieldRules.email(address)).toBeNull();
    expect(emailField().safeParse(address).success).toBe(true);
    expect(UpdateSettings.safeParse({ support_email: address }).success).toBe(true);
  });

  it.each(refused)('refuses %j with the same sentence in the forms', (address) => {
    expect(normalizeEmail(address)).toBeNull();
    expect(fieldRules.email(address)).toBe(
      address.trim() ? INVALID_EMAIL_MESSAGE : 'Email is required',
    );
    expect(UpdateSettings.safeParse({ support_email: address }).success).toBe(false);
  });
});
