import { and, eq, getTableColumns, inArray, ne, type SQL, sql } from 'drizzle-orm';
import {
  callFields,
  defaultSignatureHeader,
  type FieldRule,
  type MappingInput,
  type SignatureInput,
  type SignatureScheme,
  storedMapping,
  type Tracker,
} from '../../../contract/ingest-mapping.ts';
import type {
  AdminIntegration,
  AttachExternalId,
  CreatedIntegration,
  CreateIntegration,
  ExternalIdList,
  ExternalIdListQuery,
  ExternalIdMapping,
  IngestAnswer,
  IngestRefusal,
  IntegrationList,
  IntegrationListQuery,
  RefusalList,
  RefusalListQuery,
  UpdateIntegration,
} from '../../../contract/integrations.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  cappedCount,
  countAll,
  exactCount,
  keyset,
  keysetOf,
  listPage,
} from '../../db/list-query.ts';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import {
  ingestRefusals,
  integrationExternalIds,
  integrations,
  offers,
  users,
} from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { type Actor, writeAudit } from '../audit/index.ts';
// The ingestion capability owns the mapping engine; the admin's replay and test console read
// postbacks through it so they can never disagree with the endpoint.
import { ingestIntegrationById, ingestParams } from './ingest.service.ts';
import { hashIntegrationKey, newIntegrationKey } from './lead-ingest.ts';
import { effectiveMapping } from './mapping.ts';

type IntegrationRow = typeof integrations.$inferSelect;
type Sharing = { id: string; name: string }[];

function toAdminIntegration(r: IntegrationRow, sharing: Sharing = []): AdminIntegration {
  const mapping = effectiveMapping(r.tracker as Tracker, r.fieldMap);
  return {
    id: r.id,
    name: r.name,
    tracker: r.tracker as Tracker,
    account_id: r.accountId,
    time_zone: r.timeZone,
    key_prefix: r.keyPrefix,
    allowed_ips: r.allowedIps,
    field_map: Object.fromEntries(callFields.map((f) => [f, mapping[f] as FieldRule])),
    signature: r.signature
      ? {
          scheme: r.signature.scheme as SignatureScheme,
          header: r.signature.header,
          secret_hint: `…${r.signature.secret.slice(-4)}`,
        }
      : null,
    call_id_fields: r.callIdFields,
    secret_params: r.secretParams,
    shares_calls_with: sharing,
    revoked_at: r.revokedAt?.toISOString() ?? null,
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    accepted_count: Number(r.acceptedCount),
    refused_count: Number(r.refusedCount),
    created_at: r.createdAt.toISOString(),
  };
}

/** What the audit log keeps of an integration: never the key, its hash or a signing secret. */
const auditView = (i: AdminIntegration) => ({
  name: i.name,
  tracker: i.tracker,
  account_id: i.account_id,
  time_zone: i.time_zone,
  key_prefix: i.key_prefix,
  allowed_ips: i.allowed_ips,
  field_map: i.field_map,
  signature: i.signature,
  call_id_fields: i.call_id_fields,
  secret_params: i.secret_params,
  revoked_at: i.revoked_at,
});

/**
 * The integration's own rules over the ones stored: a field set to null goes back to the
 * preset's rule; only fields that differ from the preset are stored.
 */
function mergedFieldMap(tracker: Tracker, stored: unknown, input: MappingInput | undefined) {
  const own: Record<string, FieldRule> = { ...storedMapping(stored) };
  const preset = effectiveMapping(tracker, {});
  for (const [f, rule] of Object.entries(input ?? {})) {
    if (rule === null || rule === undefined) delete own[f];
    else own[f] = rule as FieldRule;
  }
  for (const [f, rule] of Object.entries(own)) {
    if (JSON.stringify(rule) === JSON.stringify(preset[f as keyof typeof preset])) delete own[f];
  }
  return own;
}

const signatureOf = (s: SignatureInput | null | undefined) =>
  s
    ? { scheme: s.scheme, secret: s.secret, header: s.header ?? defaultSignatureHeader[s.scheme] }
    : null;

/**
 * The call scope of an integration of `tracker` and `accountId`: the scope of the account's
 * other integrations (the oldest), else its own id. Integrations of one account share calls.
 */
