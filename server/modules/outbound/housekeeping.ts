import { sql } from 'drizzle-orm';
import { type DbOrTx, rowsOf } from '../../db/client.ts';

// The delivery queue's housekeeping, beside the engine (engine.ts): a lead's waiting postbacks
// freed by the 15 s sweep, and the log's 30-day retention.

/** The log keeps deliveries this long. */
export const KEEP_DELIVERIES_MS = 30 * 24 * 3_600_000;

/**
 * Makes due the waiting deliveries with nothing pending before them: the few a fan-out wrote
 * waiting while the record of the one before them, not yet committed, looked for followers
 * (or whose predecessor a retention sweep deleted). Reads only the waiting rows' index.
 */
export async function releaseWaiting(db: DbOrTx): Promise<number> {
  const rows = await rowsOf<{ n: number }>(
    db,
    sql`with go as (
          update outbound_deliveries w set next_at = now()
          where w.state = 'pending' and w.next_at is null
            and (w.locked_until is null or w.locked_until <= now())
            and not exists (select 1 from outbound_deliveries p
              where p.state = 'pending' and p.ordering_key = w.ordering_key
                and p.event_seq < w.event_seq)
          returning 1)
        select count(*)::int as n from go`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * The least UUIDv7 (drizzle/0017's uuid_v7) of the millisecond `ms`: no id made in or after
 * that millisecond compares less, every id made before it does (PostgreSQL compares uuids byte
 * by byte). Every delivery's id is a uuid_v7 (the table's default since drizzle/0031).
 */
export function uuidV7Floor(ms: number): string {
  const h = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7000-8000-000000000000`;
}

/**
 * Deletes deliveries (and their attempts) older than 30 days: the log's retention. By id, which
 * is made as the row is (drizzle/0053: no created_at index to keep on every write).
 */
export async function sweepOldDeliveries(db: DbOrTx, now = new Date()): Promise<number> {
  const before = uuidV7Floor(now.getTime() - KEEP_DELIVERIES_MS);
  const rows = await rowsOf<{ n: number }>(
    db,
    sql`with gone as (delete from outbound_deliveries where id < ${before}::uuid returning 1)
        select count(*)::int as n from gone`,
  );
  return rows[0]?.n ?? 0;
}
