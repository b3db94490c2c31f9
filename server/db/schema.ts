import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  time,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();

import { documentKinds, storedDocumentStatuses } from '../../contract/documents.ts';
import { importStatuses } from '../../contract/lead-actions.ts';
import {
  adjustmentReasons,
  lineKinds,
  paymentMethods,
  runKinds,
  runStatuses,
  taxFormStatuses,
} from '../../contract/money.ts';
import { adminNotificationEvents, notificationKinds } from '../../contract/notifications.ts';
import { ruleOutcomes } from '../../contract/offer-rules.ts';
import {
  accountStatuses,
  applicationStatuses,
  billingModes,
  callReturnStatuses,
  campaignPausers,
  campaignStatuses,
  leadStatuses,
  mailStatuses,
  offerStatuses,
  publisherStatuses,
  roles,
  userStatuses,
} from '../../contract/roles.ts';
import { scriptAckModes } from '../../contract/scripts.ts';

/**
 * `('a','b')`: a status list of the contract as literal SQL for a check constraint, so the
 * contract's enum is the one definition and the generated SQL stays the same text.
 */
const sqlList = (values: readonly string[]) =>
  sql.raw(`(${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(',')})`);

/** Money is numeric(12,2); drizzle hands it over as a string, the API turns it into a number. */
const money = (name: string) => numeric(name, { precision: 12, scale: 2 });

/** Auth and profile in one row (DESIGN §3). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    emailConfirmedAt: ts('email_confirmed_at'),
    confirmationSentAt: ts('confirmation_sent_at'),
    recoverySentAt: ts('recovery_sent_at'),
    /** The new address of a pending e-mail change (PUT /auth/v1/user {email}); null when none. */
    emailChange: text('email_change'),
    emailChangeSentAt: ts('email_change_sent_at'),
    /** When the last reauthentication code went out (GET /auth/v1/reauthenticate). */
    reauthenticationSentAt: ts('reauthentication_sent_at'),
    role: text('role', { enum: roles }).notNull(),
    status: text('status', { enum: userStatuses }).notNull(),
    userMetadata: jsonb('user_metadata').$type<Record<string, unknown>>().notNull().default({}),
    name: text('name'),
    businessLegalName: text('business_legal_name'),
    phoneNumber: text('phone_number'),
    whatsappNumber: text('whatsapp_number'),
    msTeamsId: text('ms_teams_id'),
    address: text('address'),
    /** Storage key (`marketing_agreements/...`), never a URL. */
    marketingAgreementUrl: text('marketing_agreement_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastSignInAt: ts('last_sign_in_at'),
    /** An admin's "Dismiss" of the getting-started checklist on the dashboard (issue 34). */
    setupChecklistDismissedAt: ts('setup_checklist_dismissed_at'),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    // Lists end their ORDER BY in id (a stable page order), so their indexes end in id too.
    index('users_role_created_id_idx').on(
      t.role,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('users_role_status_idx').on(t.role, t.status),
    // The payout form's picker: approved publishers by name (or e-mail), read in index order.
    index('users_role_sort_name_idx').on(t.role, sql`lower(coalesce(${t.name}, ${t.email}))`, t.id),
    check('users_role_check', sql`${t.role} in ${sqlList(roles)}`),
    check(
      'users_status_check',
      sql`(${t.role} = 'publisher' and ${t.status} in ${sqlList(publisherStatuses)})
        or (${t.role} in ('buyer','admin') and ${t.status} in ${sqlList(accountStatuses)})`,
    ),
  ],
);

/** One row per sign-in; deleting it signs that session out everywhere at once. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aal: text('aal').notNull().default('aal1'),
    amr: jsonb('amr').$type<{ method: string; timestamp: number }[]>().notNull().default([]),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    refreshedAt: ts('refreshed_at'),
    /** The MFA factor that raised this session to aal2 (its removal lowers the session again). */
    factorId: uuid('factor_id'),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

/**
 * Personal API keys (issue 30): `Authorization: Bearer pk_…` on /api/v1 acts as the user,
 * limited to the key's scopes. Only the SHA-256 of the key is kept (the key is 32 random bytes,
 * so a fast hash is enough: there is nothing to guess). A revoked key keeps its row (revoked_at)
 * so the owner's list and the audit log can still name it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 (hex) of the key. */
    keyHash: text('key_hash').notNull().unique(),
    /** The key's first characters (`pk_3f9aB2…`), to tell keys apart. */
    keyPrefix: text('key_prefix').notNull(),
    /** contract/api-keys.ts `apiKeyScopes`. */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at'),
    /** Written at most once a minute by the guard. */
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc())],
);

/**
 * Second factors (GoTrue's mfa_factors; TOTP only). `status` goes unverified → verified at the
 * first right code. `lastUsedStep` is the 30-second step of the last accepted code: a code of
 * that step or an earlier one is refused (no replay within its window).
 */
export const mfaFactors = pgTable(
  'mfa_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    friendlyName: text('friendly_name').notNull().default(''),
    factorType: text('factor_type', { enum: ['totp'] }).notNull(),
    status: text('status', { enum: ['unverified', 'verified'] }).notNull(),
    /** The base32 TOTP secret. */
    secret: text('secret').notNull(),
    lastUsedStep: bigint('last_used_step', { mode: 'number' }),
    lastChallengedAt: ts('last_challenged_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('mfa_factors_user_name_key').on(t.userId, t.friendlyName),
    check('mfa_factors_status_check', sql`${t.status} in ('unverified','verified')`),
    check('mfa_factors_type_check', sql`${t.factorType} in ('totp')`),
  ],
);

/** A challenge of a factor: verified once, from the address that asked for it, within 5 min. */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    factorId: uuid('factor_id')
      .notNull()
      .references(() => mfaFactors.id, { onDelete: 'cascade' }),
    ipAddress: text('ip_address').notNull(),
    createdAt: createdAt(),
    verifiedAt: ts('verified_at'),
  },
  (t) => [index('mfa_challenges_factor_idx').on(t.factorId)],
);

/**
 * Two-factor recovery codes (issue 34): 10 per user, stored as SHA-256 hashes, each usable once
 * at the two-factor step instead of an app code. A new set replaces the old one.
 */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/** Refresh tokens, stored as SHA-256 hashes, rotated with a parent link for reuse detection. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    parentHash: text('parent_hash'),
    revoked: boolean('revoked').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId, t.revoked)],
);

/** Sign-up confirmation and recovery links: hashed, single use, expiring. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenType: text('token_type', {
      enum: ['confirmation', 'recovery', 'email_change', 'reauthentication'],
    }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('one_time_tokens_user_type_key').on(t.userId, t.tokenType),
    check(
      'one_time_tokens_type_check',
      sql`${t.tokenType} in ('confirmation','recovery','email_change','reauthentication')`,
    ),
  ],
);

export const offers = pgTable(
  'offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    vertical: text('vertical').notNull(),
    payout: money('payout').notNull(),
    scriptInstructions: text('script_instructions'),
    status: text('status', { enum: offerStatuses }).notNull().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // --- rules that decide whether an ingested call pays (contract/offer-rules.ts); null = none ---
    /** Calls shorter than this many seconds are not payable. */
    bufferSeconds: integer('buffer_seconds'),
    /** A caller with a payable call to this offer within this many days is a duplicate. */
    duplicateDays: integer('duplicate_days'),
    /** Payable calls per day / month (network time zone), whole offer and per publisher. */
    dailyCap: integer('daily_cap'),
    monthlyCap: integer('monthly_cap'),
    publisherDailyCap: integer('publisher_daily_cap'),
    publisherMonthlyCap: integer('publisher_monthly_cap'),
    /** US state codes whose callers pay; empty = any state. */
    allowedStates: text('allowed_states').array().notNull().default(sql`'{}'::text[]`),
    /** Open hours: all four set, or none (offers_open_hours_check). */
    hoursTimeZone: text('hours_time_zone'),
    /** ISO weekdays, 1 = Monday. */
    openDays: smallint('open_days').array(),
    openFrom: time('open_from'),
    openTo: time('open_to'),
    // --- script versions (issue 33): publishers acknowledge each version of the script ---
    /** The current script version (offer_script_versions); null = never had a script. */
    scriptVersion: integer('script_version'),
    /** A publisher late to acknowledge: their calls are only flagged, or held as pending. */
    scriptAckMode: text('script_ack_mode', { enum: scriptAckModes }).notNull().default('flag'),
    /** Days a publisher has to acknowledge a new version before their calls are held/flagged. */
    scriptAckDays: integer('script_ack_days').notNull().default(7),
  },
  (t) => [
    check('offers_script_ack_mode_check', sql`${t.scriptAckMode} in ${sqlList(scriptAckModes)}`),
    check('offers_script_ack_days_check', sql`${t.scriptAckDays} between 0 and 365`),
    index('offers_status_created_idx').on(t.status, t.createdAt.desc()),
    index('offers_created_idx').on(t.createdAt.desc()),
    check('offers_status_check', sql`${t.status} in ${sqlList(offerStatuses)}`),
    check('offers_payout_check', sql`${t.payout} >= 0`),
    check(
      'offers_rules_check',
      sql`${t.bufferSeconds} > 0 and ${t.duplicateDays} > 0 and ${t.dailyCap} > 0
        and ${t.monthlyCap} > 0 and ${t.publisherDailyCap} > 0 and ${t.publisherMonthlyCap} > 0`,
    ),
    check(
      'offers_open_hours_check',
      sql`(${t.hoursTimeZone} is null) = (${t.openDays} is null)
        and (${t.hoursTimeZone} is null) = (${t.openFrom} is null)
        and (${t.hoursTimeZone} is null) = (${t.openTo} is null)`,
    ),
  ],
);

