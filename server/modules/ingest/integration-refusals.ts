/**
 * Refused postbacks (see integrations.service.ts): the list the admin reads, and the replay of
 * one through the ingestion engine once its integration's mapping is fixed.
 */
import { eq, getTableColumns, type SQL } from 'drizzle-orm';
import type {
  IngestAnswer,
  IngestRefusal,
  RefusalList,
  RefusalListQuery,
} from '../../../contract/integrations.ts';
import { countRows, type ListRead, listPage, newestFirst, pageOf } from '../../db/list-query.ts';
import { apiFields, oneOrNotFound } from '../../db/rows.ts';
import { ingestRefusals, integrations } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import type { AdminAction } from '../audit/index.ts';
import { ingestIntegrationById, ingestParams } from './ingest.service.ts';
import { auditIntegration } from './integration-config.ts';

type RefusalRow = typeof ingestRefusals.$inferSelect & { integrationName: string | null };

const toRefusal = ({ body, ...r }: RefusalRow): IngestRefusal => ({
  ...apiFields(r),
  body: body ?? null,
});

/** Refused postbacks of the last REFUSAL_RETENTION_DAYS days, newest first. */
export async function listRefusals(opts: ListRead<RefusalListQuery>): Promise<RefusalList> {
  const { db, query } = opts;
  const cond: SQL | undefined = query.integration_id
    ? eq(ingestRefusals.integrationId, query.integration_id)
    : undefined;
  return listPage({
    query,
    keyset: newestFirst(ingestRefusals),
    rows: (w) =>
      pageOf(
        db
          .select({
            ...getTableColumns(ingestRefusals),
            integrationName: integrations.name,
            sortKey: w.sortKey,
          })
          .from(ingestRefusals)
          .leftJoin(integrations, eq(integrations.id, ingestRefusals.integrationId))
          .$dynamic(),
        cond,
        w,
      ),
    // Refused calls can pile up when a tracker is misconfigured: the count stops at the cap.
    count: () => countRows(db, ingestRefusals, cond, 'capped'),
    toItem: ({ sortKey: _, ...row }) => toRefusal(row),
  });
}

/**
 * Runs a refused postback again with the integration's current mappings (after the admin fixed
 * one): the lead it makes is answered and the refusal marked replayed; a refusal again answers
 * its reason (and the stored reason is brought up to date).
 */
export async function replayRefusal(opts: AdminAction): Promise<IngestAnswer> {
  const { db } = opts;
  const refusal = await oneOrNotFound(
    db.select().from(ingestRefusals).where(eq(ingestRefusals.id, opts.id)),
    'Refused call',
  );
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
    await auditIntegration(tx, opts.actor, 'refusal.replay', integration.id, {
      before: { refusal_id: refusal.id, reason: refusal.reason },
      after: { lead_id: outcome.answer.id, status: outcome.answer.status },
    });
  });
  return outcome.answer;
}
