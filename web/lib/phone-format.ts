import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * A phone number kept in E.164 (`+18665551234`) as people read it: `+1 866 555 1234`,
 * `+44 20 7946 0958`. Anything that does not parse is shown as it is.
 */
export function formatPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
