/**
 * The admin's integrations (issues 13, 26): list, create (with its key), change and revoke. What
 * an integration is made of is in integration-config.ts; its tracker ids and refused calls, in
 * integration-external-ids.ts and integration-refusals.ts, answered from here too.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { MappingInput, Tracker } from '../../../contract/ingest-mapping.ts';
import type {
  AdminIntegration,
  CreatedIntegration,
  CreateIntegration,
  IntegrationList,
  IntegrationListQuery,
  UpdateIntegration,
} from '../../../contract/integrations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countRows, keysetOf, type ListRead, listPage, tableRows } from '../../db/list-query.ts';
import { onUniqueViolation } from '../../db/rows.ts';
import { integrations } from '../../db/schema.ts';
import type { AdminAction, AdminEdit, AdminWrite } from '../audit/index.ts';
import {
  auditIntegration,
  auditView,
  checkScopeMove,
  duplicateName,
  getRow,
  type IntegrationRow,
  mergedFieldMap,
  scopeFor,
  sharingOf,
  signatureOf,
  toAdminIntegration,
} from './integration-config.ts';
import { hashIntegrationKey, newIntegrationKey } from './lead-ingest.ts';

export {
  attachExternalId,
  detachExternalId,
  listExternalIds,
} from './integration-external-ids.ts';
export { listRefusals, replayRefusal } from './integration-refusals.ts';

const sortColumns = {
  created_at: integrations.createdAt,
  name: sql`lower(${integrations.name})`,
  last_used_at: integrations.lastUsedAt,
} as const;

/** Every integration, newest first unless sorted otherwise. */
export async function listIntegrations(
  opts: ListRead<IntegrationListQuery>,
): Promise<IntegrationList> {
  const { db, query } = opts;
  const page = await listPage({
    query,
    keyset: keysetOf(sortColumns, query, integrations.id),
    rows: tableRows(db, integrations, undefined),
    count: () => countRows(db, integrations, undefined, 'exact'),
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

/** An integration as the API answers it, with the others it shares calls with. */
async function withSharing(db: DbOrTx, row: IntegrationRow): Promise<AdminIntegration> {
  return toAdminIntegration(row, await sharingOf(db, row));
}

export async function getIntegration(opts: { db: DbOrTx; id: string }): Promise<AdminIntegration> {
  return withSharing(opts.db, await getRow(opts.db, opts.id));
}

/** Creates an integration with a new key, answered this once (only its hash is kept). */
export async function createIntegration(
  opts: AdminWrite<CreateIntegration>,
): Promise<CreatedIntegration> {
  const { input } = opts;
  const key = newIntegrationKey();
  const tracker = (input.tracker ?? 'generic') as Tracker;
  const id = crypto.randomUUID();
  const create = () =>
    opts.db.transaction(async (tx) => {
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
      const integration = await withSharing(tx, row!);
      await auditIntegration(tx, opts.actor, 'create', integration.id, {
        before: null,
        after: auditView(integration),
      });
      return { integration, key };
    });
  return onUniqueViolation(create, () => duplicateName(input.name));
}

/** Renames, changes the allowed sources or the parameter names. */
export async function updateIntegration(
  opts: AdminEdit<UpdateIntegration>,
): Promise<AdminIntegration> {
  const { input } = opts;
  const update = () =>
    opts.db.transaction(async (tx) => {
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
      const after = await withSharing(tx, row!);
      await auditIntegration(tx, opts.actor, 'update', opts.id, {
        before: auditView(before),
        after: auditView(after),
      });
      return after;
    });
  return onUniqueViolation(update, () => (input.name ? duplicateName(input.name) : undefined));
}

/** Revokes the key at once: the next postback with it gets 401. Revoking twice changes nothing. */
export async function revokeIntegration(opts: AdminAction): Promise<AdminIntegration> {
  return opts.db.transaction(async (tx) => {
    const before = await getRow(tx, opts.id);
    if (before.revokedAt) return toAdminIntegration(before);
    const [row] = await tx
      .update(integrations)
      .set({ revokedAt: new Date(), updatedAt: new Date() })
      .where(eq(integrations.id, opts.id))
      .returning();
    const after = toAdminIntegration(row!);
    await auditIntegration(tx, opts.actor, 'revoke', opts.id, {
      before: { revoked_at: null },
      after: { revoked_at: after.revoked_at },
    });
    return after;
  });
}
