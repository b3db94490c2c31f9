import { eq } from 'drizzle-orm';
import type { AdminSettings, UpdateSettings } from '../../../contract/admin.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { fromMoney, toMoney } from '../../db/money.ts';
import { settings } from '../../db/schema.ts';
import { ensureSettings, type SettingsRow } from '../../db/settings.ts';
import { AppError } from '../../errors.ts';
import { type Actor, writeAudit } from '../audit/index.ts';
import { knownPhoneCountry } from '../ingest/index.ts';
import { enabledConditions } from '../money/index.ts';

/** Public logo URLs come from storage; the row keeps the key. */
export type LogoUrl = (key: string) => string;

function toAdminSettings(row: SettingsRow, logoUrl: LogoUrl): AdminSettings {
  return {
    company_name: row.companyName,
    logo_url: row.logoUrl ? logoUrl(row.logoUrl) : null,
    welcome_message: row.welcomeMessage,
    support_email: row.supportEmail,
    timezone: row.timezone,
    currency: row.currency,
    min_payout: toMoney(row.minPayout),
    phone_country: row.phoneCountry,
    company_address: row.companyAddress,
    payout_holds: enabledConditions(row.payoutHolds),
    updated_at: row.updatedAt.toISOString(),
  };
}

function auditView(row: SettingsRow) {
  return {
    company_name: row.companyName,
    logo_url: row.logoUrl,
    welcome_message: row.welcomeMessage,
    support_email: row.supportEmail,
    timezone: row.timezone,
    currency: row.currency,
    min_payout: row.minPayout,
    phone_country: row.phoneCountry,
    company_address: row.companyAddress,
    payout_holds: row.payoutHolds,
  };
}

async function lockRow(tx: DbOrTx): Promise<SettingsRow> {
  await ensureSettings(tx);
  const [row] = await tx.select().from(settings).where(eq(settings.id, 1)).for('update');
  return row!;
}

/** Every settings field; the row is created with the defaults when it is missing. */
export async function getAdminSettings(opts: {
  db: DbOrTx;
  logoUrl: LogoUrl;
}): Promise<AdminSettings> {
  await ensureSettings(opts.db);
  const [row] = await opts.db.select().from(settings).where(eq(settings.id, 1));
  return toAdminSettings(row!, opts.logoUrl);
}

/**
 * Changes branding, postal address, time zone, currency, minimum payout and/or phone country;
 * sets updated_at.
 */
export async function updateSettings(opts: {
  db: Db;
  actor: Actor;
  input: UpdateSettings;
  logoUrl: LogoUrl;
}): Promise<AdminSettings> {
  const { input } = opts;
  // The contract checks the shape (two letters); libphonenumber knows which are countries.
  if (input.phone_country !== undefined && !knownPhoneCountry(input.phone_country)) {
    const message = `Phone country ${input.phone_country} is not a country code we know.`;
    throw new AppError('validation_failed', message, { details: { phone_country: [message] } });
  }
  return opts.db.transaction(async (tx) => {
    const before = await lockRow(tx);
    const [after] = await tx
      .update(settings)
      .set({
        ...(input.company_name !== undefined && { companyName: input.company_name }),
        ...(input.welcome_message !== undefined && { welcomeMessage: input.welcome_message }),
        ...(input.support_email !== undefined && { supportEmail: input.support_email }),
        ...(input.timezone !== undefined && { timezone: input.timezone }),
        ...(input.currency !== undefined && { currency: input.currency }),
        ...(input.min_payout !== undefined && { minPayout: fromMoney(input.min_payout) }),
        ...(input.phone_country !== undefined && { phoneCountry: input.phone_country }),
        ...(input.company_address !== undefined && { companyAddress: input.company_address }),
        ...(input.payout_holds !== undefined && { payoutHolds: input.payout_holds }),
        updatedAt: new Date(),
      })
      .where(eq(settings.id, 1))
      .returning();
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'settings.update',
      entityType: 'settings',
      entityId: '1',
      before: auditView(before),
      after: auditView(after!),
    });
    return toAdminSettings(after!, opts.logoUrl);
  });
}

/**
 * Points the logo at a newly stored file; returns the settings and the key of the logo it
 * replaced, which the caller deletes once this has committed.
 */
export async function setLogo(opts: {
  db: Db;
  actor: Actor;
  key: string;
  logoUrl: LogoUrl;
}): Promise<{ settings: AdminSettings; replacedKey: string | null }> {
  return opts.db.transaction(async (tx) => {
    const before = await lockRow(tx);
    const [after] = await tx
      .update(settings)
      .set({ logoUrl: opts.key, updatedAt: new Date() })
      .where(eq(settings.id, 1))
      .returning();
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'settings.logo',
      entityType: 'settings',
      entityId: '1',
      before: { logo_url: before.logoUrl },
      after: { logo_url: opts.key },
    });
    return {
      settings: toAdminSettings(after!, opts.logoUrl),
      replacedKey: before.logoUrl && before.logoUrl !== opts.key ? before.logoUrl : null,
    };
  });
}