async function scopeFor(
  tx: DbOrTx,
  self: string,
  tracker: string,
  accountId: string | null,
): Promise<string> {
  if (!accountId) return self;
  const [other] = await tx
    .select({ scope: sql<string>`coalesce(${integrations.callScope}, ${integrations.id})` })
    .from(integrations)
    .where(
      and(
        eq(integrations.tracker, tracker),
        sql`lower(${integrations.accountId}) = lower(${accountId})`,
        ne(integrations.id, self),
      ),
    )
    .orderBy(integrations.createdAt, integrations.id)
    .limit(1);
  return other?.scope ?? self;
}

/** The other integrations whose calls this one shares. */
async function sharingOf(db: DbOrTx, r: IntegrationRow): Promise<Sharing> {
  const scope = r.callScope ?? r.id;
  return db
    .select({ id: integrations.id, name: integrations.name })
    .from(integrations)
    .where(
      and(
        sql`coalesce(${integrations.callScope}, ${integrations.id}) = ${scope}::uuid`,
        ne(integrations.id, r.id),
      ),
    )
    .orderBy(integrations.name);
}

const duplicateName = (name: string) =>
  conflict(`An integration named "${name}" already exists; choose another name.`);

const sortColumns = {
  created_at: integrations.createdAt,
  name: sql`lower(${integrations.name})`,
  last_used_at: integrations.lastUsedAt,
} as const;

/** Every integration, newest first unless sorted otherwise. */
export async function listIntegrations(opts: {
  db: DbOrTx;
  query: IntegrationListQuery;
}): Promise<IntegrationList> {
  const { db, query } = opts;
  const page = await listPage({
    query,
    keyset: keysetOf(sortColumns, query, integrations.id),
    rows: (w) =>
      db
        .select({ ...getTableColumns(integrations), sortKey: w.sortKey })
        .from(integrations)
        .where(w.after)
        .orderBy(...w.orderBy)
        .limit(w.limit)
        .offset(w.offset),
    count: () => exactCount(db.select({ n: countAll() }).from(integrations)),
    toItem: (r: IntegrationRow) => r,
  });
  // Who shares calls with whom, for the page's integrations in one read.
  const scopes = [...new Set(page.items.map((r) => r.callScope ?? r.id))];
  const members = scopes.length
    ? await db
        .select({
          id: integrations.id,
          name: integrations.name,
          scope: sql<string>`coalesce(${integrations.callScope}, ${integrations.id})`,
        })
        .from(integrations)
        .where(inArray(sql`coalesce(${integrations.callScope}, ${integrations.id})`, scopes))
        .orderBy(integrations.name)
    : [];
  return {
    ...page,
    items: page.items.map((r) =>
      toAdminIntegration(
        r,
        members
          .filter((m) => m.scope === (r.callScope ?? r.id) && m.id !== r.id)
          .map(({ id, name }) => ({ id, name })),
      ),
    ),
  };
}

async function getRow(db: DbOrTx, id: string): Promise<IntegrationRow> {
  const [row] = await db.select().from(integrations).where(eq(integrations.id, id));
  if (!row) throw notFound('Integration');
  return row;
}

export async function getIntegration(opts: { db: DbOrTx; id: string }): Promise<AdminIntegration> {
  const row = await getRow(opts.db, opts.id);
  return toAdminIntegration(row, await sharingOf(opts.db, row));
}

