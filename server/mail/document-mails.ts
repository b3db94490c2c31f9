import type { DbOrTx } from '../db/client.ts';
import { renderMail } from './layout.ts';
import { enqueueMail, type MailAttachment } from './outbox.ts';
import { getMailBrand } from './templates.ts';

/**
 * The mails of a document to sign (issue 33): sent for signature, a reminder (unsigned, or a
 * signature about to expire), signed (the signed PDF attached, and the page it is downloaded
 * from linked).
 */

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export type DocumentMailKind = 'sent' | 'reminder' | 'expiring' | 'signed';

/** Queues one document mail to the publisher, inside the causing transaction. */
export async function enqueueDocumentMail(
  tx: DbOrTx,
  data: {
    kind: DocumentMailKind;
    to: string;
    name: string | null;
    title: string;
    /** Days left before the signature expires (`expiring`). */
    daysLeft?: number;
    url: string;
    /** The signed PDF (`signed`), sent as an attachment from storage. */
    attachment?: MailAttachment;
  },
): Promise<void> {
  const brand = await getMailBrand(tx);
  const title = oneLine(data.title);
  const hi = data.name ? `Hi ${oneLine(data.name)},` : 'Hi,';
  const days = data.daysLeft === 1 ? '1 day' : `${data.daysLeft ?? 0} days`;
  const parts: Record<DocumentMailKind, { subject: string; heading: string; lines: string[] }> = {
    sent: {
      subject: `Please sign: ${title}`,
      heading: 'A document is waiting for your signature',
      lines: [
        hi,
        `${brand.companyName} sent you "${title}" to sign.`,
        'Read it in the portal, type your full legal name and sign it there.',
      ],
    },
    reminder: {
      subject: `Reminder: please sign ${title}`,
      heading: 'A document is still waiting for your signature',
      lines: [hi, `"${title}" from ${brand.companyName} is not signed yet.`],
    },
    expiring: {
      subject: `Your signature on ${title} expires in ${days}`,
      heading: 'Please sign again',
      lines: [
        hi,
        `Your signature on "${title}" expires in ${days}. Please read and sign it again in the portal.`,
      ],
    },
    signed: {
      subject: `Signed: ${title}`,
      heading: 'You signed a document',
      lines: [
        hi,
        `You signed "${title}". The signed PDF, sealed by ${brand.companyName}, is attached and in the portal: keep it with your records.`,
      ],
    },
  };
  const p = parts[data.kind];
  const { html, text } = renderMail(brand, {
    heading: p.heading,
    paragraphs: p.lines,
    action: {
      label: data.kind === 'signed' ? 'Download the signed PDF' : 'Open the document',
      url: data.url,
    },
  });
  await enqueueMail(tx, {
    to: data.to,
    subject: oneLine(p.subject),
    text,
    html,
    ...(data.attachment && { attachments: [data.attachment] }),
  });
}
