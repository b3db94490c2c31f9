import { eq, like, sql } from 'drizzle-orm';
import type {
  BlockedCaller,
  BlockedCallerImport,
  BlockedCallerList,
  BlockedCallerListQuery,
  CreateBlockedCaller,
} from '../../../contract/fraud.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countAll, exactCount, listPage, newestFirst, pageOf } from '../../db/list-query.ts';
import { deleteOneOrNotFound } from '../../db/rows.ts';
import { blockedCallers, users } from '../../db/schema.ts';
import { AppError, conflict, invalidField } from '../../errors.ts';
import { decodeCsvFile, detectDelimiter, parseCsv } from '../../storage/csv-reader.ts';
import type { AdminAction, AdminImport, AdminWrite } from '../audit/index.ts';
import { phoneCountryOf, toE164 } from '../ingest/index.ts';
import { fraudSettingsChanged } from './rules.ts';

/**
 * The caller blocklist (issue 32 item 3): numbers (E.164, read in the network's phone country)
 * and prefixes (`+1900`), each with a reason and an optional expiry. The database applies it at
 * every lead write (`leads_fraud_guard`, drizzle/…_fraud.sql): a call from a blocked caller is
 * recorded, rejected with the entry's reason, and never judged payable afterwards.
 */

export const BLOCKLIST_IMPORT_MAX_ROWS = 5_000;
export const BLOCKLIST_IMPORT_MAX_BYTES = 1024 * 1024;

type Row = typeof blockedCallers.$inferSelect & { createdByEmail: string | null };

const toBlockedCaller = (r: Row): BlockedCaller => ({
  id: r.id,
  kind: r.kind,
  value: r.value,
  reason: r.reason,
  expires_at: r.expiresAt?.toISOString() ?? null,
  active: !r.expiresAt || r.expiresAt.getTime() > Date.now(),
  created_by_email: r.createdByEmail,
  created_at: r.createdAt.toISOString(),
});

const selectRows = (db: DbOrTx, sortKey = sql<string | null>`null`) =>
  db
    .select({
      id: blockedCallers.id,
      kind: blockedCallers.kind,
      value: blockedCallers.value,
      reason: blockedCallers.reason,
      expiresAt: blockedCallers.expiresAt,
      createdBy: blockedCallers.createdBy,
      createdAt: blockedCallers.createdAt,
      createdByEmail: users.email,
      sortKey,
    })
    .from(blockedCallers)
    .leftJoin(users, eq(users.id, blockedCallers.createdBy));

/** An entry's stored value, or the sentence saying why the input is not one. */
export function blockValue(
  input: { number?: string | undefined; prefix?: string | undefined },
  country: string,
): { kind: 'number' | 'prefix'; value: string } | { error: string; field: 'number' | 'prefix' } {
  if (input.prefix !== undefined) {
    const digits = input.prefix.replace(/[\s().-]/g, '');
    if (!/^\+?\d{1,15}$/.test(digits)) {
      return {
        field: 'prefix',
        error: `"${input.prefix}" is not a prefix: give the leading digits of the number with its country code (e.g. +1900).`,
      };
    }
    return { kind: 'prefix', value: digits.startsWith('+') ? digits : `+${digits}` };
  }
  const raw = (input.number ?? '').trim();
  const number = toE164(raw, country);
  if (!number) {
    return {
      field: 'number',
      error: `"${raw}" is not a valid phone number (read as a ${country} number when it has no country code).`,
    };
  }
  return { kind: 'number', value: number };
}

const alreadyBlocked = (value: string) =>
  conflict(`${value} is already on the blocklist: delete that entry first to change it.`);

/** The blocklist, newest first; `q` finds numbers and prefixes by their digits. */
export async function listBlockedCallers(opts: {
  db: DbOrTx;
  query: BlockedCallerListQuery;
}): Promise<BlockedCallerList> {
  const { db, query } = opts;
  const digits = query.q?.replace(/\D/g, '');
  const where = digits ? like(blockedCallers.value, `%${digits}%`) : undefined;
  return listPage({
    query,
    keyset: newestFirst(blockedCallers),
    rows: (w) => pageOf(selectRows(db, w.sortKey).$dynamic(), where, w),
    count: () => exactCount(db.select({ n: countAll() }).from(blockedCallers).where(where)),
    toItem: toBlockedCaller,
  });
}

/** Blocks one number or prefix; audited; answers 409 when it is blocked already. */
export async function createBlockedCaller(
  opts: AdminWrite<CreateBlockedCaller>,
): Promise<BlockedCaller> {
  const { db, input } = opts;
  const parsed = blockValue(input, await phoneCountryOf(db));
  if ('error' in parsed) throw invalidField(parsed.field, parsed.error);
  return db.transaction(async (tx) => {
    const [made] = await tx
      .insert(blockedCallers)
      .values({
        ...parsed,
        reason: input.reason,
        expiresAt: input.expires_at ? new Date(input.expires_at) : null,
        createdBy: opts.actor.id,
      })
      .onConflictDoNothing()
      .returning({ id: blockedCallers.id });
    if (!made) throw alreadyBlocked(parsed.value);
    const [row] = await selectRows(tx).where(eq(blockedCallers.id, made.id));
    const result = toBlockedCaller(row!);
    await fraudSettingsChanged(tx, opts.actor, 'blocked_caller.create', result.id, {
      before: null,
      after: {
        kind: result.kind,
        value: result.value,
        reason: result.reason,
        expires_at: result.expires_at,
      },
    });
    return result;
  });
}

