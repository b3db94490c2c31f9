import type { DbOrTx } from '../db/client.ts';
import { type MailBrand, renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { getMailBrand } from '../mail/templates.ts';

// A subject is one header line, whatever the company name holds.
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Builds the auth e-mail links: `${publicUrl}/auth/v1/verify?token&type&redirect_to`. */
export function verifyLink(input: {
  publicUrl: string;
  token: string;
  type: 'signup' | 'recovery' | 'email_change';
  redirectTo: string;
}): string {
  const q = new URLSearchParams({
    token: input.token,
    type: input.type,
    redirect_to: input.redirectTo,
  });
  return `${input.publicUrl}/auth/v1/verify?${q.toString()}`;
}

/** The sign-up confirmation mail (HTML and text), branded from settings. */
export function confirmationMail(brand: MailBrand, link: string) {
  return {
    subject: oneLine(`Confirm your e-mail address for ${brand.companyName}`),
    ...renderMail(brand, {
      heading: 'Confirm your e-mail address',
      paragraphs: [
        `Thank you for signing up with ${brand.companyName}. Please confirm your e-mail address to activate your account; you can sign in afterwards.`,
        'The link is valid for 24 hours and works once. If you did not sign up, you can ignore this e-mail.',
      ],
      action: { label: 'Confirm my e-mail address', url: link },
    }),
  };
}

/** The password recovery mail (HTML and text), branded from settings. */
export function recoveryMail(brand: MailBrand, link: string) {
  return {
    subject: oneLine(`Reset your ${brand.companyName} password`),
    ...renderMail(brand, {
      heading: 'Reset your password',
      paragraphs: [
        `Someone, hopefully you, asked to reset the password of your ${brand.companyName} account.`,
        'The link is valid for 24 hours and works once. If you did not ask for it, ignore this e-mail: your password stays as it is.',
      ],
      action: { label: 'Choose a new password', url: link },
    }),
  };
}

/** The link that confirms a new e-mail address; it goes to the new address. */
export function emailChangeMail(brand: MailBrand, link: string, newEmail: string) {
  return {
    subject: oneLine(`Confirm your new e-mail address for ${brand.companyName}`),
    ...renderMail(brand, {
      heading: 'Confirm your new e-mail address',
      paragraphs: [
        `Someone, hopefully you, asked to change the e-mail address of a ${brand.companyName} account to ${newEmail}.`,
        'The change takes effect when you open the link below. It is valid for 24 hours and works once. If you did not ask for it, ignore this e-mail.',
      ],
      action: { label: 'Confirm my new e-mail address', url: link },
    }),
  };
}

/** Tells the old address that the account now signs in with another one. */
export function emailChangedMail(brand: MailBrand, newEmail: string) {
  return {
    subject: oneLine(`Your ${brand.companyName} e-mail address was changed`),
    ...renderMail(brand, {
      heading: 'Your e-mail address was changed',
      paragraphs: [
        `The e-mail address of your ${brand.companyName} account is now ${newEmail}. Sign in with that address from now on.`,
        `If you did not make this change, write to ${brand.supportEmail} at once.`,
      ],
    }),
  };
}

/** Tells the current address that a change to another one was asked for (not yet applied). */
export function emailChangeRequestedMail(brand: MailBrand, newEmail: string) {
  return {
    subject: oneLine(`A change of your ${brand.companyName} e-mail address was requested`),
    ...renderMail(brand, {
      heading: 'E-mail address change requested',
      paragraphs: [
        `Someone signed in to your ${brand.companyName} account asked to change its e-mail address to ${newEmail}. It changes only when the link sent to that address is opened.`,
        `If this was not you, change your password now and write to ${brand.supportEmail}.`,
      ],
    }),
  };
}

/** The code that confirms a password change (GET /auth/v1/reauthenticate). */
export function reauthenticationMail(brand: MailBrand, code: string, validMinutes: number) {
  return {
    subject: oneLine(`Your ${brand.companyName} confirmation code: ${code}`),
    ...renderMail(brand, {
      heading: 'Confirm it is you',
      paragraphs: [
        `Enter this code to change the password of your ${brand.companyName} account: ${code}`,
        `The code is valid for ${validMinutes} minutes and works once. If you did not ask for it, someone may be using your account: change your password and write to ${brand.supportEmail}.`,
      ],
    }),
  };
}

/** Tells a user that their second factors were removed (an admin's or operator's reset). */
export function mfaResetMail(brand: MailBrand, by: string) {
  return {
    subject: oneLine(`Two-factor sign-in was reset on your ${brand.companyName} account`),
    ...renderMail(brand, {
      heading: 'Two-factor sign-in was reset',
      paragraphs: [
        `The authenticator apps of your ${brand.companyName} account were removed by ${by}. You now sign in with your password alone until you set up an authenticator app again (Profile → Two-factor sign-in).`,
        `If you did not ask for this, change your password and write to ${brand.supportEmail} at once.`,
      ],
    }),
  };
}

/** Tells a user that one of their recovery codes was used to sign in (issue 34). */
export function mfaRecoveryCodeUsedMail(brand: MailBrand, left: number, ip: string) {
  return {
    subject: oneLine(`A recovery code was used to sign in to your ${brand.companyName} account`),
    ...renderMail(brand, {
      heading: 'A recovery code was used',
      paragraphs: [
        `Someone signed in to your ${brand.companyName} account with one of its two-factor recovery codes instead of the authenticator app (from the address ${ip}). That code works no more; ${left === 1 ? '1 unused code is' : `${left} unused codes are`} left.`,
        left <= 3
          ? 'Make a new set under Profile → Two-factor sign-in → New recovery codes before the last ones run out.'
          : 'You can make a new set at any time under Profile → Two-factor sign-in → New recovery codes.',
        `If this was not you, change your password now and write to ${brand.supportEmail}.`,
      ],
    }),
  };
}

/** What each auth mail needs besides its recipient. */
type AuthMailInputs = {
  confirmation: { link: string };
  recovery: { link: string };
  email_change: { link: string };
  email_changed: { newEmail: string };
  email_change_requested: { newEmail: string };
  reauthentication: { code: string; validMinutes: number };
  mfa_reset: { by: string };
  mfa_recovery_code_used: { left: number; ip: string };
};
type AuthMailKind = keyof AuthMailInputs;
type AuthMailOf<K extends AuthMailKind> = { kind: K; to: string } & AuthMailInputs[K];
export type AuthMail = { [K in AuthMailKind]: AuthMailOf<K> }[AuthMailKind];

type Mail = { subject: string; html: string; text: string };

/** How each auth mail is written, from its input and the brand. */
const AUTH_MAIL_BUILDERS: {
  [K in AuthMailKind]: (brand: MailBrand, input: AuthMailOf<K>) => Mail;
} = {
  confirmation: (brand, m) => confirmationMail(brand, m.link),
  recovery: (brand, m) => recoveryMail(brand, m.link),
  email_change: (brand, m) => emailChangeMail(brand, m.link, m.to),
  email_changed: (brand, m) => emailChangedMail(brand, m.newEmail),
  email_change_requested: (brand, m) => emailChangeRequestedMail(brand, m.newEmail),
  reauthentication: (brand, m) => reauthenticationMail(brand, m.code, m.validMinutes),
  mfa_reset: (brand, m) => mfaResetMail(brand, m.by),
  mfa_recovery_code_used: (brand, m) => mfaRecoveryCodeUsedMail(brand, m.left, m.ip),
};

/** Queues the mail in the caller's transaction, with the company name and support e-mail. */
export async function enqueueAuthMail<K extends AuthMailKind>(
  tx: DbOrTx,
  input: AuthMailOf<K>,
): Promise<void> {
  const build: (brand: MailBrand, input: AuthMailOf<K>) => Mail = AUTH_MAIL_BUILDERS[input.kind];
  const mail = build(await getMailBrand(tx), input);
  await enqueueMail(tx, { to: input.to, ...mail });
}
