import { z } from 'zod';
import { IdParams, optionalText, publisherRef, uuidParam } from './admin-common.ts';
import { IsoDateTime, listQuery, oneOf, pageOf, searchParam } from './list.ts';

/**
 * Documents people sign (issue 33): agreements and IOs sent for a click-to-sign signature,
 * sealed into a signed PDF the portal can verify later.
 */

export const documentKinds = ['agreement', 'io'] as const;
export const DocumentKind = z.enum(documentKinds, { error: 'Kind must be agreement or io.' });
export type DocumentKind = z.infer<typeof DocumentKind>;

/** What is stored: `expired` is a signed document past its `expires_at` (worked out on read). */
export const storedDocumentStatuses = ['sent', 'viewed', 'signed', 'superseded'] as const;
export const documentStatuses = ['sent', 'viewed', 'signed', 'expired', 'superseded'] as const;
export const DocumentStatus = oneOf(documentStatuses, 'Status');
export type DocumentStatus = z.infer<typeof DocumentStatus>;

export const documentEventTypes = ['sent', 'viewed', 'signed', 'reminded', 'superseded'] as const;
export type DocumentEventType = (typeof documentEventTypes)[number];

/** Days before the expiry of a signature when the publisher is reminded to sign again. */
export const REMINDER_DAYS = [30, 7, 1] as const;

/** The consent the signer ticks; its text is kept with each signature. */
export const SIGN_CONSENT_TEXT =
  'I agree to sign this document electronically. My typed full legal name is my signature and ' +
  'has the same effect as a handwritten one. I have read the document shown above and can ' +
  'download a copy of it once signed.';

/**
 * The placeholders a document template may use (Settings → Document templates); anything else
 * between `{{ }}` is refused. `offer.*` needs the IO's application (an agreement has no offer).
 */
export const templatePlaceholders = [
  'publisher.name',
  'publisher.company',
  'publisher.email',
  'offer.title',
  'offer.payout',
  'date',
] as const;
export type TemplatePlaceholder = (typeof templatePlaceholders)[number];

/** `{{ name }}` in a template's text (spaces inside the braces allowed). */
export const PLACEHOLDER_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders of a text that are not known, in order of first use. */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(templatePlaceholders);
  const names = [...text.matchAll(PLACEHOLDER_PATTERN)].map((m) => m[1] ?? '');
  return [...new Set(names.filter((n) => !known.has(n)))];
}

const templateText = z
  .string()
  .trim()
  .min(20, { error: 'Write at least a few sentences of the template.' })
  .max(50_000, { error: 'A template can be at most 50,000 characters.' })
  .superRefine((text, ctx) => {
    const unknown = unknownPlaceholders(text);
    if (unknown.length) {
      ctx.addIssue({
        code: 'custom',
        message: `Unknown placeholder ${unknown.map((n) => `{{${n}}}`).join(', ')}. Use: ${templatePlaceholders.map((n) => `{{${n}}}`).join(', ')}.`,
      });
    }
  });

/** GET/PUT /admin/document-templates: the text an agreement or IO is sent from. */
export const DocumentTemplates = z.object({
  agreement: templateText,
  io: templateText,
});
export type DocumentTemplates = z.infer<typeof DocumentTemplates>;

/**
 * POST /admin/documents multipart fields besides `file` (a PDF); `template` (agreement or io)
 * instead of a file sends the template of Settings with the publisher's and offer's fields.
 */
export const SendDocumentFields = z.object({
  publisher_id: uuidParam('publisher'),
  kind: DocumentKind,
  template: z
    .union([z.literal(''), DocumentKind])
    .optional()
    .transform((v) => (v ? v : undefined)),
  application_id: z
    .union([z.literal(''), uuidParam('application')])
    .optional()
    .transform((v) => (v ? v : undefined)),
  title: optionalText(200, 'The title can be at most 200 characters.'),
});
export type SendDocumentFields = z.output<typeof SendDocumentFields>;

