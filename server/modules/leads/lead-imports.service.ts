import { randomBytes } from 'node:crypto';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import {
  type CheckLeadImport,
  IMPORT_MAX_ERRORS,
  type ImportMapping,
  type LeadImport,
  suggestMapping,
} from '../../../contract/lead-actions.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { apiFields, oneOrNotFound } from '../../db/rows.ts';
import { integrations, leadImports } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { AppError, conflict, invalidField } from '../../errors.ts';
import {
  type Actor,
  type AdminAction,
  type AdminEdit,
  type AdminImport,
  auditTrail,
} from '../audit/index.ts';
import { hashIntegrationKey } from '../ingest/index.ts';
import {
  columnName,
  columnsOf,
  decodeCsvFile,
  type ImportRow,
  type RowError,
  readCsv,
  readImportRow,
} from './lead-imports.policy.ts';
import { type NameMatch, type Resolved, resolveNames, writeBatch } from './lead-imports.writes.ts';

const auditImport = auditTrail('lead_import', 'lead');

/**
 * CSV import of leads (issue 13, item 8). An upload keeps the file on a job row; the check (a
 * dry run: every row read and checked, the integration's leads with the file's call ids looked
 * up and compared, nothing written) and the import (the same, writing, in one transaction that
 * commits) run in the background while the screen polls the row. Idempotent by (integration,
 * external call id): a row whose lead already has these values changes nothing.
 */

/** The integration imported calls belong to when the admin names none. */
export const IMPORT_INTEGRATION_NAME = 'CSV import';
/** Rows per statement: a few MB of parameters, thousands of rows per round trip. */
const BATCH = 5_000;

type ImportRecord = typeof leadImports.$inferSelect;

/** Rows read so far by the check or import running in this process, per import id. */
const progress = new Map<string, number>();
/** The jobs running in this process (awaited when the app closes). */
export const runningImports = new Set<Promise<void>>();

async function toLeadImport(db: DbOrTx, r: ImportRecord): Promise<LeadImport> {
  let integrationName: string | null = null;
  if (r.integrationId) {
    const [i] = await db
      .select({ name: integrations.name })
      .from(integrations)
      .where(eq(integrations.id, r.integrationId));
    integrationName = i?.name ?? null;
  }
  const done = r.status === 'checked' || r.status === 'imported';
  const { content: _file, createdBy: _by, updatedAt: _at, mapping, ...fields } = r;
  return {
    ...apiFields(fields),
    suggested_mapping: suggestMapping(r.header),
    mapping: (mapping as ImportMapping | null) ?? null,
    integration_name: integrationName,
    processed_rows: progress.get(r.id) ?? (done ? r.rowCount : 0),
  };
}

/** Every column but the file (it can be 50 MB). */
const { content: _content, ...importColumns } = getTableColumns(leadImports);

/** The import without its file (the file can be 50 MB). */
async function findImport(db: DbOrTx, id: string): Promise<ImportRecord> {
  const row = await oneOrNotFound(
    db.select(importColumns).from(leadImports).where(eq(leadImports.id, id)),
    'Import',
  );
  return { ...row, content: null };
}

/** Keeps an uploaded file as a new import: checked for encoding, CSV syntax and rows. */
export async function createImport(opts: AdminImport): Promise<LeadImport> {
  const text = decodeCsvFile(opts.data, opts.filename);
  const { header, rows } = readCsv(text);
  const data = rows.filter((r) => r.length > 0);
  const [row] = await opts.db
    .insert(leadImports)
    .values({
      filename: opts.filename.slice(0, 255),
      sizeBytes: opts.data.length,
      content: text,
      header,
      sample: data.slice(0, 5),
      rowCount: data.length,
      createdBy: opts.actor.id,
    })
    .returning(importColumns);
  return toLeadImport(opts.db, { ...row!, content: null });
}

export async function getImport(opts: { db: DbOrTx; id: string }): Promise<LeadImport> {
  return toLeadImport(opts.db, await findImport(opts.db, opts.id));
}

