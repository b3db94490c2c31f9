import { z } from 'zod';

/**
 * The network's time zone as an IANA name ("UTC", "America/New_York"), canonicalised the way
 * Intl spells it. Offsets ("+05:00") are refused: PostgreSQL reads a bare offset in POSIX style,
 * with the sign the other way round, so a name is the only unambiguous form.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const TimeZoneName = z
  .string({ error: 'Time zone must be text.' })
  .trim()
  .transform((v, ctx) => {
    const zone = canonicalTimeZone(v);
    if (!zone) {
      ctx.addIssue({
        code: 'custom',
        message: `"${v}" is not a time zone: choose one from the list (e.g. UTC or America/New_York).`,
      });
      return z.NEVER;
    }
    return zone;
  });

/** The zone a fresh network starts with. */
export const DEFAULT_TIME_ZONE = 'UTC';

/** What anyone, signed in or not, may read of the settings row. */
export const PublicSettings = z.object({
  company_name: z.string(),
  logo_url: z.string().nullable(),
  welcome_message: z.string(),
  support_email: z.string(),
  /** The network's time zone: dates on screen, "today", report days and caps follow it. */
  timezone: z.string(),
  /** The network's currency (ISO 4217): every amount on screen shows its symbol. */
  currency: z.string(),
});
export type PublicSettings = z.infer<typeof PublicSettings>;

export const DEFAULT_SETTINGS = {
  company_name: 'MR.LEADS Network',
  welcome_message: 'Welcome to the portal!',
  support_email: 'support@example.com',
} as const;

/** The postal address's limit (several lines, printed on statements). */
export const COMPANY_ADDRESS_MAX = 500;

/**
 * The network's postal address, printed on payout statements: several lines, trimmed (each line
 * and the whole); blank clears it (null = not printed).
 */
export const CompanyAddress = z
  .string({ error: 'Postal address must be text.' })
  .transform((v) =>
    v
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line) => line.trim())
      .join('\n')
      .trim(),
  )
  .pipe(
    z.string().max(COMPANY_ADDRESS_MAX, {
      error: `Postal address can be at most ${COMPANY_ADDRESS_MAX} characters.`,
    }),
  )
  .transform((v) => v || null)
  .nullable();

/**
 * The country a phone number without a country code is read in (ISO 3166 alpha-2), for
 * ingested calls and tracking numbers: numbers are kept in E.164.
 */
export const DEFAULT_PHONE_COUNTRY = 'US';
export const PhoneCountry = z
  .string({ error: 'Phone country must be text.' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { error: 'Phone country is a two-letter country code (US, CA, GB…).' });