/** Every version of an offer's script instructions (issue 33): who wrote it, when, the text. */
export const offerScriptVersions = pgTable(
  'offer_script_versions',
  {
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The script's text ('' when the admin cleared it). */
    body: text('body').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text('created_by_email'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.offerId, t.version] })],
);

/** A publisher's acknowledgement of one script version (issue 33); one row per version read. */
export const offerScriptAcknowledgements = pgTable(
  'offer_script_acknowledgements',
  {
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    acknowledgedAt: ts('acknowledged_at').notNull().defaultNow(),
  },
  // The lead trigger asks "has this publisher acknowledged version >= N": one index range.
  (t) => [primaryKey({ columns: [t.offerId, t.publisherId, t.version] })],
);

/** A publisher's own payout on an offer (the admin sets it); ingested calls pay it. */
export const offerPayoutOverrides = pgTable(
  'offer_payout_overrides',
  {
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    payout: money('payout').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.offerId, t.publisherId] }),
    check('offer_payout_overrides_payout_check', sql`${t.payout} >= 0`),
  ],
);

/**
 * Payable calls counted against an offer's caps: one row per offer, publisher (the nil uuid
 * for the whole offer), period and its first day in the network's time zone. The ingestion
 * function takes a slot with `used = used + 1 where used < cap`, so a cap is never exceeded.
 */
export const offerCapUsage = pgTable(
  'offer_cap_usage',
  {
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    publisherId: uuid('publisher_id').notNull(),
    period: text('period', { enum: ['day', 'month'] }).notNull(),
    starts: date('starts', { mode: 'string' }).notNull(),
    used: integer('used').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.offerId, t.publisherId, t.period, t.starts] }),
    check('offer_cap_usage_period_check', sql`${t.period} in ('day', 'month')`),
  ],
);

export const offerApplications = pgTable(
  'offer_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // An offer with applications cannot be deleted (the admin makes it inactive instead).
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'restrict' }),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: applicationStatuses }).notNull().default('draft'),
    /** Storage key of the IO document (`io_documents/...`). */
    ioDocumentUrl: text('io_document_url'),
    /** Why it was rejected (a code of contract/review-reasons.ts), shown to the publisher. */
    reviewReason: text('review_reason'),
    /** The reviewer's own words with the reason, shown to the publisher. */
    reviewNote: text('review_note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One real (non-draft) application per publisher and offer.
    uniqueIndex('offer_applications_one_per_offer_key')
      .on(t.publisherId, t.offerId)
      .where(sql`${t.status} <> 'draft'`),
    // One open draft per publisher and offer: Apply Now inserts or returns it (ON CONFLICT).
    uniqueIndex('offer_applications_one_draft_key')
      .on(t.publisherId, t.offerId)
      .where(sql`${t.status} = 'draft'`),
    index('offer_applications_status_created_id_idx').on(
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The applications list shows every submitted status, newest first: an index-only scan of
    // this index (status is in it to leave drafts out without reading the table).
    index('offer_applications_created_id_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.status,
    ),
    index('offer_applications_publisher_idx').on(t.publisherId, t.createdAt.desc()),
    index('offer_applications_offer_idx').on(t.offerId),
    check('offer_applications_status_check', sql`${t.status} in ${sqlList(applicationStatuses)}`),
  ],
);

export const complianceQuestionnaires = pgTable(
  'compliance_questionnaires',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'restrict' }),
    /** Several after a rejected application is resubmitted: each submission is kept. */
    applicationId: uuid('application_id')
      .notNull()
      .references(() => offerApplications.id, { onDelete: 'cascade' }),
    /** Storage keys of the 1-3 media files. */
    fileUrls: jsonb('file_urls').$type<string[]>().notNull(),
    /** Storage key of the document. */
    documentUrl: text('document_url').notNull(),
    /** The decision on this submission (null while it waits), with its reason and when. */
    decision: text('decision', { enum: ['approved', 'rejected'] }),
    reviewReason: text('review_reason'),
    reviewNote: text('review_note'),
    decidedAt: ts('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('compliance_application_created_idx').on(t.applicationId, t.createdAt.desc()),
    index('compliance_created_id_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('compliance_publisher_idx').on(t.publisherId),
  ],
);

/**
 * A call tracker (Ringba, Retreaver, …) allowed to post calls to /api/v1/ingest/calls. The key
 * is shown once at creation; only its SHA-256 is kept. `acceptedCount`/`refusedCount` and
 * `lastUsedAt` are flushed from memory every few seconds (see server/modules/ingest), so a busy
 * tracker does not serialize on this row.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** SHA-256 (hex) of the secret key. */
    keyHash: text('key_hash').notNull().unique(),
    /** The key's first characters, so the admin can tell keys apart (`ik_3f9a…`). */
    keyPrefix: text('key_prefix').notNull(),
    /** IPv4/IPv6 addresses or CIDR ranges; empty means any source. */
    allowedIps: jsonb('allowed_ips').$type<string[]>().notNull().default([]),
    /**
     * Our field → its rule (contract/ingest-mapping.ts FieldRule), only where it differs from
     * the tracker preset's; rows from before presets hold a parameter name per field.
     */
    fieldMap: jsonb('field_map').$type<Record<string, unknown>>().notNull().default({}),
    /** The call tracker (contract/ingest-mapping.ts `trackers`); its preset fills the rest. */
    tracker: text('tracker').notNull().default('generic'),
    /** The tracker's account: integrations of one tracker and account share calls. */
    accountId: text('account_id'),
    /**
     * The integration whose id this one's calls are kept under (leads.integration_id): itself,
     * or the first integration of the same tracker account. Set by the service.
     */
    callScope: uuid('call_scope'),
    /** Zone of timestamps sent without an offset; null = UTC. */
    timeZone: text('time_zone'),
    /** {scheme, secret, header}: a request must carry this signature. The secret is kept as is. */
    signature: jsonb('signature').$type<{ scheme: string; secret: string; header: string }>(),
    /** When the tracker sends no call id: our fields that identify a call together. */
    callIdFields: jsonb('call_id_fields').$type<string[]>().notNull().default([]),
    /** More parameter names that carry secrets (redacted). */
    secretParams: jsonb('secret_params').$type<string[]>().notNull().default([]),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
    acceptedCount: bigint('accepted_count', { mode: 'number' }).notNull().default(0),
    refusedCount: bigint('refused_count', { mode: 'number' }).notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('integrations_name_lower_key').on(sql`lower(${t.name})`),
    index('integrations_created_idx').on(t.createdAt.desc()),
    index('integrations_account_idx').on(t.tracker, sql`lower(${t.accountId})`),
    index('integrations_call_scope_idx').on(t.callScope),
  ],
);

/**
 * A tracking number assigned to a (publisher, offer) pair (issue 26): a call to it belongs to
 * them when the tracker sends no publisher or offer. E.164; one pair per number.
 */
export const trackingNumbers = pgTable(
  'tracking_numbers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('tracking_numbers_pair_idx').on(t.publisherId, t.offerId),
    index('tracking_numbers_offer_idx').on(t.offerId),
    index('tracking_numbers_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * An id the tracker uses for one of our publishers or offers (its publisher id, its campaign
 * id), per integration.
 */
export const integrationExternalIds = pgTable(
  'integration_external_ids',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['publisher', 'offer', 'campaign'] }).notNull(),
    externalId: text('external_id').notNull(),
    publisherId: uuid('publisher_id').references(() => users.id, { onDelete: 'cascade' }),
    offerId: uuid('offer_id').references(() => offers.id, { onDelete: 'cascade' }),
    /** A tracker's buyer or target id (issue 31): calls sent with it bill this campaign. */
    campaignId: uuid('campaign_id').references((): AnyPgColumn => campaigns.id, {
      onDelete: 'cascade',
    }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('integration_external_ids_key').on(t.integrationId, t.kind, t.externalId),
    index('integration_external_ids_campaign_idx')
      .on(t.campaignId)
      .where(sql`${t.campaignId} is not null`),
    check(
      'integration_external_ids_target_check',
      sql`num_nonnulls(${t.publisherId}, ${t.offerId}, ${t.campaignId}) = 1
        and (${t.kind} <> 'publisher' or ${t.publisherId} is not null)
        and (${t.kind} <> 'offer' or ${t.offerId} is not null)
        and (${t.kind} <> 'campaign' or ${t.campaignId} is not null)`,
    ),
  ],
);

/**
 * A postback the endpoint refused (bad key, IP, field, unknown publisher/offer), kept raw for
 * INGEST_REFUSAL_RETENTION_DAYS so the admin can see why and replay it after fixing a mapping.
 * The key itself is never stored.
 */
