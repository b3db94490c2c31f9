import type { DbOrTx } from '../db/client.ts';
import { type MailBrand, renderMail } from './layout.ts';
import { enqueueMail } from './outbox.ts';
import { getMailBrand, type MailContent } from './templates.ts';

/**
 * The mails of a lead dispute (issue 13): the admins hear of a new dispute and of the
 * publisher's replies; the publisher hears of the admins' replies and of the decision.
 */

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const quote = (s: string) => {
  const t = s.trim();
  return t.length > 600 ? `${t.slice(0, 600)}…` : t;
};

export type DisputeMailKind =
  | 'opened'
  | 'publisher_reply'
  | 'admin_reply'
  | 'accepted'
  | 'declined';

/** One dispute mail's content. */
export function disputeMail(
  brand: MailBrand,
  data: {
    kind: DisputeMailKind;
    offerTitle: string;
    publisherName: string;
    leadDate: string;
    message: string | null;
    url: string;
  },
): MailContent {
  const offer = oneLine(data.offerTitle);
  const who = oneLine(data.publisherName);
  const lead = `the ${offer} lead of ${data.leadDate}`;
  const said = data.message ? [`"${quote(data.message)}"`] : [];
  const parts: Record<DisputeMailKind, { subject: string; heading: string; lines: string[] }> = {
    opened: {
      subject: `New lead dispute from ${who}: ${offer}`,
      heading: 'A publisher disputes a lead',
      lines: [`${who} disputes ${lead}:`, ...said, 'Answer, accept or decline it on the lead.'],
    },
    publisher_reply: {
      subject: `${who} replied to a lead dispute: ${offer}`,
      heading: 'New reply on a lead dispute',
      lines: [`${who} replied on the dispute of ${lead}:`, ...said],
    },
    admin_reply: {
      subject: `Reply to your lead dispute: ${offer}`,
      heading: 'Your dispute has a reply',
      lines: [`The network team replied on your dispute of ${lead}:`, ...said],
    },
    accepted: {
      subject: `Your lead dispute was accepted: ${offer}`,
      heading: 'Your dispute was accepted',
      lines: [
        `Your dispute of ${lead} was accepted: the lead is now approved and payable.`,
        ...said,
      ],
    },
    declined: {
      subject: `Your lead dispute was declined: ${offer}`,
      heading: 'Your dispute was declined',
      lines: [`Your dispute of ${lead} was declined.`, ...said],
    },
  };
  const p = parts[data.kind];
  const { html, text } = renderMail(brand, {
    heading: p.heading,
    paragraphs: p.lines,
    action: { label: 'Open the lead', url: data.url },
  });
  return { subject: oneLine(p.subject), text, html };
}

/** Queues a dispute mail to one address, inside the causing transaction. */
export async function enqueueDisputeMail(
  tx: DbOrTx,
  to: string,
  data: Parameters<typeof disputeMail>[1],
): Promise<void> {
  await enqueueMail(tx, { to, ...disputeMail(await getMailBrand(tx), data) });
}
