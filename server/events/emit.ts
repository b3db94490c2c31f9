import { type SQL, sql } from 'drizzle-orm';
import type { WebhookEventType } from '../../contract/outbound.ts';
import type { DbOrTx } from '../db/client.ts';

/**
 * The outbox of outbound events (issue 30). Infrastructure like `notify/`: auth's sign-up and
 * every module write their events here, in the transaction of the change, and
 * server/modules/outbound turns them into deliveries after the commit. Lead events are written
 * by a trigger on `leads` (drizzle/0030), not through this function.
 */

const listeners = new Set<() => void>();

/** Called after each emit (the delivery job wakes and looks for the new event). */
export function onEventEmitted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Writes one event with its JSON `data`, in `tx`, as one statement, and only when an enabled
 * webhook endpoint subscribes to `type` (no one listening, nothing written).
 */
export async function emitEvent(
  tx: DbOrTx,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  await tx.execute(sql`
    insert into outbound_events (type, data)
    select ${type}, ${JSON.stringify(data)}::jsonb
    where exists (select 1 from webhook_endpoints where enabled and ${type} = any(events))`);
  nudgeOutbound();
}

/**
 * Writes one event of `type` per row of `rows` (a query answering `data` jsonb and `n`, the
 * order), in one statement, only when an enabled webhook endpoint subscribes to `type`: the
 * query is not even run otherwise (a one-time filter). For events whose data is in rows just
 * written (a batch of fraud flags), read once, by the database, instead of twice.
 */
export async function emitEventsOf(tx: DbOrTx, type: WebhookEventType, rows: SQL): Promise<void> {
  await tx.execute(sql`
    insert into outbound_events (type, data)
    select ${type}, r.data from (${rows}) r
    where exists (select 1 from webhook_endpoints where enabled and ${type} = any(events))
    order by r.n`);
  nudgeOutbound();
}

/** Wakes the delivery job of this process (after an emit, a replay). */
export function nudgeOutbound(): void {
  for (const l of listeners) l();
}
