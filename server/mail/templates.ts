import type { DbOrTx } from '../db/client.ts';
import { getSettings } from '../db/settings.ts';
import { type MailBrand, renderMail } from './layout.ts';
import type { OutgoingMail } from './outbox.ts';

/** A mail ready for enqueueMail, minus the recipient. */
export type MailContent = Omit<OutgoingMail, 'to'>;

/** The company name and support e-mail from settings, as every mail's footer shows them. */
export async function getMailBrand(db: DbOrTx): Promise<MailBrand> {
  const row = await getSettings(db);
  return { companyName: row.companyName, supportEmail: row.supportEmail };
}

/** Subjects are one line: user-given text (names, offer titles) must not break the header. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function greeting(name: string): string {
  const n = oneLine(name);
  return n ? `Hi ${n},` : 'Hi,';
}

/** Sent when an admin approves (or unblocks) a publisher account: they may log in now. */
export function publisherApprovedMail(
  brand: MailBrand,
  data: { name: string; loginUrl: string },
): MailContent {
  const { html, text } = renderMail(brand, {
    heading: 'Your publisher account is approved',
    paragraphs: [
      greeting(data.name),
      `Good news: your publisher account at ${brand.companyName} has been approved.`,
      'You can now log in, browse the offers and apply to the ones that fit your traffic.',
    ],
    action: { label: 'Log in', url: data.loginUrl },
  });
  return {
    subject: oneLine(`Your ${brand.companyName} publisher account is approved`),
    text,
    html,
  };
}

/** Sent when an admin rejects a pending publisher or blocks an approved one, with the reason. */
export function publisherBlockedMail(
  brand: MailBrand,
  data: { name: string; rejected: boolean; reason: string | null },
): MailContent {
  const what = data.rejected ? 'was not approved' : 'has been blocked';
  const { html, text } = renderMail(brand, {
    heading: data.rejected
      ? 'Your publisher account was not approved'
      : 'Your publisher account is blocked',
    paragraphs: [
      greeting(data.name),
      `Your publisher account at ${brand.companyName} ${what}, so you cannot sign in.`,
      ...(data.reason ? [`The reviewer's reason: ${data.reason}`] : []),
      brand.supportEmail
        ? `If you think this is a mistake, write to ${brand.supportEmail}.`
        : 'If you think this is a mistake, reply to this e-mail.',
    ],
  });
  return {
    subject: oneLine(`Your ${brand.companyName} publisher account ${what}`),
    text,
    html,
  };
}

/** Sent when an admin approves or rejects a publisher's application to an offer. */
export function applicationDecidedMail(
  brand: MailBrand,
  data: {
    name: string;
    offerTitle: string;
    status: 'approved' | 'rejected';
    /** The reviewer's reason for a rejection, one sentence or more. */
    reason?: string | null;
    dashboardUrl: string;
  },
): MailContent {
  const offer = oneLine(data.offerTitle);
  const approved = data.status === 'approved';
  const { html, text } = renderMail(brand, {
    heading: approved ? 'Your application was approved' : 'Your application was not approved',
    paragraphs: approved
      ? [
          greeting(data.name),
          `Your application for the offer "${offer}" has been approved.`,
          'The offer now appears among your applications in your dashboard, with its script instructions; the IO document shows up under Campaign IOs once it is uploaded.',
        ]
      : [
          greeting(data.name),
          `After review, your application for the offer "${offer}" was not approved.`,
          ...(data.reason ? [`The reviewer's reason: ${data.reason}`] : []),
          'You can submit new compliance files for this offer from the Offers page of your dashboard, or apply to other offers.',
        ],
    action: { label: 'Open your dashboard', url: data.dashboardUrl },
  });
  const subject = approved
    ? `Your application for "${offer}" was approved`
    : `Your application for "${offer}" was not approved`;
  return { subject, text, html };
}