/** Creates an integration with a new key, answered this once (only its hash is kept). */
export async function createIntegration(opts: {
  db: Db;
  actor: Actor;
  input: CreateIntegration;
}): Promise<CreatedIntegration> {
  const { input } = opts;
  const key = newIntegrationKey();
  const tracker = (input.tracker ?? 'generic') as Tracker;
  const id = crypto.randomUUID();
  try {
    return await opts.db.transaction(async (tx) => {
      const accountId = input.account_id ?? null;
      const [row] = await tx
        .insert(integrations)
        .values({
          id,
          name: input.name,
          tracker,
          accountId,
          callScope: await scopeFor(tx, id, tracker, accountId),
          timeZone: input.time_zone ?? null,
          signature: signatureOf(input.signature),
          callIdFields: input.call_id_fields ?? [],
          secretParams: input.secret_params ?? [],
          keyHash: hashIntegrationKey(key),
          keyPrefix: key.slice(0, 9),
          allowedIps: [...new Set(input.allowed_ips ?? [])],
          fieldMap: mergedFieldMap(tracker, {}, input.field_map as MappingInput),
          createdBy: opts.actor.id,
        })
        .returning();
      const integration = toAdminIntegration(row!, await sharingOf(tx, row!));
      await writeAudit(tx, {
        actor: opts.actor,
        action: 'integration.create',
        entityType: 'integration',
        entityId: integration.id,
        before: null,
        after: auditView(integration),
      });
      return { integration, key };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateName(input.name);
    throw err;
  }
}

/** Renames, changes the allowed sources or the parameter names. */
export async function updateIntegration(opts: {
  db: Db;
  actor: Actor;
  id: string;
  input: UpdateIntegration;
}): Promise<AdminIntegration> {
  const { input } = opts;
  try {
    return await opts.db.transaction(async (tx) => {
      const current = await getRow(tx, opts.id);
      const before = toAdminIntegration(current);
      const tracker = current.tracker as Tracker;
      let callScope = current.callScope ?? current.id;
      if (input.account_id !== undefined) {
        callScope = await scopeFor(tx, current.id, tracker, input.account_id);
        await checkScopeMove(tx, current, callScope);
      }
      const [row] = await tx
        .update(integrations)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.allowed_ips !== undefined && { allowedIps: [...new Set(input.allowed_ips)] }),
          ...(input.field_map !== undefined && {
            fieldMap: mergedFieldMap(tracker, current.fieldMap, input.field_map as MappingInput),
          }),
          ...(input.account_id !== undefined && { accountId: input.account_id, callScope }),
          ...(input.time_zone !== undefined && { timeZone: input.time_zone }),
          ...(input.signature !== undefined && { signature: signatureOf(input.signature) }),
          ...(input.call_id_fields !== undefined && { callIdFields: input.call_id_fields }),
          ...(input.secret_params !== undefined && { secretParams: input.secret_params }),
          updatedAt: new Date(),
        })
        .where(eq(integrations.id, opts.id))
        .returning();
      const after = toAdminIntegration(row!, await sharingOf(tx, row!));
      await writeAudit(tx, {
        actor: opts.actor,
        action: 'integration.update',
        entityType: 'integration',
        entityId: opts.id,
        before: auditView(before),
        after: auditView(after),
      });
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err) && input.name) throw duplicateName(input.name);
    throw err;
  }
}

/** Revokes the key at once: the next postback with it gets 401. Revoking twice changes nothing. */
export async function revokeIntegration(opts: {
  db: Db;
  actor: Actor;
  id: string;
}): Promise<AdminIntegration> {
  return opts.db.transaction(async (tx) => {
    const before = await getRow(tx, opts.id);
    if (before.revokedAt) return toAdminIntegration(before);
    const [row] = await tx
      .update(integrations)
      .set({ revokedAt: new Date(), updatedAt: new Date() })
      .where(eq(integrations.id, opts.id))
      .returning();
    const after = toAdminIntegration(row!);
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'integration.revoke',
      entityType: 'integration',
      entityId: opts.id,
      before: { revoked_at: null },
      after: { revoked_at: after.revoked_at },
    });
    return after;
  });
}

// ---------------------------------------------------------------------------
// External ids
// ---------------------------------------------------------------------------

const mappingColumns = {
  id: integrationExternalIds.id,
  kind: integrationExternalIds.kind,
  externalId: integrationExternalIds.externalId,
  publisherId: integrationExternalIds.publisherId,
  offerId: integrationExternalIds.offerId,
  createdAt: integrationExternalIds.createdAt,
  label: sql<string>`coalesce(${users.name}, ${users.email}, ${offers.title})`,
};

const selectMappings = (db: DbOrTx, sortKey: SQL<string | null> = sql`null`) =>
  db
    .select({ ...mappingColumns, sortKey })
    .from(integrationExternalIds)
    .leftJoin(users, eq(users.id, integrationExternalIds.publisherId))
    .leftJoin(offers, eq(offers.id, integrationExternalIds.offerId));

type MappingRow = {
  id: string;
  kind: 'publisher' | 'offer';
  externalId: string;
  publisherId: string | null;
  offerId: string | null;
  createdAt: Date;
  label: string;
};

const toMapping = (r: MappingRow): ExternalIdMapping => ({
  id: r.id,
  kind: r.kind,
  external_id: r.externalId,
  target_id: (r.publisherId ?? r.offerId)!,
  target_label: r.label,
  created_at: r.createdAt.toISOString(),
});

