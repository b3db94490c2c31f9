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

/**
 * A caller's number as the fraud rules read it (issue 32): its E.164 form (null when it is not
 * a phone number at all) and whether libphonenumber knows it as a valid, allocated number.
 */
export function callerCheck(raw: string, country: string): { e164: string | null; valid: boolean } {
  const region = isSupportedCountry(country) ? (country as CountryCode) : 'US';
  const parsed = parsePhoneNumberFromString(raw, region);
  if (!parsed) return { e164: null, valid: false };
  return { e164: parsed.isPossible() ? parsed.number : null, valid: parsed.isValid() };
}
