import type { PublicSettings } from '../../../contract/settings.ts';
import type { SettingsRow } from '../../db/settings.ts';

/** What anyone may read; logo_url becomes the public file path. */
export function toPublicSettings(
  row: SettingsRow,
  publicLogoUrl: (key: string) => string,
): PublicSettings {
  return {
    company_name: row.companyName,
    logo_url: row.logoUrl ? publicLogoUrl(row.logoUrl) : null,
    welcome_message: row.welcomeMessage,
    support_email: row.supportEmail,
    timezone: row.timezone,
    currency: row.currency,
  };
}