/** The "CSV import" integration, made on first use (revoked: it never takes postbacks). */
async function importIntegration(db: Db): Promise<string> {
  const find = () =>
    db
      .select({ id: integrations.id })
      .from(integrations)
      .where(sql`lower(${integrations.name}) = lower(${IMPORT_INTEGRATION_NAME})`);
  const [found] = await find();
  if (found) return found.id;
  const key = `ik_${randomBytes(32).toString('base64url')}`;
  await db
    .insert(integrations)
    .values({
      name: IMPORT_INTEGRATION_NAME,
      keyHash: hashIntegrationKey(key),
      keyPrefix: 'ik_import',
      revokedAt: new Date(),
    })
    .onConflictDoNothing();
  const [made] = await find();
  return made!.id;
}

/** Starts the check (dry run) of an upload with a mapping; the screen polls the import. */
export async function startCheck(opts: AdminEdit<CheckLeadImport>): Promise<LeadImport> {
  const { db, id, input } = opts;
  const current = await findImport(db, id);
  columnsOf(current.header, input.mapping);
  let integrationId: string;
  if (input.integration_id) {
    const [i] = await db
      .select({ id: integrations.id })
      .from(integrations)
      .where(eq(integrations.id, input.integration_id));
    if (!i) {
      throw invalidField('integration_id', 'The selected integration does not exist.');
    }
    integrationId = i.id;
  } else {
    integrationId = await importIntegration(db);
  }
  const [claimed] = await db
    .update(leadImports)
    .set({
      status: 'checking',
      mapping: input.mapping,
      integrationId,
      wouldCreate: null,
      wouldUpdate: null,
      unchanged: null,
      errorRows: null,
      errors: [],
      message: null,
      finishedAt: null,
      updatedAt: new Date(),
    })
    .where(
      and(eq(leadImports.id, id), inArray(leadImports.status, ['uploaded', 'checked', 'failed'])),
    )
    .returning(importColumns);
  if (!claimed) throw busy(current.status);
  launch(db, opts.actor, id, 'check');
  return toLeadImport(db, { ...claimed, content: null });
}

/** Starts the import of a checked file, in one transaction; the screen polls the import. */
export async function startImport(opts: AdminAction): Promise<LeadImport> {
  const { db, id } = opts;
  const current = await findImport(db, id);
  const [claimed] = await db
    .update(leadImports)
    .set({ status: 'importing', message: null, updatedAt: new Date() })
    .where(and(eq(leadImports.id, id), eq(leadImports.status, 'checked')))
    .returning(importColumns);
  if (!claimed) throw busy(current.status);
  launch(db, opts.actor, id, 'import');
  return toLeadImport(db, { ...claimed, content: null });
}

function busy(status: ImportRecord['status']): AppError {
  switch (status) {
    case 'checking':
      return conflict('The file is being checked; wait for the check to finish.');
    case 'importing':
      return conflict('The file is being imported; wait for the import to finish.');
    case 'imported':
      return conflict('This file has been imported already. Upload it again to import it again.');
    default:
      return conflict('Check the file with its column mapping before importing it.');
  }
}

/** Runs the check or import in the background; its end (or failure) is written to the row. */
function launch(db: Db, actor: Actor, id: string, mode: 'check' | 'import') {
  progress.set(id, 0);
  const job = runImport(db, actor, id, mode)
    .catch(async (err: unknown) => {
      const message =
        err instanceof AppError
          ? err.message
          : 'The import failed on the server; nothing was imported. Try again, or split the file.';
      if (!(err instanceof AppError)) console.error('lead import failed', err);
      await db
        .update(leadImports)
        .set({ status: 'failed', message, finishedAt: new Date(), updatedAt: new Date() })
        .where(eq(leadImports.id, id))
        .catch(() => {});
    })
    .finally(() => {
      progress.delete(id);
      runningImports.delete(job);
    });
  runningImports.add(job);
}

/**
 * Reads and checks the whole file; the check counts what the import would create and update
 * (writing nothing: a rolled-back write of 100k leads costs as much as the import and leaves
 * 100k dead index entries for the import to step over), the import writes it in one
 * transaction. Per batch: existing leads of the integration with these call ids are updated
 * where a value differs, then the others inserted.
 */
