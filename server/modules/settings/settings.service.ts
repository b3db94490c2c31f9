import { eq } from 'drizzle-orm';
import { DEFAULT_SETTINGS, type PublicSettings } from '../../../contract/settings.ts';
import type { DbOrTx } from '../../db/client.ts';
import { settings } from '../../db/schema.ts';

export type SettingsRow = typeof settings.$inferSelect;

/** Creates the settings row id 1 with the defaults when it is missing. */
export async function ensureSettings(db: DbOrTx): Promise<void> {
  await db
    .insert(settings)
    .values({
      id: 1,
      companyName: DEFAULT_SETTINGS.company_name,
      welcomeMessage: DEFAULT_SETTINGS.welcome_message,
      supportEmail: DEFAULT_SETTINGS.support_email,
    })
    .onConflictDoNothing();
}

/** The settings row, falling back to the defaults when it is missing. */
export async function getSettings(db: DbOrTx): Promise<SettingsRow> {
  const [row] = await db.select().from(settings).where(eq(settings.id, 1));
  return (
    row ?? {
      id: 1,
      companyName: DEFAULT_SETTINGS.company_name,
      logoUrl: null,
      welcomeMessage: DEFAULT_SETTINGS.welcome_message,
      supportEmail: DEFAULT_SETTINGS.support_email,
      updatedAt: new Date(0),
    }
  );
}

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
  };
}
