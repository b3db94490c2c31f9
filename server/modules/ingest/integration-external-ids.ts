/**
 * The tracker ids attached on an integration (see integrations.service.ts): a tracker's
 * publisher id points at one of our publishers, its campaign id at one of our offers.
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type {
  AttachExternalId,
  ExternalIdList,
  ExternalIdListQuery,
  ExternalIdMapping,
} from '../../../contract/integrations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countRows, keyset, type ListRead, listPage, pageOf } from '../../db/list-query.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { integrationExternalIds, offers, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { AdminAction, AdminEdit } from '../audit/index.ts';
import { auditIntegration, getRow } from './integration-config.ts';

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
  kind: 'publisher' | 'offer' | 'campaign';
  externalId: string;
  publisherId: string | null;
  offerId: string | null;
  createdAt: Date;
  label: string;
};

/** What the audit log keeps of an attached id. */
const auditOf = (m: {
  kind: string;
  externalId: string;
  publisherId: string | null;
  offerId: string | null;
}) => ({ kind: m.kind, external_id: m.externalId, target_id: m.publisherId ?? m.offerId });

const toMapping = (r: MappingRow): ExternalIdMapping => ({
  id: r.id,
  kind: r.kind as ExternalIdMapping['kind'],
  external_id: r.externalId,
  target_id: (r.publisherId ?? r.offerId)!,
  target_label: r.label,
  created_at: r.createdAt.toISOString(),
});

/** The tracker ids attached on one integration, newest first. */
export async function listExternalIds(
  opts: ListRead<ExternalIdListQuery> & { id: string },
): Promise<ExternalIdList> {
  const { db, query } = opts;
  await getRow(db, opts.id);
  const cond = and(
    eq(integrationExternalIds.integrationId, opts.id),
    // A campaign's buyer ids are listed on the campaign (campaign-external-ids.ts).
    query.kind
      ? eq(integrationExternalIds.kind, query.kind)
      : inArray(integrationExternalIds.kind, ['publisher', 'offer']),
  );
  return listPage({
    query,
    keyset: keyset(
      'created_at',
      integrationExternalIds.createdAt,
      'desc',
      integrationExternalIds.id,
    ),
    rows: (w) => pageOf(selectMappings(db, w.sortKey).$dynamic(), cond, w),
    count: () => countRows(db, integrationExternalIds, cond, 'exact'),
    toItem: toMapping,
  });
}

type ExternalIdRow = typeof integrationExternalIds.$inferInsert;

/**
 * Points a tracker's id (its kind, on one integration) at `target`, one of our publishers, offers
 * or buyer campaigns: a new row, or the row already holding that id moved to it. Its row id.
 */
export async function pointExternalId(
  tx: DbOrTx,
  key: Pick<ExternalIdRow, 'integrationId' | 'kind' | 'externalId'>,
  target: Pick<ExternalIdRow, 'publisherId' | 'offerId' | 'campaignId'>,
): Promise<string> {
  const [row] = await tx
    .insert(integrationExternalIds)
    .values({ ...key, ...target })
    .onConflictDoUpdate({
      target: [
        integrationExternalIds.integrationId,
        integrationExternalIds.kind,
        integrationExternalIds.externalId,
      ],
      set: target,
    })
    .returning({ id: integrationExternalIds.id });
  return row!.id;
}

/**
 * Attaches a tracker's publisher id to one of our publishers (or its campaign id to an offer);
 * the same external id attached again moves to the new target.
 */
export async function attachExternalId(
  opts: AdminEdit<AttachExternalId>,
): Promise<ExternalIdMapping> {
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
    const id = await pointExternalId(
      tx,
      { integrationId: opts.id, kind: input.kind, externalId: input.external_id },
      {
        publisherId: isPublisher ? target.id : null,
        offerId: isPublisher ? null : target.id,
      },
    );
    const [mapping] = await selectMappings(tx).where(eq(integrationExternalIds.id, id));
    await auditIntegration(tx, opts.actor, 'external_id.attach', opts.id, {
      before: before ? auditOf(before) : null,
      after: auditOf(mapping!),
    });
    return toMapping(mapping!);
  });
}

/** Detaches a tracker id; its later postbacks get 422 until attached again. */
export async function detachExternalId(opts: AdminAction & { mappingId: string }): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const gone = await oneOrNotFound(
      tx
        .delete(integrationExternalIds)
        .where(
          and(
            eq(integrationExternalIds.id, opts.mappingId),
            eq(integrationExternalIds.integrationId, opts.id),
          ),
        )
        .returning(),
      'External id',
    );
    await auditIntegration(tx, opts.actor, 'external_id.detach', opts.id, {
      before: auditOf(gone),
      after: null,
    });
  });
}