/** The tracker ids attached on one integration, newest first. */
export async function listExternalIds(opts: {
  db: DbOrTx;
  id: string;
  query: ExternalIdListQuery;
}): Promise<ExternalIdList> {
  const { db, query } = opts;
  await getRow(db, opts.id);
  const cond = and(
    eq(integrationExternalIds.integrationId, opts.id),
    query.kind ? eq(integrationExternalIds.kind, query.kind) : undefined,
  );
  return listPage({
    query,
    keyset: keyset(
      'created_at',
      integrationExternalIds.createdAt,
      'desc',
      integrationExternalIds.id,
    ),
    rows: (w) =>
      selectMappings(db, w.sortKey)
        .where(and(cond, w.after))
        .orderBy(...w.orderBy)
        .limit(w.limit)
        .offset(w.offset),
    count: () => exactCount(db.select({ n: countAll() }).from(integrationExternalIds).where(cond)),
    toItem: toMapping,
  });
}

/**
 * Attaches a tracker's publisher id to one of our publishers (or its campaign id to an offer);
 * the same external id attached again moves to the new target.
 */
export async function attachExternalId(opts: {
  db: Db;
  actor: Actor;
  id: string;
  input: AttachExternalId;
}): Promise<ExternalIdMapping> {
  const { input } = opts;
  return opts.db.transaction(async (tx) => {
    await getRow(tx, opts.id);
    const isPublisher = input.kind === 'publisher';
    const [target] = isPublisher
      ? await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, input.target_id), eq(users.role, 'publisher')))
      : await tx.select({ id: offers.id }).from(offers).where(eq(offers.id, input.target_id));
    if (!target) {
      const message = isPublisher
        ? 'The selected publisher does not exist.'
        : 'The selected offer does not exist.';
      throw new AppError('validation_failed', message, { details: { target_id: [message] } });
    }
    const [before] = await tx
      .select()
      .from(integrationExternalIds)
      .where(
        and(
          eq(integrationExternalIds.integrationId, opts.id),
          eq(integrationExternalIds.kind, input.kind),
          eq(integrationExternalIds.externalId, input.external_id),
        ),
      );
    const values = {
      publisherId: isPublisher ? target.id : null,
      offerId: isPublisher ? null : target.id,
    };
    const [row] = await tx
      .insert(integrationExternalIds)
      .values({
        integrationId: opts.id,
        kind: input.kind,
        externalId: input.external_id,
        ...values,
      })
      .onConflictDoUpdate({
        target: [
          integrationExternalIds.integrationId,
          integrationExternalIds.kind,
          integrationExternalIds.externalId,
        ],
        set: values,
      })
      .returning({ id: integrationExternalIds.id });
    const [mapping] = await selectMappings(tx).where(eq(integrationExternalIds.id, row!.id));
    const result = toMapping(mapping!);
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'integration.external_id.attach',
      entityType: 'integration',
      entityId: opts.id,
      before: before
        ? {
            kind: before.kind,
            external_id: before.externalId,
            target_id: before.publisherId ?? before.offerId,
          }
        : null,
      after: { kind: result.kind, external_id: result.external_id, target_id: result.target_id },
    });
    return result;
  });
}

/** Detaches a tracker id; its later postbacks get 422 until attached again. */
export async function detachExternalId(opts: {
  db: Db;
  actor: Actor;
  id: string;
  mappingId: string;
}): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(integrationExternalIds)
      .where(
        and(
          eq(integrationExternalIds.id, opts.mappingId),
          eq(integrationExternalIds.integrationId, opts.id),
        ),
      )
      .returning();
    if (!gone) throw notFound('External id');
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'integration.external_id.detach',
      entityType: 'integration',
      entityId: opts.id,
      before: {
        kind: gone.kind,
        external_id: gone.externalId,
        target_id: gone.publisherId ?? gone.offerId,
      },
      after: null,
    });
  });
}

// ---------------------------------------------------------------------------
// Refused calls
// ---------------------------------------------------------------------------

type RefusalRow = typeof ingestRefusals.$inferSelect & { integrationName: string | null };

const toRefusal = (r: RefusalRow): IngestRefusal => ({
  id: r.id,
  integration_id: r.integrationId,
  integration_name: r.integrationName,
  http_status: r.httpStatus,
  code: r.code,
  reason: r.reason,
  method: r.method,
  query: r.query,
  body: r.body ?? null,
  headers: r.headers,
  ip: r.ip,
  created_at: r.createdAt.toISOString(),
  replayed_at: r.replayedAt?.toISOString() ?? null,
  lead_id: r.leadId,
});

