import { eq } from 'drizzle-orm';
import type { AdminSettings, UpdateSettings } from '../../../contract/admin.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { fromMoney, toMoney } from '../../db/money.ts';
import { apiFields } from '../../db/rows.ts';
import { settings } from '../../db/schema.ts';
import { ensureSettings, getSettings, type SettingsRow } from '../../db/settings.ts';
import { AppError } from '../../errors.ts';
import { type Actor, type AdminWrite, writeAudit } from '../audit/index.ts';
import { knownPhoneCountry } from '../ingest/index.ts';
import { enabledConditions } from '../money/index.ts';
import { toPublicSettings } from './settings.service.ts';

/** Public logo URLs come from storage; the row keeps the key. */
export type LogoUrl = (key: string) => string;

function toAdminSettings(row: SettingsRow, logoUrl: LogoUrl): AdminSettings {
  return {
    ...toPublicSettings(row, logoUrl),
    min_payout: toMoney(row.minPayout),
    phone_country: row.phoneCountry,
    company_address: row.companyAddress,
    payout_holds: enabledConditions(row.payoutHolds),
    buyer_return_days: row.buyerReturnDays,
    buyer_sees_full_caller: row.buyerSeesFullCaller,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Every field as stored (the logo's key, not its URL), but the row's id and updated_at. */
function auditView({ id: _, updatedAt: _at, ...fields }: SettingsRow) {
  return apiFields(fields);
}

/**
 * One change of the settings row, in the caller's transaction: the row locked (made with the
 * defaults when missing), `set` and updated_at written, and the audit entry `action` with
 * `view` of the row before and after.
 */
async function changeSettings(
  tx: DbOrTx,
  change: {
    actor: Actor;
    action: string;
    set: Partial<typeof settings.$inferInsert>;
    view: (row: SettingsRow) => unknown;
  },
): Promise<{ before: SettingsRow; after: SettingsRow }> {
  await ensureSettings(tx);
  const [before] = await tx.select().from(settings).where(eq(settings.id, 1)).for('update');
  const [after] = await tx
    .update(settings)
    .set({ ...change.set, updatedAt: new Date() })
    .where(eq(settings.id, 1))
    .returning();
  await writeAudit(tx, {
    actor: change.actor,
    action: change.action,
    entityType: 'settings',
    entityId: '1',
    before: change.view(before!),
    after: change.view(after!),
  });
  return { before: before!, after: after! };
}

/** Every settings field; the row is created with the defaults when it is missing. */
export async function getAdminSettings(opts: {
  db: DbOrTx;
  logoUrl: LogoUrl;
}): Promise<AdminSettings> {
  await ensureSettings(opts.db);
  return toAdminSettings(await getSettings(opts.db), opts.logoUrl);
}

/**
 * Changes branding, postal address, time zone, currency, minimum payout and/or phone country;
 * sets updated_at.
 */
export async function updateSettings(
  opts: AdminWrite<UpdateSettings> & { logoUrl: LogoUrl },
): Promise<AdminSettings> {
  const { input } = opts;
  // The contract checks the shape (two letters); libphonenumber knows which are countries.
  if (input.phone_country !== undefined && !knownPhoneCountry(input.phone_country)) {
    const message = `Phone country ${input.phone_country} is not a country code we know.`;
    throw new AppError('validation_failed', message, { details: { phone_country: [message] } });
  }
  return opts.db.transaction(async (tx) => {
    const { after } = await changeSettings(tx, {
      actor: opts.actor,
      action: 'settings.update',
      set: {
        ...(input.company_name !== undefined && { companyName: input.company_name }),
        ...(input.welcome_message !== undefined && { welcomeMessage: input.welcome_message }),
        ...(input.support_email !== undefined && { supportEmail: input.support_email }),
        ...(input.timezone !== undefined && { timezone: input.timezone }),
        ...(input.currency !== undefined && { currency: input.currency }),
        ...(input.min_payout !== undefined && { minPayout: fromMoney(input.min_payout) }),
        ...(input.phone_country !== undefined && { phoneCountry: input.phone_country }),
        ...(input.company_address !== undefined && { companyAddress: input.company_address }),
        ...(input.payout_holds !== undefined && { payoutHolds: input.payout_holds }),
        ...(input.buyer_return_days !== undefined && { buyerReturnDays: input.buyer_return_days }),
        ...(input.buyer_sees_full_caller !== undefined && {
          buyerSeesFullCaller: input.buyer_sees_full_caller,
        }),
      },
      view: auditView,
    });
    return toAdminSettings(after, opts.logoUrl);
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
    const { before, after } = await changeSettings(tx, {
      actor: opts.actor,
      action: 'settings.logo',
      set: { logoUrl: opts.key },
      view: (row) => ({ logo_url: row.logoUrl }),
    });
    return {
      settings: toAdminSettings(after, opts.logoUrl),
      replacedKey: before.logoUrl && before.logoUrl !== opts.key ? before.logoUrl : null,
    };
  });
}
