import { eq, sql } from 'drizzle-orm';
import {
  type AdminNotificationEvent,
  adminNotificationEvents,
  type NotificationPreferences,
  type UpdateNotificationPreferences,
} from '../../../contract/notifications.ts';
import type { DbOrTx } from '../../db/client.ts';
import { notificationPreferences } from '../../db/schema.ts';

/** The admin's e-mail choices: every event, on unless the admin turned it off. */
export async function getNotificationPreferences(opts: {
  db: DbOrTx;
  userId: string;
}): Promise<NotificationPreferences> {
  const rows = await opts.db
    .select({ event: notificationPreferences.event, email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, opts.userId));
  const set = new Map(rows.map((r) => [r.event, r.email]));
  const email = Object.fromEntries(
    adminNotificationEvents.map((e) => [e, set.get(e) ?? true]),
  ) as Record<AdminNotificationEvent, boolean>;
  return { email };
}

/** Saves the choices given (one upsert); the others stay as they were. Answers all of them. */
export async function updateNotificationPreferences(opts: {
  db: DbOrTx;
  userId: string;
  input: UpdateNotificationPreferences;
}): Promise<NotificationPreferences> {
  const rows = adminNotificationEvents.flatMap((event) => {
    const email = opts.input.email[event];
    return typeof email === 'boolean' ? [{ userId: opts.userId, event, email }] : [];
  });
  if (rows.length) {
    await opts.db
      .insert(notificationPreferences)
      .values(rows)
      .onConflictDoUpdate({
        target: [notificationPreferences.userId, notificationPreferences.event],
        set: { email: sql`excluded.email`, updatedAt: sql`now()` },
      });
  }
  return getNotificationPreferences(opts);
}
