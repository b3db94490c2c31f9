import type { DbOrTx } from '../../db/client.ts';
import { renderMail } from '../../mail/layout.ts';
import { getMailBrand, type MailContent } from '../../mail/templates.ts';

/** Subjects are one line: an offer title must not break the header. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** To each publisher approved for the offer when its script gets a new version (issue 33). */
export async function scriptVersionMail(
  db: DbOrTx,
  data: {
    name: string | null;
    offerTitle: string;
    version: number;
    added: number;
    removed: number;
    dueDays: number;
    offersUrl: string;
  },
): Promise<MailContent> {
  const brand = await getMailBrand(db);
  const offer = oneLine(data.offerTitle);
  const name = data.name ? oneLine(data.name) : '';
  const { html, text } = renderMail(brand, {
    heading: 'The call script changed',
    paragraphs: [
      name ? `Hi ${name},` : 'Hi,',
      `The script instructions of the offer "${offer}" changed (version ${data.version}: ${data.added} line(s) added, ${data.removed} removed).`,
      `Please read the change and acknowledge it on the Offers page of your dashboard within ${data.dueDays} day(s), so your call agents read the current script.`,
    ],
    action: { label: 'Read the change', url: data.offersUrl },
  });
  return { subject: `The script of "${offer}" changed (version ${data.version})`, text, html };
}
