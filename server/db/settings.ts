/**
 * The one settings row (id 1): branding that auth mails, templates and the admin screen read.
 * It lives beside the schema so infrastructure (auth/, mail/) can read it without importing a
 * module.
 */
import { eq } from 'drizzle-orm';
import { DEFAULT_SETTINGS } from '../../contract/settings.ts';
import type { DbOrTx } from './client.ts';
import { settings } from './schema.ts';

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
