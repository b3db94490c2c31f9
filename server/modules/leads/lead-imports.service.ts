import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { minutesOf } from '../../../contract/integrations.ts';
import {
  type CheckLeadImport,
  IMPORT_MAX_ERRORS,
  type ImportMapping,
  type LeadImport,
  suggestMapping,
} from '../../../contract/lead-actions.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { integrations, leadImports } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { type Actor, writeAudit } from '../audit/index.ts';
import { hashIntegrationKey } from '../ingest/index.ts';
import {
  columnsOf,
  decodeCsvFile,
  type ImportRow,
  type RowError,
  readCsv,
  readImportRow,
} from './lead-imports.policy.ts';

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
/** Status reason of a lead whose status came from a file. */
const IMPORTED_REASON = 'Imported from a CSV file.';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown): Row[] => (r as { rows: Row[] }).rows;

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
  return {
    id: r.id,
    filename: r.filename,
    size_bytes: r.sizeBytes,
    header: r.header,
    sample: r.sample,
    row_count: r.rowCount,
    suggested_mapping: suggestMapping(r.header),
    mapping: (r.mapping as ImportMapping | null) ?? null,
    integration_id: r.integrationId,
    integration_name: integrationName,
    status: r.status,
    processed_rows: progress.get(r.id) ?? (done ? r.rowCount : 0),
    would_create: r.wouldCreate,
    would_update: r.wouldUpdate,
    unchanged: r.unchanged,
    error_rows: r.errorRows,
    errors: r.errors,
    created: r.created,
    updated: r.updated,
    message: r.message,
    created_at: r.createdAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
  };
}

const importColumns = {
  id: leadImports.id,
  filename: leadImports.filename,
  sizeBytes: leadImports.sizeBytes,
  header: leadImports.header,
  sample: leadImports.sample,
  rowCount: leadImports.rowCount,
  mapping: leadImports.mapping,
  integrationId: leadImports.integrationId,
  status: leadImports.status,
  wouldCreate: leadImports.wouldCreate,
  wouldUpdate: leadImports.wouldUpdate,
  unchanged: leadImports.unchanged,
  errorRows: leadImports.errorRows,
  errors: leadImports.errors,
  created: leadImports.created,
  updated: leadImports.updated,
  message: leadImports.message,
  createdBy: leadImports.createdBy,
  createdAt: leadImports.createdAt,
  updatedAt: leadImports.updatedAt,
  finishedAt: leadImports.finishedAt,
};

/** The import without its file (the file can be 50 MB). */
async function findImport(db: DbOrTx, id: string): Promise<ImportRecord> {
  const [row] = await db.select(importColumns).from(leadImports).where(eq(leadImports.id, id));
  if (!row) throw notFound('Import');
  return { ...row, content: null };
}

