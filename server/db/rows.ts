/**
 * Small pieces every service repeats around one row: read it or answer 404, turn a unique
 * violation into the caller's own 409, and copy a row's columns into the API's snake_case shape.
 */
import { eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { notFound } from '../errors.ts';
import type { DbOrTx } from './client.ts';
import { isUniqueViolation } from './pg-errors.ts';

/** What a read of one record by its id takes (a detail screen, its history). */
export type RecordRead = { db: DbOrTx; id: string };

/** The one row a query answers (a select by id, an `update … returning`); none is a 404. */
export async function oneOrNotFound<T>(rows: PromiseLike<T[]>, what: string): Promise<T> {
  const [row] = await rows;
  if (!row) throw notFound(what);
  return row;
}

/** Deletes the row with this id and answers it as it was; none is a 404. */
export function deleteOneOrNotFound<T extends PgTable & { id: AnyPgColumn }>(
  db: DbOrTx,
  table: T,
  id: string,
  what: string,
): Promise<T['$inferSelect']> {
  const deleted = db.delete(table).where(eq(table.id, id)).returning();
  return oneOrNotFound(deleted as PromiseLike<T['$inferSelect'][]>, what);
}

/**
 * The write's answer; a unique violation (23505) becomes `onDuplicate()`'s error when it gives
 * one (e.g. "a … named X already exists"; it may read the row that won first), any other
 * error is thrown as it is.
 */
export async function onUniqueViolation<T>(
  write: () => Promise<T>,
  onDuplicate: () => Error | undefined | Promise<Error | undefined>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const mapped = isUniqueViolation(err) ? await onDuplicate() : undefined;
    throw mapped ?? err;
  }
}

/** Rows grouped by `key` (an offer id, a method…): each group's values in the rows' order. */
export function groupRows<R, K, V>(
  rows: Iterable<R>,
  key: (row: R) => K,
  value: (row: R) => V,
): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(value(row));
    else groups.set(k, [value(row)]);
  }
  return groups;
}

/** `buyerId` → `buyer_id`: a column's property name as the API spells it. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** A timestamp as the API writes it (ISO 8601 text); anything else as it is. */
type ApiValue<V> = V extends Date ? string : V;

/** A row's fields with snake_case names and timestamps as ISO text. */
export type ApiFields<R> = {
  [K in keyof R & string as SnakeCase<K>]: ApiValue<R[K]>;
};

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The row's fields as the API's JSON spells them: `createdAt: Date` → `created_at: string`
 * (ISO), `readAt: Date | null` → `read_at: string | null`, the rest copied. Take out the fields
 * the API does not show (or shows otherwise, e.g. money) before, by destructuring.
 */
export function apiFields<R extends object>(row: R): ApiFields<R> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [snakeCase(k), v instanceof Date ? v.toISOString() : v]),
  ) as ApiFields<R>;
}
