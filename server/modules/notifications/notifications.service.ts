import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  type MarkedRead,
  type Notification,
  type NotificationList,
  type NotificationListQuery,
  UNREAD_COUNT_CAP,
  type UnreadCount,
} from '../../../contract/notifications.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ListRead } from '../../db/list-query.ts';
import { countAll, countRows, keyset, listPage, pageOf } from '../../db/list-query.ts';
import { apiFields, oneOrNotFound, type RecordRead } from '../../db/rows.ts';
import { notifications } from '../../db/schema.ts';

type Row = typeof notifications.$inferSelect;

function toNotification({ userId: _, ...row }: Row): Notification {
  return apiFields(row);
}

/** Newest first, then id: the order of `notifications_user_created_id_idx`. */
const newestFirst = keyset('created_at', notifications.createdAt, 'desc', notifications.id);

/** The signed-in user's notifications, newest first (keyset pages); only theirs, ever. */
export async function listNotifications(
  opts: ListRead<NotificationListQuery> & { userId: string },
): Promise<NotificationList> {
  const { db, userId, query } = opts;
  const where = and(
    eq(notifications.userId, userId),
    query.unread ? isNull(notifications.readAt) : undefined,
  );
  return listPage({
    query,
    keyset: newestFirst,
    rows: (w) =>
      pageOf(
        db
          .select({ row: notifications, sortKey: w.sortKey, id: notifications.id })
          .from(notifications)
          .$dynamic(),
        where,
        w,
      ),
    // A user who never reads them keeps a growing list: count at most TOTAL_CAP.
    count: () => countRows(db, notifications, where, 'capped'),
    toItem: (r) => toNotification(r.row),
  });
}

/**
 * The bell's badge, polled every 30 s by every open portal tab: the unread rows of one user
 * from the partial index, counted only up to UNREAD_COUNT_CAP.
 */
export async function countUnread(opts: { db: DbOrTx; userId: string }): Promise<UnreadCount> {
  const unread = opts.db
    .select({ one: sql`1` })
    .from(notifications)
    .where(and(eq(notifications.userId, opts.userId), isNull(notifications.readAt)))
    .limit(UNREAD_COUNT_CAP)
    .as('unread');
  const [row] = await opts.db.select({ n: countAll() }).from(unread);
  const n = row?.n ?? 0;
  return { unread: n, exact: n < UNREAD_COUNT_CAP };
}

/** Marks one of the user's notifications read (again is fine); anyone else's is not found. */
export async function markRead(opts: RecordRead & { userId: string }): Promise<Notification> {
  const row = await oneOrNotFound(
    opts.db
      .update(notifications)
      .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
      .where(and(eq(notifications.id, opts.id), eq(notifications.userId, opts.userId)))
      .returning(),
    'Notification',
  );
  return toNotification(row);
}

/** "Mark all read": every unread notification of the user, at once. */
export async function markAllRead(opts: { db: DbOrTx; userId: string }): Promise<MarkedRead> {
  const rows = await opts.db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, opts.userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return { marked: rows.length };
}
