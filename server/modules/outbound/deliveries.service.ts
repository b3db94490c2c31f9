import { and, asc, eq, type SQL } from 'drizzle-orm';
import type {
  Delivery,
  DeliveryDetail,
  DeliveryList,
  DeliveryListQuery,
} from '../../../contract/outbound.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countRows, keyset, listPage, type RowKey, tableRows } from '../../db/list-query.ts';
import { apiFields, oneOrNotFound } from '../../db/rows.ts';
import { outboundAttempts, outboundDeliveries } from '../../db/schema.ts';
import { nudgeOutbound } from '../../events/emit.ts';

/** The delivery log (an endpoint's, a publisher's), one delivery's attempts, and Replay. */

type Row = typeof outboundDeliveries.$inferSelect;

/** Whose deliveries: an endpoint's (admin) or a publisher's postbacks. */
export type DeliveryOwner = { endpointId: string } | { publisherId: string };

const ownedBy = (o: DeliveryOwner): SQL =>
  'endpointId' in o
    ? eq(outboundDeliveries.endpointId, o.endpointId)
    : (and(
        eq(outboundDeliveries.publisherId, o.publisherId),
        eq(outboundDeliveries.kind, 'postback'),
      ) as SQL);

export function toDelivery(r: Row): Delivery {
  const {
    endpointId: _e,
    publisherId: _p,
    eventSeq: _s,
    dedupeKey: _d,
    orderingKey: _o,
    lockedUntil: _l,
    lockedBy: _b,
    retryFrom: _r,
    body,
    nextAt,
    ...rest
  } = r;
  return {
    ...apiFields(rest),
    request_body: body,
    next_at: r.state === 'pending' ? (nextAt?.toISOString() ?? null) : null,
  };
}

/** Newest first: the order of the (owner, created_at desc, id desc) indexes. */
const newestFirst = keyset(
  'created_at',
  outboundDeliveries.createdAt,
  'desc',
  outboundDeliveries.id,
);

export async function listDeliveries(opts: {
  db: DbOrTx;
  owner: DeliveryOwner;
  query: DeliveryListQuery;
}): Promise<DeliveryList> {
  const where = and(
    ownedBy(opts.owner),
    opts.query.state ? eq(outboundDeliveries.state, opts.query.state) : undefined,
  );
  return listPage({
    query: opts.query,
    keyset: newestFirst,
    rows: tableRows(opts.db, outboundDeliveries, where),
    count: () => countRows(opts.db, outboundDeliveries, where, 'capped'),
    toItem: ({ sortKey: _, ...row }: Row & RowKey) => toDelivery(row),
  });
}

const deliveryRow = (db: DbOrTx, id: string, owner?: DeliveryOwner) =>
  oneOrNotFound(
    db
      .select()
      .from(outboundDeliveries)
      .where(and(eq(outboundDeliveries.id, id), owner ? ownedBy(owner) : undefined)),
    'Delivery',
  );

/** One delivery with every attempt (request headers, answer, time). */
export async function getDelivery(opts: {
  db: DbOrTx;
  id: string;
  owner?: DeliveryOwner;
}): Promise<DeliveryDetail> {
  const row = await deliveryRow(opts.db, opts.id, opts.owner);
  const attempts = await opts.db
    .select()
    .from(outboundAttempts)
    .where(eq(outboundAttempts.deliveryId, row.id))
    .orderBy(asc(outboundAttempts.attempt));
  return {
    ...toDelivery(row),
    attempt_log: attempts.map(({ id: _i, deliveryId: _d, ...a }) => ({
      ...apiFields(a),
      request_headers: a.requestHeaders,
    })),
  };
}

/**
 * Sends a delivery again (same event id, so a receiver that keeps ids sees a repeat): back to
 * pending now, with a new day of retries.
 */
export async function replayDelivery(opts: {
  db: DbOrTx;
  id: string;
  owner?: DeliveryOwner;
}): Promise<DeliveryDetail> {
  await deliveryRow(opts.db, opts.id, opts.owner);
  const now = new Date();
  await opts.db
    .update(outboundDeliveries)
    .set({ state: 'pending', nextAt: now, retryFrom: now, lockedUntil: null, lockedBy: null })
    .where(eq(outboundDeliveries.id, opts.id));
  nudgeOutbound();
  return getDelivery(opts);
}