async function runImport(db: Db, actor: Actor, id: string, mode: 'check' | 'import') {
  const [job] = await db.select().from(leadImports).where(eq(leadImports.id, id));
  if (!job?.content || !job.mapping || !job.integrationId) {
    throw new AppError('conflict', 'The file of this import is gone; upload it again.');
  }
  const integrationId = job.integrationId;
  const { header, rows } = readCsv(job.content);
  const cols = columnsOf(header, job.mapping as ImportMapping);
  const errors: RowError[] = [];
  let errorRows = 0;
  /** A row with errors: counted once, each of its errors kept (up to IMPORT_MAX_ERRORS). */
  const fail = (rowErrors: RowError[]) => {
    errorRows++;
    for (const e of rowErrors) if (errors.length < IMPORT_MAX_ERRORS) errors.push(e);
  };
  const read: { row: ImportRow; errors: RowError[] }[] = [];
  const firstLine = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const values = rows[i]!;
    if (values.length === 0) continue;
    const line = i + 2;
    const one = readImportRow(values, line, cols, header);
    const { callId } = one.row;
    const seen = callId ? firstLine.get(callId) : undefined;
    if (seen !== undefined) {
      one.errors.unshift({
        line,
        column: columnName(header, cols, 'external_call_id'),
        message: `The call id "${callId}" is on line ${seen} already.`,
      });
    } else if (callId) firstLine.set(callId, line);
    read.push(one);
  }
  // Every row's publisher and offer are looked up, so a row lists all that is wrong with it.
  const names = await resolveNames(
    db,
    integrationId,
    read.map((r) => r.row),
  );
  const resolved: Resolved[] = [];
  for (const { row: r, errors: rowErrors } of read) {
    const publisher = r.publisher ? names.publisher(r.publisher) : undefined;
    const offer = r.offer ? names.offer(r.offer) : undefined;
    const misfit = (field: 'publisher' | 'offer', what: string, match: NameMatch, hint: string) => {
      if (!match || 'candidates' in match) {
        const value = field === 'publisher' ? r.publisher : r.offer;
        rowErrors.push({
          line: r.line,
          column: columnName(header, cols, field),
          message: match
            ? `"${value}" names ${match.candidates.length} ${what}s: ${match.candidates.join(', ')}. Use the id instead.`
            : `No ${what} matches "${value}" (${hint}).`,
        });
      }
    };
    if (r.publisher) {
      misfit(
        'publisher',
        'publisher',
        publisher,
        'our id, e-mail, name, or an external id attached on the integration',
      );
    }
    if (r.offer) {
      misfit(
        'offer',
        'offer',
        offer,
        'our id, title, or an external id attached on the integration',
      );
    }
    if (rowErrors.length) {
      fail(rowErrors);
      continue;
    }
    // The row itself takes the ids (no copy of 100k rows).
    const row = r as Resolved;
    row.publisherId = (publisher as { id: string }).id;
    row.offerId = (offer as { id: string }).id;
    resolved.push(row);
  }
  errors.sort((a, b) => a.line - b.line);
  const { timezone } = await getSettings(db);

  let created = 0;
  let updated = 0;
  const write = async (tx: DbOrTx, dryRun: boolean) => {
    for (let i = 0; i < resolved.length; i += BATCH) {
      const batch = resolved.slice(i, i + BATCH);
      const counts = await writeBatch(tx, integrationId, timezone, batch, names.payout, dryRun);
      created += counts.created;
      updated += counts.updated;
      progress.set(id, Math.min(rows.length, i + batch.length));
    }
  };
  const finish = {
    errorRows,
    errors,
    finishedAt: new Date(),
    updatedAt: new Date(),
  };
  /** The job's end: `finish`, the rows the write left unchanged, and what the mode adds. */
  const recordEnd = (tx: DbOrTx, end: Partial<typeof leadImports.$inferInsert>) =>
    tx
      .update(leadImports)
      .set({ ...finish, unchanged: resolved.length - created - updated, ...end })
      .where(eq(leadImports.id, id));
  if (mode === 'check') {
    await write(db, true);
    await recordEnd(db, { status: 'checked', wouldCreate: created, wouldUpdate: updated });
    return;
  }
  await db.transaction(async (tx) => {
    await write(tx, false);
    // The file is not needed any more; re-importing means uploading it again.
    await recordEnd(tx, { status: 'imported', created, updated, content: null });
    await auditImport(tx, actor, 'import', id, {
      before: null,
      after: {
        filename: job.filename,
        rows: job.rowCount,
        created,
        updated,
        unchanged: resolved.length - created - updated,
        skipped: errorRows,
        integration_id: integrationId,
      },
    });
  });
}