export const ingestRefusals = pgTable(
  'ingest_refusals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null when the key matched no integration. */
    integrationId: uuid('integration_id').references(() => integrations.id, {
      onDelete: 'cascade',
    }),
    httpStatus: integer('http_status').notNull(),
    code: text('code').notNull(),
    reason: text('reason').notNull(),
    method: text('method').notNull(),
    query: jsonb('query').$type<Record<string, unknown>>().notNull().default({}),
    body: jsonb('body'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    ip: text('ip'),
    createdAt: createdAt(),
    replayedAt: ts('replayed_at'),
    /** The lead a replay made. No foreign key: leads stay truncatable (the totals rebuild). */
    leadId: uuid('lead_id'),
  },
  (t) => [
    index('ingest_refusals_created_idx').on(t.createdAt.desc()),
    index('ingest_refusals_integration_idx').on(t.integrationId, t.createdAt.desc()),
  ],
);

/**
 * A CSV import of leads (issue 13): the uploaded file, its column mapping, the check (a dry run
 * in a rolled-back transaction) and the import (one transaction), polled by the screen. The file
 * is kept until it is imported, then dropped.
 */
export const leadImports = pgTable(
  'lead_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    filename: text('filename').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** The file as UTF-8 text; null once imported. */
    content: text('content'),
    header: jsonb('header').$type<string[]>().notNull(),
    sample: jsonb('sample').$type<string[][]>().notNull(),
    rowCount: integer('row_count').notNull(),
    mapping: jsonb('mapping').$type<Record<string, string | null>>(),
    integrationId: uuid('integration_id').references(() => integrations.id, {
      onDelete: 'set null',
    }),
    status: text('status', { enum: importStatuses }).notNull().default('uploaded'),
    wouldCreate: integer('would_create'),
    wouldUpdate: integer('would_update'),
    unchanged: integer('unchanged'),
    errorRows: integer('error_rows'),
    errors: jsonb('errors')
      .$type<{ line: number; column: string | null; message: string }[]>()
      .notNull()
      .default([]),
    created: integer('created'),
    updated: integer('updated'),
    message: text('message'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('lead_imports_created_idx').on(t.createdAt.desc())],
);

