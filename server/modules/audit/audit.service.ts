import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditList, AuditListQuery } from '../../../contract/admin.ts';
/** Who did it: the signed-in admin. */
import type { Actor } from '../../auth/guard.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { countRows, listPage, newestFirst, type RowKey, tableRows } from '../../db/list-query.ts';
import { apiFields } from '../../db/rows.ts';
import { auditLog } from '../../db/schema.ts';

export type { Actor };

export type AuditEntityType =
  | 'publisher'
  | 'buyer'
  | 'offer'
  | 'application'
  | 'lead'
  | 'payout'
  | 'settings'
  | 'integration'
  | 'lead_import'
  | 'payout_run'
  | 'api_key'
  | 'webhook_endpoint'
  | 'campaign'
  | 'call_return';

/**
 * Records who changed what (before → after); call it inside the change's own transaction. The
 * actor is null for what a background job does (a reminder sent on schedule).
 */
export async function writeAudit(
  tx: DbOrTx,
  entry: {
    actor: Actor | null;
    action: string;
    entityType: AuditEntityType;
    entityId: string | null;
    before: unknown;
    after: unknown;
  },
): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: entry.actor?.id ?? null,
    actorEmail: entry.actor?.email ?? null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/** What an admin's write takes: the database, who does it and the validated body. */
export type AdminWrite<Input> = { db: Db; actor: Actor; input: Input };

/** What an admin's action on one record (revoke, delete, replay) takes: who, and its id. */
export type AdminAction = { db: Db; actor: Actor; id: string };

/** What an admin's change of one record takes: an `AdminAction` and the validated body. */
export type AdminEdit<Input> = AdminAction & { input: Input };

/** What an admin's import of a CSV file takes (the route kit's `csvUpload` reads it whole). */
export type AdminImport = { db: Db; actor: Actor; filename: string; data: Buffer };

/** One entity's before → after, as the audit entry keeps it. */
export type AuditChange = { before: unknown; after: unknown };

/**
 * `writeAudit` for one kind of record: `record(tx, actor, 'update', id, change)` writes the
 * action `<prefix>.update` (the prefix is the entity type unless told) about record `id`.
 */
export function auditTrail(entityType: AuditEntityType, prefix: string = entityType) {
  return (tx: DbOrTx, actor: Actor, what: string, entityId: string | null, change: AuditChange) =>
    writeAudit(tx, { actor, action: `${prefix}.${what}`, entityType, entityId, ...change });
}

type AuditRow = typeof auditLog.$inferSelect;

/** An audit row as the API answers it. */
export function toAuditEntry(r: AuditRow): AuditEntry {
  return apiFields(r);
}

/** The audit log, newest first, optionally for one entity or one actor. */
export async function listAudit(opts: { db: DbOrTx; query: AuditListQuery }): Promise<AuditList> {
  const { db, query } = opts;
  const where: SQL[] = [];
  if (query.entity_type) where.push(eq(auditLog.entityType, query.entity_type));
  if (query.entity_id) where.push(eq(auditLog.entityId, query.entity_id));
  if (query.actor_id) where.push(eq(auditLog.actorId, query.actor_id));
  const cond = where.length ? and(...where) : undefined;
  return listPage({
    query,
    keyset: newestFirst(auditLog),
    rows: tableRows(db, auditLog, cond),
    count: () => countRows(db, auditLog, cond, 'capped'),
    toItem: ({ sortKey: _, ...row }: AuditRow & RowKey) => toAuditEntry(row),
  });
}

/** The latest entries about one entity, for detail screens. */
export async function recentAuditFor(opts: {
  db: DbOrTx;
  entityType: AuditEntityType;
  entityId: string;
  limit?: number;
}): Promise<AuditEntry[]> {
  const rows = await opts.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, opts.entityType), eq(auditLog.entityId, opts.entityId)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(opts.limit ?? 50);
  return rows.map(toAuditEntry);
}
