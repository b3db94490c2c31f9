import { sql } from 'drizzle-orm';
import {
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
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();

import {
  accountStatuses,
  applicationStatuses,
  leadStatuses,
  mailStatuses,
  offerStatuses,
  publisherStatuses,
  roles,
  userStatuses,
} from '../../contract/roles.ts';

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
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
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
  },
  (t) => [
    index('offers_status_created_idx').on(t.status, t.createdAt.desc()),
    index('offers_created_idx').on(t.createdAt.desc()),
    check('offers_status_check', sql`${t.status} in ${sqlList(offerStatuses)}`),
    check('offers_payout_check', sql`${t.payout} >= 0`),
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
    applicationId: uuid('application_id')
      .notNull()
      .unique()
      .references(() => offerApplications.id, { onDelete: 'cascade' }),
    /** Storage keys of the 1-3 media files. */
    fileUrls: jsonb('file_urls').$type<string[]>().notNull(),
    /** Storage key of the document. */
    documentUrl: text('document_url').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
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
    /** Our field name → the tracker's parameter name, only where it differs from the default. */
    fieldMap: jsonb('field_map').$type<Record<string, string>>().notNull().default({}),
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
    kind: text('kind', { enum: ['publisher', 'offer'] }).notNull(),
    externalId: text('external_id').notNull(),
    publisherId: uuid('publisher_id').references(() => users.id, { onDelete: 'cascade' }),
    offerId: uuid('offer_id').references(() => offers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('integration_external_ids_key').on(t.integrationId, t.kind, t.externalId),
    check(
      'integration_external_ids_target_check',
      sql`(${t.kind} = 'publisher' and ${t.publisherId} is not null and ${t.offerId} is null)
        or (${t.kind} = 'offer' and ${t.offerId} is not null and ${t.publisherId} is null)`,
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

export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
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
    /** Why the lead has its status, in a sentence (tracker error, later: offer rules, admin). */
    statusReason: text('status_reason'),
  },
  (t) => [
    uniqueIndex('leads_integration_call_key').on(t.integrationId, t.externalCallId),
    // Every leads list orders by (sort, id) in one direction: each index ends in id, in the
    // list's direction, so a page (and a page after a cursor) is one range scan, not a sort.
    // `.desc().nullsFirst()` is what ORDER BY … DESC means; drizzle's bare `.desc()` writes
    // DESC NULLS LAST, an order the planner cannot use for it (the old indexes never served).
    index('leads_ts_id_idx').on(t.timestamp.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('leads_publisher_ts_id_idx').on(
      t.publisherId,
      t.timestamp.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('leads_offer_ts_id_idx').on(
      t.offerId,
      t.timestamp.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
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
    // The publisher's own list sorted by offer title: per offer, the first ids of a range scan
    // (see listPublisherLeads), instead of sorting a big publisher's 100k leads by title.
    index('leads_publisher_offer_id_idx').on(t.publisherId, t.offerId, t.id),
    check('leads_status_check', sql`${t.status} in ${sqlList(leadStatuses)}`),
    check('leads_payout_check', sql`${t.payout} >= 0`),
    check('leads_duration_check', sql`${t.callDuration} >= 0`),
    check('leads_duration_seconds_check', sql`${t.durationSeconds} >= 0`),
    check('leads_revenue_check', sql`${t.revenue} >= 0`),
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
  },
  (t) => [
    index('payouts_publisher_date_id_idx').on(
      t.publisherId,
      t.date.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('payouts_date_id_idx').on(t.date.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('payouts_amount_check', sql`${t.amount} > 0`),
  ],
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
  },
  (t) => [
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

/** Leads per UTC day and status: the admin chart, and network-wide totals. */
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

/** Leads per publisher and UTC day: the publisher's 30-day chart. */
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

/** Payouts per UTC day: the admin chart and the network's total paid. */
export const payoutDailyTotals = pgTable(
  'payout_daily_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    slot: slot(),
    payouts: integer('payouts').notNull(),
    amount: sumOf('amount'),
  },
  (t) => [primaryKey({ columns: [t.day, t.slot], name: 'payout_daily_totals_pkey' })],
);