/** Unblocks: calls from it are judged by the offer's rules again (earlier ones stay rejected). */
export async function deleteBlockedCaller(opts: AdminAction): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const gone = await deleteOneOrNotFound(tx, blockedCallers, opts.id, 'Blocked caller');
    await fraudSettingsChanged(tx, opts.actor, 'blocked_caller.delete', gone.id, {
      before: { kind: gone.kind, value: gone.value, reason: gone.reason },
      after: null,
    });
  });
}

/**
 * Blocks the rows of a CSV file (`number` or `prefix`, `reason`, optional `expires_at`; one of
 * number and prefix per row): all or none. A wrong line (or one blocked already) writes nothing
 * and is answered with its line number (the header is line 1).
 */
export async function importBlockedCallers(opts: AdminImport): Promise<BlockedCallerImport> {
  const text = decodeCsvFile(opts.data, opts.filename);
  const rows = parseCsv(text, detectDelimiter(text));
  const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name);
  if (col('reason') < 0 || (col('number') < 0 && col('prefix') < 0)) {
    throw new AppError(
      'validation_failed',
      'The first line must name the columns number (or prefix) and reason; expires_at is optional.',
    );
  }
  const lines = rows
    .map((cells, i) => ({ line: i + 2, cells }))
    .filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (!lines.length) throw new AppError('validation_failed', 'The file has a header but no rows.');
  if (lines.length > BLOCKLIST_IMPORT_MAX_ROWS) {
    throw new AppError(
      'payload_too_large',
      `The file has ${lines.length} rows; one import takes at most ${BLOCKLIST_IMPORT_MAX_ROWS}.`,
    );
  }
  const country = await phoneCountryOf(opts.db);
  const cell = (cells: string[], name: string) => {
    const i = col(name);
    const v = i < 0 ? '' : (cells[i] ?? '').trim();
    return v === '' ? undefined : v;
  };
  const errors: { line: number; message: string }[] = [];
  const values: (typeof blockedCallers.$inferInsert)[] = [];
  const seen = new Set<string>();
  for (const { line, cells } of lines) {
    const number = cell(cells, 'number');
    const prefix = cell(cells, 'prefix');
    const reason = cell(cells, 'reason');
    const expires = cell(cells, 'expires_at');
    if ((number === undefined) === (prefix === undefined)) {
      errors.push({ line, message: 'Give either a number or a prefix (one of them).' });
      continue;
    }
    if (!reason) {
      errors.push({ line, message: 'Say why (a reason is required).' });
      continue;
    }
    const expiresAt = expires ? new Date(expires) : null;
    if (expiresAt && Number.isNaN(expiresAt.getTime())) {
      errors.push({ line, message: `"${expires}" is not a date (use 2026-12-31 or an ISO time).` });
      continue;
    }
    const parsed = blockValue({ number, prefix }, country);
    if ('error' in parsed) {
      errors.push({ line, message: parsed.error });
      continue;
    }
    if (seen.has(parsed.value)) {
      errors.push({ line, message: `${parsed.value} is on an earlier line of the file.` });
      continue;
    }
    seen.add(parsed.value);
    values.push({ ...parsed, reason, expiresAt, createdBy: opts.actor.id });
  }
  if (errors.length) return { created: 0, errors };
  return opts.db.transaction(async (tx) => {
    const made = await tx
      .insert(blockedCallers)
      .values(values)
      .onConflictDoNothing()
      .returning({ value: blockedCallers.value });
    if (made.length < values.length) {
      const got = new Set(made.map((m) => m.value));
      const taken = values.filter((v) => !got.has(v.value)).map((v) => v.value);
      throw alreadyBlocked(taken.slice(0, 5).join(', '));
    }
    await fraudSettingsChanged(tx, opts.actor, 'blocked_caller.import', null, {
      before: null,
      after: { filename: opts.filename, created: made.length },
    });
    return { created: made.length, errors: [] };
  });
}

/** The entry that blocks `caller` now (number or longest prefix), or null. */
export async function blockFor(db: DbOrTx, caller: string | null): Promise<BlockedCaller | null> {
  if (!caller) return null;
  const [row] = await selectRows(db)
    .where(
      sql`${blockedCallers.value} in (select left(${caller}, n) from generate_series(2, length(${caller})) n)
        and (${blockedCallers.kind} = 'prefix' or ${blockedCallers.value} = ${caller})
        and (${blockedCallers.expiresAt} is null or ${blockedCallers.expiresAt} > now())`,
    )
    .orderBy(sql`length(${blockedCallers.value}) desc`)
    .limit(1);
  return row ? toBlockedCaller(row) : null;
}
