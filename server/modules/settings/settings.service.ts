import { eq } from 'drizzle-orm';
import type { PublicSettings } from '../../../contract/settings.ts';
import type { Actor } from '../../auth/guard.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { settings } from '../../db/schema.ts';
import type { SettingsRow } from '../../db/settings.ts';
import { auditTrail } from '../audit/index.ts';

const auditSettings = auditTrail('settings', 'settings');

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

/**
 * Saves another capability's section of the settings row (postback tags, report sub-ids,
 * document templates, re-sign months) in one transaction: `set` and updated_at written, and the
 * audit entry `settings.{what}` with the section as `read` before and as `after`.
 */
export function saveSettingsSection<T>(opts: {
  db: Db;
  actor: Actor;
  what: string;
  read: (tx: DbOrTx) => Promise<T>;
  set: Partial<typeof settings.$inferInsert>;
  after: T;
}): Promise<T> {
  return opts.db.transaction(async (tx) => {
    const before = await opts.read(tx);
    await tx
      .update(settings)
      .set({ ...opts.set, updatedAt: new Date() })
      .where(eq(settings.id, 1));
    await auditSettings(tx, opts.actor, opts.what, null, { before, after: opts.after });
    return opts.after;
  });
}