const selectRefusals = (db: DbOrTx, sortKey: SQL<string | null> = sql`null`) =>
  db
    .select({
      sortKey,
      id: ingestRefusals.id,
      integrationId: ingestRefusals.integrationId,
      integrationName: integrations.name,
      httpStatus: ingestRefusals.httpStatus,
      code: ingestRefusals.code,
      reason: ingestRefusals.reason,
      method: ingestRefusals.method,
      query: ingestRefusals.query,
      body: ingestRefusals.body,
      headers: ingestRefusals.headers,
      ip: ingestRefusals.ip,
      createdAt: ingestRefusals.createdAt,
      replayedAt: ingestRefusals.replayedAt,
      leadId: ingestRefusals.leadId,
    })
    .from(ingestRefusals)
    .leftJoin(integrations, eq(integrations.id, ingestRefusals.integrationId));

/** Refused postbacks of the last REFUSAL_RETENTION_DAYS days, newest first. */
export async function listRefusals(opts: {
  db: DbOrTx;
  query: RefusalListQuery;
}): Promise<RefusalList> {
  const { db, query } = opts;
  const cond: SQL | undefined = query.integration_id
    ? eq(ingestRefusals.integrationId, query.integration_id)
    : undefined;
  return listPage({
    query,
    keyset: keyset('created_at', ingestRefusals.createdAt, 'desc', ingestRefusals.id),
    rows: (w) =>
      selectRefusals(db, w.sortKey)
        .where(and(cond, w.after))
        .orderBy(...w.orderBy)
        .limit(w.limit)
        .offset(w.offset),
    // Refused calls can pile up when a tracker is misconfigured: the count stops at the cap.
    count: () => cappedCount(db, db.select({ one: sql`1` }).from(ingestRefusals).where(cond)),
    toItem: toRefusal,
  });
}

/**
 * Runs a refused postback again with the integration's current mappings (after the admin fixed
 * one): the lead it makes is answered and the refusal marked replayed; a refusal again answers
 * its reason (and the stored reason is brought up to date).
 */
export async function replayRefusal(opts: {
  db: Db;
  actor: Actor;
  id: string;
}): Promise<IngestAnswer> {
  const { db } = opts;
  const [refusal] = await db.select().from(ingestRefusals).where(eq(ingestRefusals.id, opts.id));
  if (!refusal) throw notFound('Refused call');
  if (refusal.replayedAt) throw conflict('This call was already replayed.');
  if (!refusal.integrationId) {
    throw conflict('This call came without a valid key, so no integration can take it.');
  }
  const integration = await ingestIntegrationById(db, refusal.integrationId);
  if (!integration) throw notFound('Integration');
  if (integration.revokedAt) {
    throw conflict(
      `The key of integration "${integration.name}" is revoked; its calls cannot be replayed.`,
    );
  }
  const body = refusal.body && typeof refusal.body === 'object' ? refusal.body : {};
  const outcome = await ingestParams({
    db,
    integration,
    params: { ...refusal.query, ...(body as object) },
  });
  if (!('answer' in outcome)) {
    await db
      .update(ingestRefusals)
      .set({ code: outcome.code, reason: outcome.message, httpStatus: outcome.status })
      .where(eq(ingestRefusals.id, refusal.id));
    throw new AppError(outcome.code, outcome.message, {
      status: outcome.status,
      details: outcome.details,
    });
  }
  await db.transaction(async (tx) => {
    await tx
      .update(ingestRefusals)
      .set({ replayedAt: new Date(), leadId: outcome.answer.id })
      .where(eq(ingestRefusals.id, refusal.id));
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'integration.refusal.replay',
      entityType: 'integration',
      entityId: integration.id,
      before: { refusal_id: refusal.id, reason: refusal.reason },
      after: { lead_id: outcome.answer.id, status: outcome.answer.status },
    });
  });
  return outcome.answer;
}

/**
 * An integration's account can change only while that moves no calls: once it has taken calls
 * (or other integrations keep theirs under its id), a late event of a known call would look in
 * the new account's calls, miss, and make a second lead. Make a new integration instead.
 */
async function checkScopeMove(tx: DbOrTx, current: IntegrationRow, next: string): Promise<void> {
  const now = current.callScope ?? current.id;
  if (next === now) return;
  const [shared] = await tx
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.callScope, current.id), ne(integrations.id, current.id)))
    .limit(1);
  const [call] = await tx
    .select({ id: sql`1` })
    .from(sql`leads`)
    .where(sql`integration_id = ${now}::uuid`)
    .limit(1);
  if (shared || (call && (Number(current.acceptedCount) > 0 || now === current.id))) {
    throw conflict(
      `Integration "${current.name}" already holds calls of its tracker account; changing the account now would let a late event of one of those calls make a second lead. Create a new integration for the other account.`,
    );
  }
}
