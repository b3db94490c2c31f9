import { z } from 'zod';

/** Shared pieces of the admin contracts: id params, file links, upload types. */
// ---------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------

export const uuidParam = (what: string) => z.uuid({ error: `This is not a valid ${what} id.` });

/** `:id` path parameter of every admin route. */
export const IdParams = z.object({ id: z.uuid({ error: 'This is not a valid id.' }) });

/** The publisher a row belongs to, as answers name them (the name is null until given). */
export const publisherRef = {
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
};

/** The publisher a form picks (create a lead, payout, tracking number or payout override). */
export const publisherPick = { publisher_id: z.uuid({ error: 'Please select a publisher.' }) };

/** The offer a form picks (create a lead or tracking number). */
export const offerPick = { offer_id: z.uuid({ error: 'Please select an offer.' }) };

/** The offer a row belongs to. */
export const offerRef = { offer_id: z.string(), offer_title: z.string() };

/** The offer of a publisher's own row (lead, IO, script), its id typed as a uuid. */
export const ownOfferRef = { offer_id: z.uuid(), offer_title: z.string() };

/** A file the admin can open: its original name and a signed, expiring URL. */
export const FileLink = z.object({ name: z.string(), url: z.string() });
export type FileLink = z.infer<typeof FileLink>;

/**
 * The answer of a CSV import that writes all its rows or none (blocked callers, tracking
 * numbers): the rows created, or every wrong line with what is wrong on it.
 */
export const CsvImportResult = z.object({
  created: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type CsvImportResult = z.infer<typeof CsvImportResult>;

/**
 * Uploads (PUT …/agreement, …/io, /settings/logo) are multipart/form-data with one part named
 * `file`; these are the types each accepts (by content and extension).
 */
export const uploadTypes = {
  agreement: ['pdf', 'doc', 'docx'],
  io: ['pdf', 'jpg', 'jpeg', 'png'],
  logo: ['png', 'jpg', 'jpeg', 'svg'],
} as const;

/**
 * Trimmed text that may not be blank, with what to say when it is missing (not text), blank
 * (`blank`, or `required` again) or longer than `max`.
 */
export const nonBlankText = (
  max: number,
  say: { required: string; blank?: string; tooLong: string },
) =>
  z
    .string({ error: say.required })
    .trim()
    .min(1, { error: say.blank ?? say.required })
    .max(max, { error: say.tooLong });

/** Optional trimmed text of at most `max` characters, saying `tooLong` when it is longer. */
export const optionalText = (max: number, tooLong: string) =>
  z.string().trim().max(max, { error: tooLong }).optional();

/** An optional note of at most `max` characters (trimmed). */
export const optionalNote = (max: number) =>
  optionalText(max, `The note can be at most ${max} characters.`);

/**
 * Required trimmed text whose length sentence names it as "the {name}" ("The reason can be at
 * most 2000 characters."), saying `required` when it is missing or blank.
 */
export const requiredField = (name: string, max: number, required: string) =>
  nonBlankText(max, { required, tooLong: `The ${name} can be at most ${max} characters.` });

/** A required text field with its label in the messages. */
export const requiredText = (label: string, max: number) =>
  nonBlankText(max, {
    required: `${label} is required.`,
    tooLong: `${label} can be at most ${max} characters.`,
  });

/** Who an account is, as the admin lists show it (the name is null until given). */
export const accountFields = {
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
};

/** A publisher's contact details as answers show them (null until given; null for others). */
export const contactFields = {
  business_legal_name: z.string().nullable(),
  phone_number: z.string().nullable(),
  whatsapp_number: z.string().nullable(),
  ms_teams_id: z.string().nullable(),
  address: z.string().nullable(),
};