/** Keeps an uploaded file as a new import: checked for encoding, CSV syntax and rows. */
export async function createImport(opts: {
  db: Db;
  actor: Actor;
  filename: string;
  data: Buffer;
}): Promise<LeadImport> {
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
export async function startCheck(opts: {
  db: Db;
  actor: Actor;
  id: string;
  input: CheckLeadImport;
}): Promise<LeadImport> {
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
      throw new AppError('validation_failed', 'The selected integration does not exist.', {
        details: { integration_id: ['The selected integration does not exist.'] },
      });
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
export async function startImport(opts: { db: Db; actor: Actor; id: string }): Promise<LeadImport> {
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

const needsEscape = /[\\"]/;

/** Array literal of a text[] (or castable) parameter: one parameter for thousands of values. */
function pgArray(values: readonly (string | number | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'number') out += String(v);
    else if (needsEscape.test(v)) out += `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    else out += `"${v}"`;
  }
  return `${out}}`;
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Our publisher and offer of each distinct value of the file: a uuid is our id, an address with
 * @ a publisher's e-mail, anything else an external id attached on the integration.
 */
async function resolveNames(db: DbOrTx, integrationId: string, rows: ImportRow[]) {
  const pubValues = [...new Set(rows.map((r) => r.publisher))];
  const offerValues = [...new Set(rows.map((r) => r.offer))];
  const publishers = new Map<string, string>();
  const offerIds = new Map<string, string>();
  const payouts = new Map<string, string>();
  const ids = pubValues.filter((v) => uuidShape.test(v)).map((v) => v.toLowerCase());
  const emails = pubValues.filter((v) => v.includes('@')).map((v) => v.toLowerCase());
  const pubExternal = pubValues.filter((v) => !uuidShape.test(v) && !v.includes('@'));
  for (const r of rowsOf(
    await db.execute(sql`
      select id::text as id, lower(email) as email from users
      where role = 'publisher'
        and (id = any(${pgArray(ids)}::uuid[]) or lower(email) = any(${pgArray(emails)}::text[]))`),
  )) {
    publishers.set(String(r.id), String(r.id));
    publishers.set(String(r.email), String(r.id));
  }
  const offerUuids = offerValues.filter((v) => uuidShape.test(v)).map((v) => v.toLowerCase());
  const external = rowsOf(
    await db.execute(sql`
      select kind, external_id, publisher_id::text as publisher_id, offer_id::text as offer_id
      from integration_external_ids
      where integration_id = ${integrationId}
        and ((kind = 'publisher' and external_id = any(${pgArray(pubExternal)}::text[]))
          or (kind = 'offer' and external_id = any(${pgArray(offerValues)}::text[])))`),
  );
  for (const r of external) {
    if (r.kind === 'publisher') publishers.set(`ext:${r.external_id}`, String(r.publisher_id));
    else offerIds.set(`ext:${r.external_id}`, String(r.offer_id));
  }
  const wanted = [...new Set([...offerUuids, ...[...offerIds.values()]])];
  for (const r of rowsOf(
    await db.execute(
      sql`select id::text as id, payout::text as payout from offers where id = any(${pgArray(wanted)}::uuid[])`,
    ),
  )) {
    payouts.set(String(r.id), String(r.payout));
    offerIds.set(String(r.id), String(r.id));
  }
  return {
    publisher: (v: string) =>
      uuidShape.test(v)
        ? publishers.get(v.toLowerCase())
        : v.includes('@')
          ? publishers.get(v.toLowerCase())
          : publishers.get(`ext:${v}`),
    // An external id attached on the integration wins over an id of ours (as for postbacks).
    offer: (v: string) =>
      offerIds.get(`ext:${v}`) ?? (uuidShape.test(v) ? offerIds.get(v.toLowerCase()) : undefined),
    payout: (offerId: string) => payouts.get(offerId) ?? '0.00',
  };
}

type Resolved = ImportRow & { publisherId: string; offerId: string };

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
  const fail = (e: RowError) => {
    errorRows++;
    if (errors.length < IMPORT_MAX_ERRORS) errors.push(e);
  };
  const good: ImportRow[] = [];
  const firstLine = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const values = rows[i]!;
    if (values.length === 0) continue;
    const line = i + 2;
    const read = readImportRow(values, line, cols, header);
    if (!read.ok) {
      fail(read.error);
      continue;
    }
    const seen = firstLine.get(read.row.callId);
    if (seen !== undefined) {
      fail({
        line,
        column: header[cols.external_call_id!] ?? null,
        message: `The call id "${read.row.callId}" is on line ${seen} already.`,
      });
      continue;
    }
    firstLine.set(read.row.callId, line);
    good.push(read.row);
  }
  const names = await resolveNames(db, integrationId, good);
  const resolved: Resolved[] = [];
  for (const r of good) {
    const publisherId = names.publisher(r.publisher);
    if (!publisherId) {
      fail({
        line: r.line,
        column: header[cols.publisher!] ?? null,
        message: `No publisher matches "${r.publisher}" (our id, e-mail, or an external id attached on the integration).`,
      });
      continue;
    }
    const offerId = names.offer(r.offer);
    if (!offerId) {
      fail({
        line: r.line,
        column: header[cols.offer!] ?? null,
        message: `No offer matches "${r.offer}" (our id, or an external id attached on the integration).`,
      });
      continue;
    }
    // The row itself takes the ids (no copy of 100k rows).
    const row = r as Resolved;
    row.publisherId = publisherId;
    row.offerId = offerId;
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
  if (mode === 'check') {
    await write(db, true);
    await db
      .update(leadImports)
      .set({
        ...finish,
        status: 'checked',
        wouldCreate: created,
        wouldUpdate: updated,
        unchanged: resolved.length - created - updated,
      })
      .where(eq(leadImports.id, id));
    return;
  }
  await db.transaction(async (tx) => {
    await write(tx, false);
    await tx
      .update(leadImports)
      .set({
        ...finish,
        status: 'imported',
        created,
        updated,
        unchanged: resolved.length - created - updated,
        // The file is not needed any more; re-importing means uploading it again.
        content: null,
      })
      .where(eq(leadImports.id, id));
    await writeAudit(tx, {
      actor,
      action: 'lead.import',
      entityType: 'lead_import',
      entityId: id,
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

/**
 * One batch: find which call ids the integration has already (an index probe of
 * leads_integration_call_key each), UPDATE those leads where a value differs (empty cells keep the
 * lead's value; a status set by hand stays), then INSERT the others (a call id that another
 * writer created in between is skipped by ON CONFLICT). A batch of new calls runs no UPDATE.
 * The check (dryRun) counts the same without writing.
 */
async function writeBatch(
  tx: DbOrTx,
  integrationId: string,
  timezone: string,
  batch: Resolved[],
  offerPayout: (offerId: string) => string,
  dryRun: boolean,
): Promise<{ created: number; updated: number }> {
  // One index probe per call id (the LIMIT keeps the subquery a nested loop): the statistics
  // often say the integration has no leads (they are all new), and the planner would then scan
  // all of them per batch, filtering by call id.
  const leadIds = new Map<string, string>();
  for (const r of rowsOf(
    await tx.execute(sql`
      select c.call_id, l.id::text as id
      from unnest(${pgArray(batch.map((r) => r.callId))}::text[]) as c(call_id)
      cross join lateral (
        select id from leads
        where integration_id = ${integrationId} and external_call_id = c.call_id
        limit 1
      ) l`),
  )) {
    leadIds.set(String(r.call_id), String(r.id));
  }
  const known = leadIds.size === 0 ? [] : batch.filter((r) => leadIds.has(r.callId));
  const fresh = leadIds.size === 0 ? batch : batch.filter((r) => !leadIds.has(r.callId));
  // The rows as a table; new calls get an empty id array (unnest pads it with nulls).
  const source = (rows: Resolved[], withId: boolean) => {
    const col = <T extends string | number | null>(f: (r: Resolved) => T) => pgArray(rows.map(f));
    return sql`
    unnest(
      ${withId ? col((r) => leadIds.get(r.callId)!) : pgArray([])}::uuid[],
      ${col((r) => r.callId)}::text[], ${col((r) => r.publisherId)}::uuid[],
      ${col((r) => r.offerId)}::uuid[], ${col((r) => r.timestamp)}::text[],
      ${col((r) => r.seconds)}::int[], ${col((r) => (r.seconds === null ? null : minutesOf(r.seconds)))}::int[],
      ${col((r) => r.payout)}::numeric[], ${col((r) => offerPayout(r.offerId))}::numeric[],
      ${col((r) => r.revenue)}::numeric[], ${col((r) => r.status)}::text[],
      ${col((r) => r.caller)}::text[], ${col((r) => r.trackingNumber)}::text[],
      ${col((r) => r.state)}::text[], ${col((r) => r.zip)}::text[],
      ${col((r) => r.recordingUrl)}::text[]
    ) as s(id, call_id, publisher_id, offer_id, ts, seconds, minutes, payout, offer_payout, revenue,
           status, caller, tracking_number, state, zip, recording_url)`;
  };
  // A time with Z is an instant; one without is read in the network's time zone.
  const ts = sql`(case when s.ts like '%Z' then s.ts::timestamptz else s.ts::timestamp at time zone ${timezone} end)`;
  let updated = 0;
  if (known.length > 0) {
    const next = {
      publisher_id: sql`s.publisher_id`,
      offer_id: sql`s.offer_id`,
      payout: sql`coalesce(s.payout, l.payout)`,
      status: sql`case when l.status_overridden_at is null then coalesce(s.status, l.status) else l.status end`,
      duration_seconds: sql`coalesce(s.seconds, l.duration_seconds)`,
      call_duration: sql`coalesce(s.minutes, l.call_duration)`,
      timestamp: ts,
      caller: sql`coalesce(s.caller, l.caller)`,
      tracking_number: sql`coalesce(s.tracking_number, l.tracking_number)`,
      revenue: sql`coalesce(s.revenue, l.revenue)`,
      recording_url: sql`coalesce(s.recording_url, l.recording_url)`,
      state: sql`coalesce(s.state, l.state)`,
      zip: sql`coalesce(s.zip, l.zip)`,
    };
    const names = Object.keys(next);
    const quoted = (c: string) => (c === 'timestamp' ? '"timestamp"' : c);
    const values = names.map((c) => next[c as keyof typeof next]);
    const differs = sql`(${sql.join(
      names.map((c) => sql.raw(`l.${quoted(c)}`)),
      sql`, `,
    )}) is distinct from (${sql.join(values, sql`, `)})`;
    // By id alone (found above): a condition on integration_id lets the planner scan all the
    // integration's leads for every batch, as it guesses few from the statistics.
    const match = sql`l.id = s.id`;
    const [upd] = rowsOf(
      await tx.execute(
        dryRun
          ? sql`select count(*)::int as n from leads l, ${source(known, true)} where ${match} and ${differs}`
          : sql`
        with changed as (
          update leads l set
            ${sql.join(
              names.map((c, i) => sql`${sql.raw(quoted(c))} = ${values[i]}`),
              sql`, `,
            )},
            status_reason = case
              when l.status_overridden_at is null and s.status is not null and s.status <> l.status
              then ${IMPORTED_REASON} else l.status_reason end
          from ${source(known, true)}
          where ${match} and ${differs}
          returning 1
        )
        select count(*)::int as n from changed`,
      ),
    );
    updated = Number(upd?.n ?? 0);
  }
  // The check writes nothing: every new call id would be created (the file's call ids are
  // distinct, and its values were checked row by row before).
  if (fresh.length === 0 || dryRun) return { created: fresh.length, updated };
  const [ins] = rowsOf(
    await tx.execute(sql`
      with made as (
        insert into leads (
          publisher_id, offer_id, payout, status, status_reason, call_duration, duration_seconds,
          "timestamp", integration_id, external_call_id, caller, tracking_number, revenue,
          recording_url, state, zip
        )
        select s.publisher_id, s.offer_id, coalesce(s.payout, s.offer_payout),
          coalesce(s.status, 'pending'), case when s.status is null then null else ${IMPORTED_REASON} end,
          coalesce(s.minutes, 0), s.seconds, ${ts}, ${integrationId}::uuid, s.call_id, s.caller,
          s.tracking_number, s.revenue, s.recording_url, s.state, s.zip
        from ${source(fresh, false)}
        on conflict (integration_id, external_call_id) do nothing
        returning 1
      )
      select count(*)::int as n from made`),
  );
  return { created: Number(ins?.n ?? 0), updated };
}
