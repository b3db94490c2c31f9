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
  type: 'signup' | 'recovery';
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

/** Queues the mail in the caller's transaction, with the company name and support e-mail. */
export async function enqueueAuthMail(
  tx: DbOrTx,
  input: { kind: 'confirmation' | 'recovery'; to: string; link: string },
): Promise<void> {
  const brand = await getMailBrand(tx);
  const mail =
    input.kind === 'confirmation'
      ? confirmationMail(brand, input.link)
      : recoveryMail(brand, input.link);
  await enqueueMail(tx, { to: input.to, ...mail });
}
