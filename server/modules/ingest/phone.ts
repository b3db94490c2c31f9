import {
  type CountryCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js';

/**
 * Phone numbers in E.164 (issue 26): trackers send `13105550182`, `866-555-1234`,
 * `+18185550147` or `(310) 555-0182` for the same kind of number; lists, exports, search and the
 * duplicate window need one form. A number without a country code is read in the network's
 * phone country (Settings). Answers null for what is not a phone number ("anonymous", "12").
 */
export function toE164(raw: string, country: string): string | null {
  const region = isSupportedCountry(country) ? (country as CountryCode) : 'US';
  const parsed = parsePhoneNumberFromString(raw, region);
  if (!parsed) return null;
  // Possible, not only valid: a new area code or a test range must not lose a call.
  return parsed.isValid() || parsed.isPossible() ? parsed.number : null;
}

/** True for a country code libphonenumber knows (Settings refuses others). */
export const knownPhoneCountry = (code: string): boolean => isSupportedCountry(code);