export const leads = pgTable(
  'leads',
  {
    // Time-ordered (UUIDv7, drizzle/0017): a new lead's key lands at the right edge of the
    // primary key index instead of a random page of it (the random v4 default cost more than
    // half the CPU of inserting leads at 1M rows: 7.1 vs 3.2 CPU-s per 100k rows, measured).
    id: uuid('id').primaryKey().default(sql`uuid_v7()`),
    // Money records outlive nothing: a publisher or offer with leads cannot be deleted.
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'restrict' }),
    payout: money('payout').notNull(),
    status: text('status', { enum: leadStatuses }).notNull().default('pending'),
    /** Call length in minutes (what lists show); ingested calls round their seconds up. */
    callDuration: integer('call_duration').notNull().default(0),
    timestamp: ts('timestamp').notNull().defaultNow(),
    createdAt: createdAt(),
    // --- calls posted by a tracker (/api/v1/ingest/calls); null for leads recorded by hand ---
    integrationId: uuid('integration_id').references(() => integrations.id, {
      onDelete: 'restrict',
    }),
    /** The tracker's call id; with integration_id, one lead per call. */
    externalCallId: text('external_call_id'),
    /** Precise call length in seconds (call_duration keeps whole minutes for lists). */
    durationSeconds: integer('duration_seconds'),
    caller: text('caller'),
    trackingNumber: text('tracking_number'),
    /** What the buyer paid the network for the call (admin only). */
    revenue: money('revenue'),
    recordingUrl: text('recording_url'),
    state: text('state'),
    zip: text('zip'),
    /** Free parameters of the postback the admin did not map to a field. */
    tags: jsonb('tags').$type<Record<string, unknown>>(),
    /** The furthest event seen (contract/integrations.ts `eventRank`): events never go back. */
    eventRank: smallint('event_rank'),
    lastEvent: text('last_event'),
    lastEventAt: ts('last_event_at'),
    /** Why the lead has its status, in a sentence (tracker error, offer rules, admin). */
    statusReason: text('status_reason'),
    /**
     * When a person (an admin's override, a dispute's decision) last set the status by hand; null
     * otherwise. Once set, tracker events and offer rules never change the status again.
     */
    statusOverriddenAt: ts('status_overridden_at'),
    /** Storage key (`recordings/...`) of a recording kept by the portal; played through a signed URL. */
    recordingKey: text('recording_key'),
    /** What the offer's rules said (contract/offer-rules.ts `ruleOutcomes`); null = not judged. */
    ruleOutcome: text('rule_outcome', { enum: ruleOutcomes }),
    /** When the rules judged the call (its first billable event). */
    judgedAt: ts('judged_at'),
    /**
     * How many disputes publishers filed on this lead (any status), kept by a trigger on
     * lead_disputes, so the report rollups count disputes through the lead's own row.
     */
    disputeCount: integer('dispute_count').notNull().default(0),
    /** The offer's script version in force when the lead was recorded (issue 33). */
    scriptVersion: integer('script_version'),
    /** Judged payable while the publisher had not acknowledged that version in time. */
    scriptUnacknowledged: boolean('script_unacknowledged').notNull().default(false),
    // --- the buyer's side (issue 31), set by the leads_campaign_bill trigger (drizzle) ---
    /** The campaign the call was delivered to (no foreign key: leads stay truncatable). */
    campaignId: uuid('campaign_id'),
    /** The tracker's buyer or target id as sent (the `buyer` field). */
    buyerRef: text('buyer_ref'),
    /** What the buyer is billed (cents in numeric); null = not billed. */
    billedAmount: money('billed_amount'),
    /** The campaign's verdict: billed, or why not (contract/campaigns.ts `billOutcomes`). */
    billOutcome: text('bill_outcome'),
    billReason: text('bill_reason'),
  },
  (t) => [
    uniqueIndex('leads_integration_call_key').on(t.integrationId, t.externalCallId),
    // Finding a call by what the tracker shows (issue 26): its call id, or the last 10 digits
    // of the caller or the tracking number (caller_key, drizzle/0014), whatever format is typed.
    // The two expression indexes are whole-table on purpose: PostgreSQL keeps statistics of an
    // index expression only for a non-partial index, and without them it guesses 0.5% of the
    // leads per number and walks the time index instead (5 s at 1M leads; measured).
    index('leads_call_id_idx').on(t.externalCallId).where(sql`${t.externalCallId} is not null`),
    index('leads_caller_key_idx').on(sql`caller_key(${t.caller})`),
    index('leads_tracking_key_idx').on(sql`caller_key(${t.trackingNumber})`),
    // Every leads list orders by (sort, id) in one direction: each index ends in id, in the
    // list's direction, so a page (and a page after a cursor) is one range scan, not a sort.
    // `.desc().nullsFirst()` is what ORDER BY … DESC means; drizzle's bare `.desc()` writes
    // DESC NULLS LAST, an order the planner cannot use for it (the old indexes never served).
    // Status and payout after the id (never reached by the order: id is unique) make the
    // totals above a filtered list (an offer, a publisher's range of days, part of a day) an
    // index-only scan instead of a heap read per lead (119–249 ms at 1M leads, ~1 ms after:
    // bench/db-times-2026-11-26.md). drizzle has no INCLUDE; trailing keys serve the same.
    index('leads_ts_id_idx').on(
      t.timestamp.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.status,
      t.payout,
    ),
    index('leads_publisher_ts_id_idx').on(
      t.publisherId,
      t.timestamp.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.status,
      t.payout,
    ),
    index('leads_offer_ts_id_idx').on(
      t.offerId,
      t.timestamp.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.status,
      t.payout,
    ),
    index('leads_status_ts_id_idx').on(
      t.status,
      t.timestamp.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The admin list's other sorts (payout, call duration): measured at 1M leads, without an
    // index the first page sorts the whole table (~0.4 s); with one it is a range scan, and a
    // filter (publisher, status, 30 days) is checked on the way (see bench/lists-2026-11-25.md).
    index('leads_payout_id_idx').on(t.payout.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('leads_duration_id_idx').on(t.callDuration.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The publisher's own list sorted by status (status::text is the column itself): a range
    // scan instead of sorting a big publisher's 100k leads (~10 ms at page 1,000, was ~130 ms).
    index('leads_publisher_status_id_idx').on(t.publisherId, t.status, t.id),
    // The buyer's calls (issue 31): one campaign's calls, newest first.
    index('leads_campaign_ts_id_idx')
      .on(t.campaignId, t.timestamp.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.campaignId} is not null`),
    // The publisher's own list sorted by offer title: per offer, the first ids of a range scan
    // (see listPublisherLeads), instead of sorting a big publisher's 100k leads by title.
    index('leads_publisher_offer_id_idx').on(t.publisherId, t.offerId, t.id),
    check('leads_status_check', sql`${t.status} in ${sqlList(leadStatuses)}`),
    check('leads_payout_check', sql`${t.payout} >= 0`),
    check('leads_duration_check', sql`${t.callDuration} >= 0`),
    check('leads_duration_seconds_check', sql`${t.durationSeconds} >= 0`),
    check('leads_revenue_check', sql`${t.revenue} >= 0`),
    check('leads_rule_outcome_check', sql`${t.ruleOutcome} in ${sqlList(ruleOutcomes)}`),
  ],
);

/**
 * The lead's timeline (issue 13): one row each time a lead is created or its event, status,
 * duration or payout changes, written by a row trigger on leads (drizzle/…_lead_events.sql),
 * whichever code writes. No foreign key to leads: leads stay truncatable (the totals rebuild).
 * It is also the live stream's log (issue 32): its id is GET /api/v1/live's event id, and a
 * statement trigger sends NOTIFY live_events at the commit of new rows (drizzle/0041_live_notify.sql).
 */
export const leadEvents = pgTable(
  'lead_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    leadId: uuid('lead_id').notNull(),
    /** The tracker event that made this change; null when the event did not change (a rule, an admin). */
    event: text('event'),
    status: text('status', { enum: leadStatuses }).notNull(),
    statusReason: text('status_reason'),
    durationSeconds: integer('duration_seconds'),
    payout: money('payout').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('lead_events_lead_idx').on(t.leadId, t.id)],
);

export const disputeStatuses = ['open', 'accepted', 'declined'] as const;

/**
 * A publisher's dispute of a rejected or unpaid lead (issue 13): one open dispute per lead; the
 * admin accepts (the lead becomes approved) or declines. The thread is in lead_dispute_messages.
 */
export const leadDisputes = pgTable(
  'lead_disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** No foreign key: leads stay truncatable; a lead is never deleted by the portal. */
    leadId: uuid('lead_id').notNull(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: disputeStatuses }).notNull().default('open'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    decidedAt: ts('decided_at'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('lead_disputes_one_open_key').on(t.leadId).where(sql`${t.status} = 'open'`),
    index('lead_disputes_lead_idx').on(t.leadId, t.createdAt),
    index('lead_disputes_status_updated_id_idx').on(
      t.status,
      t.updatedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('lead_disputes_publisher_idx').on(t.publisherId),
    check('lead_disputes_status_check', sql`${t.status} in ${sqlList(disputeStatuses)}`),
  ],
);

/** One message of a dispute's thread, by the publisher or an admin, with an optional file. */
export const leadDisputeMessages = pgTable(
  'lead_dispute_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    disputeId: uuid('dispute_id')
      .notNull()
      .references(() => leadDisputes.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorRole: text('author_role', { enum: ['publisher', 'admin'] }).notNull(),
    body: text('body').notNull(),
    /** Storage key (`lead_disputes/...`) of the attached file, never a URL. */
    fileKey: text('file_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('lead_dispute_messages_dispute_idx').on(t.disputeId, t.createdAt, t.id),
    check('lead_dispute_messages_role_check', sql`${t.authorRole} in ('publisher','admin')`),
  ],
);

export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amount: money('amount').notNull(),
    notes: text('notes'),
    date: ts('date').notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    // --- the ledger (issue 14); null run_id: recorded before payout runs existed ---
    /** The run that created it (a manual payout is a run of one). */
    runId: uuid('run_id').references((): AnyPgColumn => payoutRuns.id, { onDelete: 'restrict' }),
    /** `recorded` when created, `paid` once the run is marked paid with its reference. */
    status: text('status', { enum: ['recorded', 'paid'] })
      .notNull()
      .default('recorded'),
    reference: text('reference'),
    periodFrom: date('period_from', { mode: 'string' }),
    periodTo: date('period_to', { mode: 'string' }),
    /**
     * The statement number (issue 27), `ST-<year>-<seq, 6 digits>`: numbered per publisher and
     * year by `statement_counters`, so a number is never given twice, even after a void.
     */
    statementYear: integer('statement_year'),
    statementSeq: integer('statement_seq'),
  },
  (t) => [
    index('payouts_run_idx').on(t.runId),
    uniqueIndex('payouts_statement_key').on(t.publisherId, t.statementYear, t.statementSeq),
    index('payouts_publisher_date_id_idx').on(
      t.publisherId,
      t.date.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('payouts_date_id_idx').on(t.date.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('payouts_amount_check', sql`${t.amount} > 0`),
  ],
);

// --- The publisher ledger (issue 14) ---

/**
 * A payout run: the payouts of one confirmation, created in one transaction. Voiding it deletes
 * its payouts (and so their lines), which releases the leads and adjustments they paid; the run
 * keeps its figures and status for the record.
 */
export const payoutRuns = pgTable(
  'payout_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: runKinds }).notNull().default('run'),
    status: text('status', { enum: runStatuses }).notNull().default('recorded'),
    periodFrom: date('period_from', { mode: 'string' }),
    periodTo: date('period_to', { mode: 'string' }),
    total: money('total').notNull().default('0'),
    payouts: integer('payouts').notNull().default(0),
    reference: text('reference'),
    note: text('note'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    paidAt: ts('paid_at'),
    voidedAt: ts('voided_at'),
    voidReason: text('void_reason'),
  },
  (t) => [
    index('payout_runs_created_id_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check('payout_runs_status_check', sql`${t.status} in ${sqlList(runStatuses)}`),
  ],
);

/**
 * A manual adjustment of a publisher's earnings with its reason: bonus, correction (either
 * sign) or clawback (negative). Owed from its creation; settled by the payout line naming it.
 */
export const payoutAdjustments = pgTable(
  'payout_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    reason: text('reason', { enum: adjustmentReasons }).notNull(),
    amount: money('amount').notNull(),
    note: text('note').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('payout_adjustments_publisher_idx').on(t.publisherId, t.createdAt),
    check('payout_adjustments_amount_check', sql`${t.amount} <> 0`),
    check('payout_adjustments_reason_check', sql`${t.reason} in ${sqlList(adjustmentReasons)}`),
  ],
);

/**
 * What a payout pays, line by line; a payout's amount is the sum of its lines. A lead's lines
 * are numbered 1, 2, 3…: odd lines pay it, even lines take it back (a paid lead rejected later),
 * so the unique (lead_id, seq) makes paying one lead twice impossible, even for two runs
 * confirmed at the same instant.
 */
export const payoutLines = pgTable(
  'payout_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    payoutId: uuid('payout_id')
      .notNull()
      .references(() => payouts.id, { onDelete: 'cascade' }),
    publisherId: uuid('publisher_id').notNull(),
    kind: text('kind', { enum: lineKinds }).notNull(),
    leadId: uuid('lead_id').references(() => leads.id, { onDelete: 'restrict' }),
    seq: smallint('seq'),
    adjustmentId: uuid('adjustment_id').references(() => payoutAdjustments.id, {
      onDelete: 'restrict',
    }),
    amount: money('amount').notNull(),
  },
  (t) => [
    uniqueIndex('payout_lines_lead_seq_key').on(t.leadId, t.seq),
    uniqueIndex('payout_lines_adjustment_key').on(t.adjustmentId),
    index('payout_lines_payout_idx').on(t.payoutId, t.kind),
    index('payout_lines_publisher_kind_idx').on(t.publisherId, t.kind),
    check(
      'payout_lines_shape_check',
      sql`(${t.kind} = 'lead' and ${t.leadId} is not null and ${t.seq} % 2 = 1 and ${t.amount} >= 0)
        or (${t.kind} = 'reversal' and ${t.leadId} is not null and ${t.seq} % 2 = 0 and ${t.amount} <= 0)
        or (${t.kind} = 'adjustment' and ${t.adjustmentId} is not null and ${t.leadId} is null)
        or (${t.kind} = 'advance' and ${t.leadId} is null and ${t.adjustmentId} is null and ${t.amount} > 0)
        or (${t.kind} = 'credit' and ${t.leadId} is null and ${t.adjustmentId} is null and ${t.amount} < 0)`,
    ),
  ],
);

/**
 * Each publisher's balance, kept by statement-level triggers on leads (approved payouts),
 * payouts and adjustments in the writing transaction (drizzle/…_publisher_ledger.sql), so the
 * Balances tab pages through an index on owed instead of adding up a million leads.
 */
export const publisherBalances = pgTable(
  'publisher_balances',
  {
    publisherId: uuid('publisher_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Payouts of approved leads. */
    earned: numeric('earned').notNull().default('0'),
    /** Sum of adjustments (bonus, correction, clawback). */
    adjustments: numeric('adjustments').notNull().default('0'),
    /** Payouts in a run not marked paid yet (void runs' payouts are deleted). */
    recorded: numeric('recorded').notNull().default('0'),
    /** Payouts marked paid (the money left, with its reference). */
    paid: numeric('paid').notNull().default('0'),
    /** Earned and not in any run yet: what the next run pays. */
    owed: numeric('owed').notNull().generatedAlwaysAs(sql`earned + adjustments - recorded - paid`),
  },
  (t) => [
    index('publisher_balances_owed_idx').on(
      t.owed.desc().nullsFirst(),
      t.publisherId.desc().nullsFirst(),
    ),
  ],
);

/**
 * Where the names reports show stand (drizzle/0058): a statement trigger on users (name, e-mail),
 * offers (title) and campaigns (name) appends a part of 1, and the stamp is the parts' sum,
 * folded now and then by the `report-names-fold` job. Unlike the sequence it replaces
 * (drizzle/0025), a part is seen only once its writer has committed, so a reader that reads the
 * stamp, then names, never keeps an old name under a new stamp.
 */
export const reportNamesParts = pgTable('report_names_parts', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/**
 * The whole network's balance (the admin dashboard's money cards), kept as parts that add up
 * to the sum of every publisher_balances row (drizzle/0056): a statement trigger on
 * publisher_balances appends one row of what the statement changed (never an update, so no
 * writer waits on another), and the `network-balance-fold` job folds the parts into one row
 * now and then. Reading the figure sums a handful of rows, not one per publisher.
 */
export const networkBalanceParts = pgTable('network_balance_parts', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  earned: numeric('earned').notNull().default('0'),
  adjustments: numeric('adjustments').notNull().default('0'),
  recorded: numeric('recorded').notNull().default('0'),
  paid: numeric('paid').notNull().default('0'),
});

/**
 * The dashboard's held payouts kept as they change (drizzle/0057, issue 29: the admin stats' SQL
 * ≤ 5 ms at 100k publishers). `payout_hold_states` holds, per publisher a trigger looked at,
 * the conditions met (`mask`, one bit per `payoutHoldConditions` entry in its order) while the
 * publisher is owed money and not released, else null; its row is also what serialises two
 * writers judging one publisher. Each change appends to `payout_hold_parts` (−1 on the old mask,
 * +1 on the new), which the `payout-holds-fold` job folds; the count is the sum of the parts
 * whose mask meets a condition Settings enables, so a change of Settings needs no recount.
 */
export const payoutHoldStates = pgTable('payout_hold_states', {
  publisherId: uuid('publisher_id').primaryKey(),
  mask: smallint('mask'),
});

export const payoutHoldParts = pgTable('payout_hold_parts', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  mask: smallint('mask').notNull(),
  n: integer('n').notNull(),
});

/**
 * How a publisher wants to be paid (issue 14): set on their profile screen. Method and account
 * are null while only a tax form was uploaded. The tax form's status is set by an admin only
 * (issue 27); an upload makes it `submitted`.
 */
export const paymentDetails = pgTable('payment_details', {
  publisherId: uuid('publisher_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  method: text('method', { enum: paymentMethods }),
  /** PayPal or Wise e-mail, bank account number, check payee address, or a reference. */
  account: text('account'),
  /** The account holder's legal name, as the bank or processor knows it. */
  holderName: text('holder_name'),
  /** US bank transfers (ACH): the 9-digit ABA routing number. */
  routingNumber: text('routing_number'),
  /** US bank transfers (ACH): `checking` or `savings`. */
  accountType: text('account_type', { enum: ['checking', 'savings'] }),
  taxFormStatus: text('tax_form_status', { enum: taxFormStatuses }).notNull(),
  /** Storage key of the uploaded W-9/W-8 PDF (private bucket), and its file name. */
  taxFormKey: text('tax_form_key'),
  taxFormName: text('tax_form_name'),
  taxFormUploadedAt: ts('tax_form_uploaded_at'),
  taxFormReviewedAt: ts('tax_form_reviewed_at'),
  taxFormReviewedBy: uuid('tax_form_reviewed_by').references(() => users.id, {
    onDelete: 'set null',
  }),
  updatedAt: updatedAt(),
});

/**
 * Payout holds of one publisher (issue 27): an admin may put the payouts under review, and may
 * release whatever holds them for the next run, with a note (both audited). A release is used
 * up by the run that pays the publisher.
 */
export const payoutHolds = pgTable('payout_holds', {
  publisherId: uuid('publisher_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  underReview: boolean('under_review').notNull().default(false),
  reviewNote: text('review_note'),
  reviewBy: uuid('review_by').references(() => users.id, { onDelete: 'set null' }),
  reviewAt: ts('review_at'),
  releaseNote: text('release_note'),
  releasedBy: uuid('released_by').references(() => users.id, { onDelete: 'set null' }),
  releasedAt: ts('released_at'),
});

/** The last statement number given per publisher and year (never reused, even after a void). */
export const statementCounters = pgTable(
  'statement_counters',
  {
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.publisherId, t.year], name: 'statement_counters_pkey' })],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    goal: text('goal'),
    targetAudience: text('target_audience'),
    location: text('location'),
    budget: money('budget'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    createdAt: createdAt(),
    // --- the lifecycle and terms (issue 31) ---
    status: text('status', { enum: campaignStatuses }).notNull().default('pending'),
    /** Why it is paused or rejected, in a sentence the buyer reads. */
    statusReason: text('status_reason'),
    pausedBy: text('paused_by', { enum: campaignPausers }),
    pausedAt: ts('paused_at'),
    /** The offer whose calls it buys, chosen by the admin on approval. */
    offerId: uuid('offer_id').references(() => offers.id, { onDelete: 'restrict' }),
    pricePerCall: money('price_per_call'),
    /** Calls shorter than this are not billable. */
    bufferSeconds: integer('buffer_seconds'),
    /** Billable calls per day of the network's time zone. */
    dailyCap: integer('daily_cap'),
    allowedStates: text('allowed_states').array().notNull().default(sql`'{}'::text[]`),
    hoursTimeZone: text('hours_time_zone'),
    openDays: smallint('open_days').array(),
    openFrom: time('open_from'),
    openTo: time('open_to'),
    /** Everything billed so far less accepted returns (maintained by the billing trigger). */
    spent: money('spent').notNull().default('0'),
    /** The highest budget alert sent (0, 80, 100): each is mailed once per budget. */
    alertedPct: smallint('alerted_pct').notNull().default(0),
    approvedAt: ts('approved_at'),
  },
  (t) => [
    // The offer's live campaigns, probed by every ingested call without a buyer id.
    index('campaigns_offer_live_idx').on(t.offerId).where(sql`${t.status} in ('active', 'paused')`),
    check('campaigns_spent_check', sql`${t.spent} >= 0`),
    check('campaigns_status_check', sql`${t.status} in ${sqlList(campaignStatuses)}`),
    index('campaigns_buyer_created_id_idx').on(
      t.buyerId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('campaigns_created_id_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('campaigns_budget_check', sql`${t.budget} is null or ${t.budget} >= 0`),
    check(
      'campaigns_dates_check',
      sql`${t.startDate} is null or ${t.endDate} is null or ${t.endDate} >= ${t.startDate}`,
    ),
  ],
);

/** Billed calls and spend per campaign and day of the network's time zone (the daily cap's slots). */
export const campaignSpendDays = pgTable(
  'campaign_spend_days',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    calls: integer('calls').notNull().default(0),
    spent: money('spent').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day], name: 'campaign_spend_days_pkey' })],
);

/**
 * What a campaign's buyer is told by mail (80% and 100% of the budget, every automatic pause):
 * written by the billing trigger and the campaign job, mailed by the campaign job.
 */
export const campaignAlerts = pgTable(
  'campaign_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['budget_80', 'budget_100', 'paused'] }).notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
    mailedAt: ts('mailed_at'),
  },
  (t) => [index('campaign_alerts_unmailed_idx').on(t.createdAt).where(sql`${t.mailedAt} is null`)],
);

/** A buyer's return of a billed call (issue 31): one per call, decided by an admin. */
export const callReturns = pgTable(
  'call_returns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    leadId: uuid('lead_id').notNull().unique(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    note: text('note'),
    amount: money('amount').notNull(),
    status: text('status', { enum: callReturnStatuses }).notNull().default('pending'),
    decisionNote: text('decision_note'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('call_returns_created_id_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('call_returns_buyer_idx').on(t.buyerId, t.createdAt.desc()),
  ],
);

/** The single settings row (id 1). */
export const settings = pgTable(
  'settings',
  {
    id: integer('id').primaryKey().default(1),
    companyName: text('company_name').notNull(),
    /** Storage key in the public `logos` bucket, or null. */
    logoUrl: text('logo_url'),
    welcomeMessage: text('welcome_message').notNull(),
    supportEmail: text('support_email').notNull(),
    /**
     * The network's IANA time zone: "today", day boundaries of reports, caps and CSV dates.
     * Checked by the contract (`TimeZoneName`), not here: PostgreSQL's zone list is the judge
     * only through `AT TIME ZONE`, which any name Intl accepts also passes.
     */
    timezone: text('timezone').notNull().default('UTC'),
    /** The one currency of the network's books (ISO 4217), shown with its symbol. */
    currency: text('currency').notNull().default('USD'),
    /** "All owed above threshold" pays the publishers owed at least this. */
    minPayout: money('min_payout').notNull().default('50.00'),
    /** Country (ISO 3166 alpha-2) of phone numbers sent without a country code. */
    phoneCountry: text('phone_country').notNull().default('US'),
    /** The network's postal address, printed on statements (several lines). */
    companyAddress: text('company_address'),
    /** Which conditions hold a publisher's payout in a run (issue 27, `payoutHoldConditions`). */
    payoutHolds: text('payout_holds')
      .array()
      .notNull()
      .default(sql`'{tax_form,payment_details,blocked,under_review}'::text[]`),
    /** Tracker tags a publisher's postback may carry as `{tag:name}` (issue 30). */
    postbackTags: text('postback_tags').array().notNull().default(sql`'{}'::text[]`),
    /**
     * The tracker tags reports group by as sub-ids (issue 34): element i is sub i+1's tag, ''
     * when that sub-id is not set.
     */
    reportSubIdTags: text('report_sub_id_tags').array().notNull().default(sql`'{}'::text[]`),
    /** Signed agreements are signed again after this many months (issue 33); null = never. */
    documentResignMonths: integer('document_resign_months'),
    /** The texts agreements and IOs are sent from (issue 33); null = the built-in text. */
    agreementTemplate: text('agreement_template'),
    ioTemplate: text('io_template'),
    /** Days after a call in which its buyer may return it (issue 31). */
    buyerReturnDays: integer('buyer_return_days').notNull().default(7),
    /** Buyers see the caller's whole number; otherwise its last 4 digits. */
    buyerSeesFullCaller: boolean('buyer_sees_full_caller').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [check('settings_single_row', sql`${t.id} = 1`)],
);

/** Mail written in the same transaction as its cause; a worker sends it. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** Files sent with the mail: storage keys (never bytes), read by the worker when sending. */
    attachments: jsonb('attachments')
      .$type<{ key: string; filename: string; contentType: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: text('status', { enum: mailStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_created_idx').on(t.createdAt.desc()),
    check('mail_outbox_status_check', sql`${t.status} in ${sqlList(mailStatuses)}`),
  ],
);

/**
 * In-app notifications (issue 16): one row per recipient, written in the transaction of the
 * event it reports. `link` is a path inside the portal (`/admin/publishers/…`), never a URL.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: notificationKinds }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    createdAt: createdAt(),
    readAt: ts('read_at'),
  },
  (t) => [
    // A user's list, newest first, read as one range scan (keyset on created_at, id).
    index('notifications_user_created_id_idx').on(
      t.userId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The bell's count: only the unread rows are in this index, so it stays small.
    index('notifications_user_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    check('notifications_kind_check', sql`${t.kind} in ${sqlList(notificationKinds)}`),
  ],
);

/**
 * Which events e-mail an admin: one row per (admin, event) the admin has set; an event without
 * a row mails them (the default is every e-mail on).
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event', { enum: adminNotificationEvents }).notNull(),
    email: boolean('email').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.event], name: 'notification_preferences_pkey' }),
    check(
      'notification_preferences_event_check',
      sql`${t.event} in ${sqlList(adminNotificationEvents)}`,
    ),
  ],
);

/** Who changed what, when: before → after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_id_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_entity_idx').on(t.entityType, t.entityId, t.createdAt.desc()),
  ],
);

/**
 * Idempotency-Key records (server/http/idempotency.ts): claimed in the same transaction as the
 * write they protect, holding its first response, which retries get back for 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Keys are scoped per user: two users may pick the same key. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of method, route, path parameters and body: "the same request". */
    fingerprint: text('fingerprint').notNull(),
    /** `POST /api/v1/admin/payouts`, for the message when a key is reused elsewhere. */
    route: text('route').notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key], name: 'idempotency_keys_pkey' }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/**
 * Failed password sign-ins per e-mail address (issue 11): a growing wait between attempts,
 * one warning mail per window. Keyed by a hash of the address, so unknown addresses are
 * throttled exactly like real accounts and the table stores no address in clear.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    lastFailureAt: ts('last_failure_at').notNull(),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    alertedAt: ts('alerted_at'),
  },
  (t) => [index('login_throttle_last_failure_idx').on(t.lastFailureAt)],
);

// ---------------------------------------------------------------------------
// Maintained aggregates (issue 12)
//
// Kept by statement-level triggers on leads and payouts (drizzle/0006_lead_totals.sql), in
// the writing transaction, whichever code or SQL writes. Never written by the services.
// Each figure is split over a few `slot`s (the writer's backend pid modulo 8), so
// concurrent writers of the same key (today's pending leads) update different rows instead
// of queueing on one row lock until commit; a reader sums the slots. Sums are unconstrained
// numeric: exact to the cent, no overflow. A group whose count falls to zero is removed.
// Rebuild (never needed in normal operation): `select rebuild_totals();`
// ---------------------------------------------------------------------------

const slot = () => integer('slot').notNull();
const sumOf = (name: string) => numeric(name).notNull();

/** Leads per publisher and status: count, payout sum and call minutes. */
export const leadTotals = pgTable(
  'lead_totals',
  {
    publisherId: uuid('publisher_id').notNull(),
    status: text('status', { enum: leadStatuses }).notNull(),
    slot: slot(),
    leads: integer('leads').notNull(),
    payout: sumOf('payout'),
    callDuration: bigint('call_duration', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.publisherId, t.status, t.slot], name: 'lead_totals_pkey' })],
);

/**
 * Leads per day of the network's time zone and status: network-wide totals over whole days
 * (drizzle/0029; recounted with the report days when the zone changes).
 */
export const leadDailyTotals = pgTable(
  'lead_daily_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status', { enum: leadStatuses }).notNull(),
    slot: slot(),
    leads: integer('leads').notNull(),
    payout: sumOf('payout'),
  },
  (t) => [primaryKey({ columns: [t.day, t.status, t.slot], name: 'lead_daily_totals_pkey' })],
);

/** Leads per publisher and day of the network's time zone: a publisher's totals over whole days. */
export const leadPublisherDailyTotals = pgTable(
  'lead_publisher_daily_totals',
  {
    publisherId: uuid('publisher_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    slot: slot(),
    leads: integer('leads').notNull(),
    payout: sumOf('payout'),
  },
  (t) => [
    primaryKey({
      columns: [t.publisherId, t.day, t.slot],
      name: 'lead_publisher_daily_totals_pkey',
    }),
  ],
);

/** Payouts per publisher: count and amount. */
export const payoutTotals = pgTable(
  'payout_totals',
  {
    publisherId: uuid('publisher_id').notNull(),
    slot: slot(),
    payouts: integer('payouts').notNull(),
    amount: sumOf('amount'),
  },
  (t) => [primaryKey({ columns: [t.publisherId, t.slot], name: 'payout_totals_pkey' })],
);

// ---------------------------------------------------------------------------
// Report rollups (issue 15), fed by the lead triggers through the report_deltas queue and
// folded by fold_report_deltas() (drizzle/0021: every second, and before each report read).
// `owner` is the publisher the figures belong to, or NETWORK_OWNER (the nil uuid) for the whole
// network. The fold writes slot 0 only (one folder at a time); older rows may hold other slots.
// - report_time_totals: per UTC quarter hour, so any time zone's days and hours (offsets are
//   multiples of 15 minutes: +05:30, +05:45) are whole sets of buckets, whatever the setting.
// - report_day_totals / report_month_totals: per day / month of the network's time zone and one
//   dimension (offer, publisher, state, status); recounted when the time zone changes.
// Rebuild (never needed in normal operation): `select rebuild_report_totals();`
// ---------------------------------------------------------------------------

/** The figures every report row is made of (sums over leads). */
const reportFigures = () => ({
  calls: bigint('calls', { mode: 'number' }).notNull(),
  /** Calls with status approved. */
  payable: bigint('payable', { mode: 'number' }).notNull(),
  /** Seconds of all calls (duration_seconds, else call_duration minutes × 60). */
  durationSeconds: bigint('duration_seconds', { mode: 'number' }).notNull(),
  /** Payout of the payable calls. */
  payout: sumOf('payout'),
  /** Revenue of the calls that have one. */
  revenue: sumOf('revenue'),
  revenueCalls: bigint('revenue_calls', { mode: 'number' }).notNull(),
  /** Payable calls that carry a revenue, and their payout: margin compares like with like. */
  revenuePayable: bigint('revenue_payable', { mode: 'number' }).notNull().default(0),
  revenuePayout: numeric('revenue_payout').notNull().default('0'),
  /** Disputes filed on the calls (leads.dispute_count summed). */
  disputes: bigint('disputes', { mode: 'number' }).notNull().default(0),
});

export const reportTimeTotals = pgTable(
  'report_time_totals',
  {
    owner: uuid('owner').notNull(),
    bucket: ts('bucket').notNull(),
    slot: slot(),
    ...reportFigures(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.bucket, t.slot], name: 'report_time_totals_pkey' })],
);

export const reportDayTotals = pgTable(
  'report_day_totals',
  {
    owner: uuid('owner').notNull(),
    dim: text('dim').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    key: text('key').notNull(),
    slot: slot(),
    ...reportFigures(),
  },
  (t) => [
    primaryKey({
      columns: [t.owner, t.dim, t.day, t.key, t.slot],
      name: 'report_day_totals_pkey',
    }),
  ],
);

export const reportMonthTotals = pgTable(
  'report_month_totals',
  {
    owner: uuid('owner').notNull(),
    dim: text('dim').notNull(),
    /** The first day of the month. */
    month: date('month', { mode: 'string' }).notNull(),
    key: text('key').notNull(),
    slot: slot(),
    ...reportFigures(),
  },
  (t) => [
    primaryKey({
      columns: [t.owner, t.dim, t.month, t.key, t.slot],
      name: 'report_month_totals_pkey',
    }),
  ],
);

/**
 * Coarser and finer blocks than the month, per dimension like report_day_totals: `span`
 * 'quarter' (start = first day of a calendar quarter) and 'dekad' (the 1st–10th, 11th–20th and
 * 21st–end of a month). A range is read as the fewest aligned blocks (days, dekads, months,
 * quarters): a year grouped by publisher sums ~5 rows per publisher instead of ~16.
 */
export const reportSpanTotals = pgTable(
  'report_span_totals',
  {
    owner: uuid('owner').notNull(),
    dim: text('dim').notNull(),
    span: text('span').notNull(),
    start: date('start', { mode: 'string' }).notNull(),
    key: text('key').notNull(),
    slot: slot(),
    ...reportFigures(),
  },
  (t) => [
    primaryKey({
      columns: [t.owner, t.dim, t.span, t.start, t.key, t.slot],
      name: 'report_span_totals_pkey',
    }),
  ],
);

/** Payouts per UTC quarter hour: the admin dashboard's payouts over any range of days. */
export const payoutTimeTotals = pgTable(
  'payout_time_totals',
  {
    bucket: ts('bucket').notNull(),
    slot: slot(),
    payouts: integer('payouts').notNull(),
    amount: sumOf('amount'),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.slot], name: 'payout_time_totals_pkey' })],
);

/**
 * Payouts per day of the network's time zone (recounted with the report days when the zone
 * changes): the admin dashboard's payouts over a year read 365 rows, not ~35k quarter hours.
 * The paid ones apart (status `paid`), so the dashboard's Total Payouts and recorded payouts of
 * a range are read here too, not summed from the payouts (drizzle/0032).
 */
export const payoutDayTotals = pgTable(
  'payout_day_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    slot: slot(),
    payouts: integer('payouts').notNull(),
    amount: sumOf('amount'),
    paidPayouts: integer('paid_payouts').notNull().default(0),
    paidAmount: sumOf('paid_amount').default('0'),
  },
  (t) => [primaryKey({ columns: [t.day, t.slot], name: 'payout_day_totals_pkey' })],
);

/**
 * The report rollups' queue (drizzle/0021): a lead write appends the figures it adds (n = 1)
 * and takes away (n = -1) here, one small insert, and fold_report_deltas() moves them into the
 * rollup tables in batches: every second in the background, and before every report read, so
 * reports are exact. Calls no longer update the same rollup rows one by one (a hot row per day
 * and owner); see bench/ingest-fold-2026-11-26.md.
 */
export const reportDeltas = pgTable('report_deltas', {
  n: smallint('n').notNull(),
  publisherId: uuid('publisher_id').notNull(),
  offerId: uuid('offer_id').notNull(),
  state: text('state'),
  status: text('status').notNull(),
  timestamp: ts('timestamp').notNull(),
  payout: numeric('payout').notNull(),
  revenue: numeric('revenue'),
  durationSeconds: integer('duration_seconds'),
  callDuration: integer('call_duration').notNull(),
  disputeCount: integer('dispute_count').notNull(),
  /** The lead's buyer campaign (issue 31): the fold adds the dimensions campaign and buyer. */
  campaignId: uuid('campaign_id'),
});

/**
 * When each day's report rows last changed: fold_report_deltas() stamps every day it folds into
 * with a new number of the report_epoch sequence, and a recount stamps the day '-infinity'. A
 * report's figures over past days are kept in memory while no day of their range got a newer
 * stamp (server/modules/reports/report-cache.ts).
 */
export const reportDayEpochs = pgTable('report_day_epochs', {
  day: date('day', { mode: 'string' }).primaryKey(),
  epoch: bigint('epoch', { mode: 'number' }).notNull(),
});

// --- Several instances on one database (issue 19) ---

/**
 * Secrets every instance must share, generated once by the first instance (JWT_SECRET when
 * unset, the JWT_ALG key pair when JWT_PRIVATE_KEY is unset). Only with PostgreSQL.
 */
export const sharedSecrets = pgTable('shared_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/** One row per running instance, refreshed every 15 s: who else serves this database. */
export const instanceHeartbeats = pgTable('instance_heartbeats', {
  id: uuid('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  /** `local` or `s3`: files on local disk while others run is worth a warning. */
  storage: text('storage').notNull(),
  startedAt: ts('started_at').notNull().defaultNow(),
  seenAt: ts('seen_at').notNull().defaultNow(),
});

/** The last start of each cluster job: one instance per period runs it (server/jobs/claim.ts). */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  lastRunAt: ts('last_run_at').notNull(),
  lastRunBy: text('last_run_by'),
});

// ---------------------------------------------------------------------------
// Outbound: webhooks and postbacks (issue 30, server/modules/outbound)
// ---------------------------------------------------------------------------

/**
 * The outbox: one row per event, written in the transaction of the change (leads by the
 * outbound triggers, drizzle/0030 and 0063; the rest by `emitEvent`, server/events), only
 * while someone listens. The fan-out turns each into deliveries and deletes it.
 */
export const outboundEvents = pgTable('outbound_events', {
  /** The order of events (a lead's postbacks go out in it). */
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  /** The idempotency key every delivery of the event carries (`webhook-id`). */
  id: uuid('id').notNull().default(sql`uuid_v7()`),
  type: text('type').notNull(),
  leadId: uuid('lead_id'),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

/** The operator's webhook endpoints (Admin → Webhooks). */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  description: text('description'),
  enabled: boolean('enabled').notNull().default(true),
  /** `whsec_` + base64: the signing key (kept readable: every delivery is signed with it). */
  secret: text('secret').notNull(),
  /** After a rotation the old secret signs too, until `previous_secret_expires_at`. */
  previousSecret: text('previous_secret'),
  previousSecretExpiresAt: ts('previous_secret_expires_at'),
  /** The first failed delivery since the last success; a day of it pauses the endpoint. */
  failingSince: ts('failing_since'),
  pausedAt: ts('paused_at'),
  /** Who is mailed when it is paused. */
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A publisher's postback URL templates: one per event, and (set by an admin) per offer. */
export const postbackTemplates = pgTable(
  'postback_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** null: every offer; set: this offer only (wins over the publisher's own). */
    offerId: uuid('offer_id').references(() => offers.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    method: text('method').notNull(),
    url: text('url').notNull(),
    body: text('body'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('postback_templates_one_key').on(t.publisherId, t.offerId, t.event).nullsNotDistinct(),
  ],
);

/** Per publisher: their postbacks' failure clock and pause (as an endpoint's). */
export const postbackTargets = pgTable('postback_targets', {
  publisherId: uuid('publisher_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  failingSince: ts('failing_since'),
  pausedAt: ts('paused_at'),
});

/** One delivery of one event to one endpoint or postback URL (the delivery log). */
export const outboundDeliveries = pgTable(
  'outbound_deliveries',
  {
    id: uuid('id').primaryKey().default(sql`uuid_v7()`),
    kind: text('kind', { enum: ['webhook', 'postback'] }).notNull(),
    endpointId: uuid('endpoint_id').references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The postback's publisher (whose log shows it). */
    publisherId: uuid('publisher_id').references(() => users.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** Order among one ordering key: the event's seq (× 4 + the postback's rank in it). */
    eventSeq: bigint('event_seq', { mode: 'number' }).notNull(),
    /** Fan-out writes a key once: a postback fires once per lead and event. */
    dedupeKey: text('dedupe_key').notNull(),
    /** Deliveries of one key go out in event order (a lead's postbacks). */
    orderingKey: text('ordering_key'),
    method: text('method').notNull(),
    url: text('url').notNull(),
    body: text('body'),
    state: text('state', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /**
     * When it is due. Null while it waits for the delivery before it of its ordering key (a
     * lead's later postback): the record of that one sets it (drizzle/0051), so a waiting
     * delivery is never walked by the claim.
     */
    nextAt: ts('next_at').defaultNow(),
    /** The claim's lease: another instance takes it again after this (a killed sender). */
    lockedUntil: ts('locked_until'),
    lockedBy: text('locked_by'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    lastDurationMs: integer('last_duration_ms'),
    /** Retries stop a day after this (a replay sets it again). */
    retryFrom: ts('retry_from').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('outbound_deliveries_dedupe_key').on(t.dedupeKey),
    index('outbound_deliveries_due_idx')
      .on(t.nextAt)
      .where(sql`${t.state} = 'pending' and ${t.nextAt} is not null`),
    index('outbound_deliveries_order_idx')
      .on(t.orderingKey, t.eventSeq)
      .where(sql`${t.state} = 'pending' and ${t.orderingKey} is not null`),
    index('outbound_deliveries_waiting_idx')
      .on(t.orderingKey, t.eventSeq)
      .where(sql`${t.state} = 'pending' and ${t.nextAt} is null`),
    // Each log's index holds only its own kind's rows (a webhook has no publisher, a postback
    // no endpoint), and the retention sweep goes by the time-ordered id: every delivery's write
    // touches two indexes fewer (drizzle/0053).
    index('outbound_deliveries_endpoint_idx')
      .on(t.endpointId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.endpointId} is not null`),
    index('outbound_deliveries_publisher_idx')
      .on(t.publisherId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.publisherId} is not null`),
  ],
);

/** Every attempt of a delivery: the request's headers, the answer, how long it took. */
export const outboundAttempts = pgTable(
  'outbound_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => outboundDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: ts('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    status: integer('status'),
    error: text('error'),
    responseBody: text('response_body'),
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>().notNull(),
  },
  (t) => [index('outbound_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

// ---------------------------------------------------------------------------
// Fraud (issue 32, items 3–5): server/modules/fraud
// ---------------------------------------------------------------------------

/**
 * Callers admins block: one E.164 number, or a prefix (`+1900`) of E.164 numbers. A call from
 * one is recorded, never payable (the `leads_fraud_guard` trigger, drizzle/…_fraud.sql).
 */
export const blockedCallers = pgTable(
  'blocked_callers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['number', 'prefix'] }).notNull(),
    value: text('value').notNull(),
    reason: text('reason').notNull(),
    expiresAt: ts('expires_at'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('blocked_callers_value_key').on(t.value),
    index('blocked_callers_created_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/** A rule's settings; a rule without a row runs with its defaults (contract/fraud.ts). */
export const fraudRules = pgTable('fraud_rules', {
  rule: text('rule').primaryKey(),
  enabled: boolean('enabled').notNull(),
  action: text('action', { enum: ['flag', 'hold'] }).notNull(),
  params: jsonb('params').$type<Record<string, number>>().notNull().default({}),
  updatedAt: updatedAt(),
});

/**
 * One row (id 1): bumped by every change of the blocklist or the rules, so each instance's
 * in-memory copy of the rules knows when to read them again.
 */
export const fraudConfig = pgTable('fraud_config', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/** A rule's verdict on one call: why, with its figures; open until an admin confirms or clears. */
export const fraudFlags = pgTable(
  'fraud_flags',
  {
    id: uuid('id').primaryKey().default(sql`uuid_v7()`),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rule: text('rule').notNull(),
    action: text('action', { enum: ['flag', 'hold'] }).notNull(),
    status: text('status', { enum: ['open', 'confirmed', 'cleared'] })
      .notNull()
      .default('open'),
    reason: text('reason').notNull(),
    figures: jsonb('figures').$type<Record<string, number | string | null>>().notNull(),
    /** The lead's status reason before a hold replaced it (a clear puts it back). */
    heldFrom: text('held_from'),
    createdAt: createdAt(),
    resolvedAt: ts('resolved_at'),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolutionNote: text('resolution_note'),
  },
  (t) => [
    uniqueIndex('fraud_flags_lead_rule_key').on(t.leadId, t.rule),
    // The queue: one status, newest first (keyset on created_at, id).
    index('fraud_flags_status_created_idx').on(
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('fraud_flags_publisher_created_idx').on(t.publisherId, t.createdAt),
  ],
);

/** Leads the rules have seen: first sight, then judged (each counted once in the counters). */
export const fraudLeadChecks = pgTable('fraud_lead_checks', {
  leadId: uuid('lead_id')
    .primaryKey()
    .references(() => leads.id, { onDelete: 'cascade' }),
  judged: boolean('judged').notNull().default(false),
});

/** Calls per caller (E.164) per hour of the call's time: the repeat-caller rule's counter. */
export const fraudCallerHours = pgTable(
  'fraud_caller_hours',
  {
    caller: text('caller').notNull(),
    hour: ts('hour').notNull(),
    calls: integer('calls').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.caller, t.hour] })],
);

/**
 * Per publisher per hour of the call's time: calls, and of the judged ones how many were just
 * over their buffer, duplicates, or rejected (the velocity and share rules' counters).
 */
export const fraudPublisherHours = pgTable(
  'fraud_publisher_hours',
  {
    publisherId: uuid('publisher_id').notNull(),
    hour: ts('hour').notNull(),
    calls: integer('calls').notNull().default(0),
    judged: integer('judged').notNull().default(0),
    nearBuffer: integer('near_buffer').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.publisherId, t.hour] })],
);

/** A velocity alert sent for a publisher in an hour (admins hear once per publisher per hour). */
export const fraudAlerts = pgTable(
  'fraud_alerts',
  {
    publisherId: uuid('publisher_id').notNull(),
    hour: ts('hour').notNull(),
  },
  (t) => [primaryKey({ columns: [t.publisherId, t.hour] })],
);

/**
 * Documents sent for a click-to-sign signature (issue 33): an agreement or an IO, one row per
 * version; a new version of the same publisher, kind and application supersedes the previous.
 */
export const signatureDocuments = pgTable(
  'signature_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: documentKinds }).notNull(),
    applicationId: uuid('application_id').references(() => offerApplications.id, {
      onDelete: 'set null',
    }),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    /** Storage key of the uploaded PDF, never a URL. */
    fileKey: text('file_key').notNull(),
    sha256: text('sha256').notNull(),
    status: text('status', { enum: storedDocumentStatuses }).notNull().default('sent'),
    sentBy: uuid('sent_by').references(() => users.id, { onDelete: 'set null' }),
    sentAt: ts('sent_at').notNull().defaultNow(),
    viewedAt: ts('viewed_at'),
    signedAt: ts('signed_at'),
    /** The latest signature's expiry (settings' re-sign months), null when it never expires. */
    expiresAt: ts('expires_at'),
    /** Expiry reminders already sent for the current signature: days before (30, 7, 1). */
    remindedDays: integer('reminded_days').array().notNull().default(sql`'{}'::integer[]`),
    lastRemindedAt: ts('last_reminded_at'),
    supersededAt: ts('superseded_at'),
  },
  (t) => [
    index('signature_documents_sent_id_idx').on(
      t.sentAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('signature_documents_publisher_idx').on(t.publisherId, t.sentAt.desc()),
    index('signature_documents_expires_idx').on(t.expiresAt).where(sql`${t.status} = 'signed'`),
    check('signature_documents_kind_check', sql`${t.kind} in ${sqlList(documentKinds)}`),
    check(
      'signature_documents_status_check',
      sql`${t.status} in ${sqlList(storedDocumentStatuses)}`,
    ),
  ],
);

/** Each signature of a document: who, when, from where, what they were shown, the sealed copy. */
export const documentSignatures = pgTable(
  'document_signatures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => signatureDocuments.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
    consentText: text('consent_text').notNull(),
    shownSha256: text('shown_sha256').notNull(),
    /** Storage key of the sealed signed PDF. */
    signedKey: text('signed_key').notNull(),
    sealedSha256: text('sealed_sha256').notNull(),
    /** SHA-256 of the sealing certificate (DER), so a copy sealed by an older one still checks. */
    certSha256: text('cert_sha256').notNull(),
    signedAt: ts('signed_at').notNull(),
    expiresAt: ts('expires_at'),
  },
  (t) => [
    index('document_signatures_document_idx').on(t.documentId, t.signedAt.desc()),
    index('document_signatures_sealed_idx').on(t.sealedSha256),
  ],
);

/** The life of a document (sent, viewed, signed, reminded, superseded) for its certificate. */
export const documentEvents = pgTable(
  'document_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => signatureDocuments.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    at: ts('at').notNull().defaultNow(),
    actorEmail: text('actor_email'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('document_events_document_idx').on(t.documentId, t.at)],
);

/**
 * A buyer's billing (issue 31, item 6): prepaid or postpaid (no row: postpaid), and the balance
 * in cents, maintained: deposits + accepted return credits − billed spend. The billing trigger
 * draws it in one conditional update, so a prepaid buyer's calls never take it below zero.
 */
export const buyerBilling = pgTable(
  'buyer_billing',
  {
    buyerId: uuid('buyer_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    mode: text('mode', { enum: billingModes }).notNull().default('postpaid'),
    balanceCents: bigint('balance_cents', { mode: 'bigint' }).notNull().default(sql`0`),
    updatedAt: updatedAt(),
  },
  (t) => [check('buyer_billing_mode_check', sql`${t.mode} in ${sqlList(billingModes)}`)],
);

/** A prepaid buyer's deposit, recorded by an admin. */
export const buyerDeposits = pgTable(
  'buyer_deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    note: text('note'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('buyer_deposits_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    check('buyer_deposits_amount_check', sql`${t.amountCents} > 0`),
  ],
);

/** A postpaid buyer's invoice for one month (`month`: its first day, network time zone). */
export const buyerInvoices = pgTable(
  'buyer_invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    timeZone: text('time_zone').notNull(),
    totalCents: bigint('total_cents', { mode: 'bigint' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('buyer_invoices_buyer_month_unique').on(t.buyerId, t.month),
    index('buyer_invoices_buyer_idx').on(t.buyerId, t.month.desc()),
  ],
);

/** An invoice's line: the billed calls of one campaign on one day, or a credited return. */
export const buyerInvoiceLines = pgTable(
  'buyer_invoice_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => buyerInvoices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['calls', 'return'] }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    campaignId: uuid('campaign_id'),
    campaignName: text('campaign_name').notNull(),
    calls: integer('calls').notNull(),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
  },
  (t) => [index('buyer_invoice_lines_invoice_idx').on(t.invoiceId, t.day, t.id)],
);

/**
 * How many rows of a table are in each status, for what waits for the admins (the dashboard's
 * cards and the bell, read on every admin page): `entity` is `application` (offer applications),
 * `dispute` (lead disputes) or `user:<role>`. Kept by statement triggers on those tables
 * (drizzle/0048), so a count is one primary-key read instead of a walk of every pending row.
 */
export const statusCounts = pgTable(
  'status_counts',
  {
    entity: text('entity').notNull(),
    status: text('status').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.entity, t.status] })],
);
