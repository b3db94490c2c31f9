/**
 * The one settings row (id 1): branding that auth mails, templates and the admin screen read.
 * It lives beside the schema so infrastructure (auth/, mail/) can read it without importing a
 * module.
 */
import { eq, sql } from 'drizzle-orm';
import { payoutHoldConditions } from '../../contract/money.ts';
import {
  DEFAULT_PHONE_COUNTRY,
  DEFAULT_SETTINGS,
  DEFAULT_TIME_ZONE,
} from '../../contract/settings.ts';
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

function buildSettingsQuery(db: DbOrTx) {
  return db.select().from(settings).where(eq(settings.id, 1)).prepare('settings_row');
}

/**
 * The settings read, prepared once per database handle (as the auth guard's statement): many
 * requests read the row (a report's zone, a statement's currency), and drizzle then builds its
 * SQL once, and PostgreSQL parses and plans it once per connection. A transaction's handle
 * builds its own.
 */
const settingsQueries = new WeakMap<DbOrTx, ReturnType<typeof buildSettingsQuery>>();

/** The settings row, falling back to the defaults when it is missing. */
export async function getSettings(db: DbOrTx): Promise<SettingsRow> {
  let query = settingsQueries.get(db);
  if (!query) {
    query = buildSettingsQuery(db);
    settingsQueries.set(db, query);
  }
  const [row] = await query.execute();
  return (
    row ?? {
      id: 1,
      companyName: DEFAULT_SETTINGS.company_name,
      logoUrl: null,
      welcomeMessage: DEFAULT_SETTINGS.welcome_message,
      supportEmail: DEFAULT_SETTINGS.support_email,
      timezone: DEFAULT_TIME_ZONE,
      currency: 'USD',
      minPayout: '50.00',
      phoneCountry: DEFAULT_PHONE_COUNTRY,
      companyAddress: null,
      payoutHolds: [...payoutHoldConditions],
      postbackTags: [],
      reportSubIdTags: [],
      documentResignMonths: null,
      agreementTemplate: null,
      ioTemplate: null,
      buyerReturnDays: 7,
      buyerSeesFullCaller: false,
      updatedAt: new Date(0),
    }
  );
}

/**
 * The network's time zone as a SQL expression, for queries that cut days (reports, caps,
 * "today"): `date_trunc('day', ts at time zone ${networkTimeZoneSql})`. Read inside the same
 * statement, so it costs no round trip and a change applies to the next statement.
 */
export const networkTimeZoneSql = sql`coalesce((select timezone from settings where id = 1), ${DEFAULT_TIME_ZONE})`;

/** The network's time zone (IANA name, default UTC). */
export async function networkTimeZone(db: DbOrTx): Promise<string> {
  return (await getSettings(db)).timezone;
}
