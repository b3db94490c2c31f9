import { and, eq } from 'drizzle-orm';
import {
  type AdminNotificationEvent,
  adminEventOf,
  adminNotificationEventLabels,
  type NotificationKind,
} from '../../contract/notifications.ts';
import type { DbOrTx } from '../db/client.ts';
import { notificationPreferences, notifications, users } from '../db/schema.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { getMailBrand, type MailContent } from '../mail/templates.ts';

/** What a notification says: a one-line title, a sentence or two, where it leads. */
export type NewNotification = {
  kind: NotificationKind;
  title: string;
  body: string;
  /** A path inside the portal (`appLinks`), or null when there is nothing to open. */
  link: string | null;
};

/** Titles are one line and bodies a few: user-given text (names, titles) is trimmed to fit. */
const oneLine = (s: string, max: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
const shape = (n: NewNotification) => ({
  kind: n.kind,
  title: oneLine(n.title, 160),
  body: n.body.trim().slice(0, 1000),
  link: n.link,
});

/**
 * One notification for one user. Pass the transaction of the change it reports, so both are
 * written or neither (the caller's e-mail, if any, is queued in the same transaction).
 */
export async function notifyUser(tx: DbOrTx, userId: string, n: NewNotification): Promise<void> {
  await tx.insert(notifications).values({ userId, ...shape(n) });
}

/**
 * New work for the admins (issue 16): a notification for every active admin and, to each admin
 * who has not turned this event's e-mail off, the e-mail, all in the caller's transaction.
 * `mail` is the e-mail's content (a dispute's existing mail, say); without it the e-mail says
 * what the notification says, with a button to `publicUrl` + link.
 */
export async function notifyAdmins(
  tx: DbOrTx,
  n: NewNotification & { publicUrl: string; mail?: MailContent },
): Promise<void> {
  const event = adminEventOf(n.kind);
  if (!event) throw new Error(`${n.kind} is not an admin notification`);
  // Admins are a handful: one row each, and one mail each to those who want it.
  const admins = await tx
    .select({ id: users.id, email: users.email, wantsMail: notificationPreferences.email })
    .from(users)
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, users.id), eq(notificationPreferences.event, event)),
    )
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active')));
  if (!admins.length) return;
  const row = shape(n);
  await tx.insert(notifications).values(admins.map((a) => ({ userId: a.id, ...row })));
  const mailTo = admins.filter((a) => a.wantsMail !== false);
  if (!mailTo.length) return;
  const content = n.mail ?? (await adminEventMail(tx, event, row, n.publicUrl));
  for (const a of mailTo) await enqueueMail(tx, { to: a.email, ...content });
}

/** The e-mail of an admin event: the notification's words, a button, and how to stop them. */
async function adminEventMail(
  tx: DbOrTx,
  event: AdminNotificationEvent,
  n: { title: string; body: string; link: string | null },
  publicUrl: string,
): Promise<MailContent> {
  const brand = await getMailBrand(tx);
  const { html, text } = renderMail(brand, {
    heading: n.title,
    paragraphs: [
      n.body,
      `You get this e-mail because you are an administrator of ${brand.companyName} and chose to be e-mailed when ${adminNotificationEventLabels[event]}. Change it under Settings → E-mail me when….`,
    ],
    ...(n.link ? { action: { label: 'Open in the portal', url: `${publicUrl}${n.link}` } } : {}),
  });
  return { subject: n.title, text, html };
}
