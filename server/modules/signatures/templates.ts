import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import {
  type DocumentKind,
  type DocumentTemplates,
  PLACEHOLDER_PATTERN,
  type TemplatePlaceholder,
  templatePlaceholders,
  unknownPlaceholders,
} from '../../../contract/documents.ts';
import type { DbOrTx } from '../../db/client.ts';
import { formatUsd, toMoney } from '../../db/money.ts';
import { offerApplications, offers, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { badRequest } from '../../errors.ts';
import type { Storage, StoredFile } from '../../storage/storage.ts';
import type { AdminWrite } from '../audit/index.ts';
import { saveSettingsSection } from '../settings/index.ts';
import { Writer } from './signed-pdf.ts';

/**
 * Document templates (issue 33): the text of an agreement or IO kept in Settings, with
 * `{{publisher.name}}`-style placeholders; sending one renders a PDF (pdf-lib) with the
 * publisher's and offer's fields filled in, stored like an uploaded PDF and signed the same way.
 */

const list = templatePlaceholders.map((n) => `{{${n}}}`).join(', ');

export const DEFAULT_TEMPLATES: DocumentTemplates = {
  agreement:
    'Publisher agreement\n\n' +
    'This agreement is made on {{date}} between the network and {{publisher.company}} ' +
    '("the Publisher"), represented by {{publisher.name}} ({{publisher.email}}).\n\n' +
    '1. The Publisher sends calls only from the traffic sources approved for each offer.\n\n' +
    '2. Calls are paid at each offer’s payout when they meet its rules; calls from blocked or ' +
    'fraudulent sources are not paid.\n\n' +
    '3. Either party may end this agreement with 30 days’ written notice.',
  io:
    'Insertion order\n\n' +
    'Date: {{date}}\nPublisher: {{publisher.company}} ({{publisher.name}}, {{publisher.email}})\n' +
    'Offer: {{offer.title}}\nPayout per qualified call: {{offer.payout}}\n\n' +
    'The Publisher runs the offer above on the terms of its publisher agreement and the ' +
    'offer’s rules, until either party ends this order in writing.',
};

/** Settings → Document templates (the built-in text where none was saved). */
export async function getDocumentTemplates(db: DbOrTx): Promise<DocumentTemplates> {
  const s = await getSettings(db);
  return {
    agreement: s.agreementTemplate ?? DEFAULT_TEMPLATES.agreement,
    io: s.ioTemplate ?? DEFAULT_TEMPLATES.io,
  };
}

export function updateDocumentTemplates(
  opts: AdminWrite<DocumentTemplates>,
): Promise<DocumentTemplates> {
  return saveSettingsSection({
    ...opts,
    what: 'document_templates',
    read: getDocumentTemplates,
    set: { agreementTemplate: opts.input.agreement, ioTemplate: opts.input.io },
    after: opts.input,
  });
}

/**
 * The template's text with its placeholders filled in; an unknown placeholder, or an offer's
 * field without an offer, is a 400 that says which.
 */
export function fillTemplate(
  text: string,
  values: Partial<Record<TemplatePlaceholder, string>>,
): string {
  const unknown = unknownPlaceholders(text);
  if (unknown.length) {
    const message = `The template uses an unknown placeholder ${unknown.map((n) => `{{${n}}}`).join(', ')}. Use: ${list}. Please correct it in Settings → Document templates.`;
    throw badRequest(message, { template: [message] });
  }
  return text.replace(PLACEHOLDER_PATTERN, (_, raw: string) => {
    const value = values[raw as TemplatePlaceholder];
    if (value === undefined) {
      const message = `The template uses {{${raw}}}, which needs an offer: send it as an IO for one of the publisher’s applications.`;
      throw badRequest(message, { template: [message] });
    }
    return value;
  });
}

/** The publisher's (and the application's offer's) fields a template may use. */
export async function templateValues(
  db: DbOrTx,
  publisherId: string,
  applicationId: string | undefined,
  now: Date,
): Promise<Partial<Record<TemplatePlaceholder, string>>> {
  const [p] = await db
    .select({ name: users.name, company: users.businessLegalName, email: users.email })
    .from(users)
    .where(eq(users.id, publisherId));
  const values: Partial<Record<TemplatePlaceholder, string>> = {
    'publisher.name': p?.name ?? p?.email ?? '',
    'publisher.company': p?.company ?? p?.name ?? p?.email ?? '',
    'publisher.email': p?.email ?? '',
    date: now.toISOString().slice(0, 10),
  };
  if (applicationId) {
    const [o] = await db
      .select({ title: offers.title, payout: offers.payout })
      .from(offerApplications)
      .innerJoin(offers, eq(offers.id, offerApplications.offerId))
      .where(eq(offerApplications.id, applicationId));
    if (o) {
      values['offer.title'] = o.title;
      values['offer.payout'] = formatUsd(toMoney(o.payout));
    }
  }
  return values;
}

/** The filled-in text as a PDF: the first line is the heading, blank lines part paragraphs. */
export async function renderTemplatePdf(text: string, footer: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const w = new Writer(pdf, font, bold);
  const [heading = '', ...rest] = text.split('\n');
  w.text(heading, { size: 16, bold: true });
  w.gap();
  for (const line of rest) {
    if (line.trim()) w.text(line, { size: 11 });
    else w.gap(8);
  }
  w.gap(16);
  w.text(footer, { size: 8, color: rgb(0.4, 0.43, 0.48) });
  return pdf.save({ useObjectStreams: false });
}

/**
 * Renders the kind's template for a publisher (and an IO's offer) and stores the PDF as an
 * upload would be; the caller sends it with `sendDocument` (and removes it when that fails).
 */
export async function storeTemplatePdf(opts: {
  db: DbOrTx;
  storage: Storage;
  owner: string;
  template: DocumentKind;
  publisherId: string;
  applicationId: string | undefined;
  now?: Date;
}): Promise<{ file: StoredFile; data: Uint8Array; title: string }> {
  const now = opts.now ?? new Date();
  const texts = await getDocumentTemplates(opts.db);
  const values = await templateValues(opts.db, opts.publisherId, opts.applicationId, now);
  const filled = fillTemplate(texts[opts.template], values);
  const title = (filled.split('\n')[0] ?? '').trim().slice(0, 200) || opts.template;
  const data = await renderTemplatePdf(
    filled,
    `Made from the ${opts.template} template on ${values.date}.`,
  );
  const file = await opts.storage.putFile({
    bucket: 'marketing_agreements',
    owner: opts.owner,
    filename: `${title}.pdf`,
    stream: Readable.from(Buffer.from(data)),
    accept: ['pdf'],
  });
  return { file, data, title };
}