export const DocumentEvent = z.object({
  type: z.enum(documentEventTypes),
  at: IsoDateTime,
  actor_email: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type DocumentEvent = z.infer<typeof DocumentEvent>;

export const DocumentSignature = z.object({
  full_name: z.string(),
  email: z.string(),
  signed_at: IsoDateTime,
  ip: z.string(),
  user_agent: z.string(),
  consent_text: z.string(),
  /** SHA-256 (hex) of the exact document the signer was shown. */
  shown_sha256: z.string(),
  /** SHA-256 (hex) of the sealed signed PDF. */
  sealed_sha256: z.string(),
  expires_at: IsoDateTime.nullable(),
});
export type DocumentSignature = z.infer<typeof DocumentSignature>;

export const SignatureDocument = z.object({
  id: z.string(),
  kind: DocumentKind,
  version: z.number().int(),
  title: z.string(),
  ...publisherRef,
  application_id: z.string().nullable(),
  offer_title: z.string().nullable(),
  status: DocumentStatus,
  sent_at: IsoDateTime,
  viewed_at: IsoDateTime.nullable(),
  signed_at: IsoDateTime.nullable(),
  expires_at: IsoDateTime.nullable(),
  last_reminded_at: IsoDateTime.nullable(),
  /** SHA-256 (hex) of the uploaded document. */
  document_sha256: z.string(),
  /** The original as a signed, expiring URL (for the PDF viewer). */
  file_url: z.string(),
  /** `/api/v1/documents/{id}/signed.pdf` once signed, else null. */
  signed_pdf_path: z.string().nullable(),
  /** The publisher may sign it now (unsigned, expired or within the reminder window). */
  can_sign: z.boolean(),
});
export type SignatureDocument = z.infer<typeof SignatureDocument>;

export const SignatureDocumentDetail = SignatureDocument.extend({
  signature: DocumentSignature.nullable(),
  events: z.array(DocumentEvent),
  consent_text: z.string(),
});
export type SignatureDocumentDetail = z.infer<typeof SignatureDocumentDetail>;

export const documentSorts = ['sent_at', 'signed_at', 'expires_at'] as const;
export const DocumentListQuery = listQuery(documentSorts, 'sent_at', {
  q: searchParam,
  status: DocumentStatus.optional(),
  kind: DocumentKind.optional(),
  publisher_id: uuidParam('publisher').optional(),
});
export type DocumentListQuery = z.input<typeof DocumentListQuery>;
export const DocumentList = pageOf(SignatureDocument);
export type DocumentList = z.infer<typeof DocumentList>;

/** The publisher's own documents to sign or signed (current versions). */
export const PublisherSignatureList = z.object({ items: z.array(SignatureDocument) });
export type PublisherSignatureList = z.infer<typeof PublisherSignatureList>;

export const SignDocumentBody = z.object({
  full_name: z
    .string()
    .trim()
    .min(2, { error: 'Please type your full legal name.' })
    .max(200, { error: 'The name can be at most 200 characters.' }),
  consent: z.literal(true, { error: 'Please tick the box to agree to sign electronically.' }),
  /** The SHA-256 of the document the page showed; a document changed since is refused. */
  document_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, { error: 'This is not a SHA-256 hash.' })
    .optional(),
});
export type SignDocumentBody = z.infer<typeof SignDocumentBody>;

export const RemindDocumentsBody = z.object({
  ids: z
    .array(uuidParam('document'))
    .min(1, { error: 'Choose at least one document.' })
    .max(200, { error: 'At most 200 documents at a time.' }),
});
export type RemindDocumentsBody = z.infer<typeof RemindDocumentsBody>;
export const RemindDocumentsResult = z.object({
  reminded: z.number().int(),
  /** Documents that are signed and not near expiry, or superseded: nothing to remind. */
  skipped: z.number().int(),
});
export type RemindDocumentsResult = z.infer<typeof RemindDocumentsResult>;

export const DocumentSettings = z.object({
  /** Signed agreements must be signed again after this many months; null = never. */
  resign_months: z
    .number()
    .int({ error: 'Use a whole number of months.' })
    .min(1, { error: 'Use at least 1 month.' })
    .max(120, { error: 'Use at most 120 months.' })
    .nullable(),
});
export type DocumentSettings = z.infer<typeof DocumentSettings>;

export const VerifyResult = z.object({
  /** Sealed by this portal and not changed by one byte since. */
  valid: z.boolean(),
  /** The sentence shown to the admin. */
  message: z.string(),
  document_id: z.string().nullable(),
  signer: z.string().nullable(),
  signed_at: IsoDateTime.nullable(),
});
export type VerifyResult = z.infer<typeof VerifyResult>;

export { IdParams as DocumentIdParams };
