import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  type AdminWaiting,
  type MarkedRead,
  type Notification,
  type NotificationList,
  type NotificationListQuery,
  UNREAD_COUNT_CAP,
  type UnreadCount,
} from '../../../contract/notifications.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ListRead } from '../../db/list-query.ts';
import { countAll, countRows, listPage, newestFirst, pageOf } from '../../db/list-query.ts';
import { apiFields, oneOrNotFound, type RecordRead } from '../../db/rows.ts';
import { notifications, statusCounts } from '../../db/schema.ts';

type Row = typeof notifications.$inferSelect;

function toNotification({ userId: _, ...row }: Row): Notification {
  return apiFields(row);
}

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
    // Newest first, then id: the order of notifications_user_created_id_idx.
    keyset: newestFirst(notifications),
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
/**
 * What waits for the admins now (issue 34): pending publishers, pending applications and open
 * disputes, for every admin's bell every 30 s and the dashboard. Kept as the rows change
 * (status_counts, drizzle/0048): three primary-key reads, not a count of every pending row
 * (10,000 pending applications took 24 ms and 10,074 buffers at 1M leads).
 */
export async function waitingForAdmins(db: DbOrTx): Promise<AdminWaiting> {
  const rows = await db
    .select({ entity: statusCounts.entity, status: statusCounts.status, n: statusCounts.n })
    .from(statusCounts)
    .where(
      sql`(${statusCounts.entity}, ${statusCounts.status}) in
        (('user:publisher', 'pending'), ('application', 'pending'), ('dispute', 'open'))`,
    );
  const count = (entity: string) => rows.find((r) => r.entity === entity)?.n ?? 0;
  return {
    pending_publishers: count('user:publisher'),
    pending_applications: count('application'),
    open_disputes: count('dispute'),
  };
}

/** The bell's count: the unread notifications, and for an admin what waits for them. */
export async function countUnread(opts: {
  db: DbOrTx;
  userId: string;
  role: string;
}): Promise<UnreadCount> {
  const [unread, waiting] = await Promise.all([
    unreadOf(opts),
    opts.role === 'admin' ? waitingForAdmins(opts.db) : undefined,
  ]);
  return waiting ? { ...unread, waiting } : unread;
}

async function unreadOf(opts: { db: DbOrTx; userId: string }) {
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
