import { z } from 'zod';
import { flagParam, pageOf, pageQuery } from './list.ts';

/**
 * In-app notifications and the admins' e-mail choices (issue 16, item 1). Every signed-in user
 * has a bell; admins hear of new work, publishers and buyers of what already e-mails them.
 */

/**
 * The events that tell the admins about new work. Each admin chooses which of them also
 * e-mail them (`notification_preferences`); every one is on until the admin turns it off.
 */
export const adminNotificationEvents = [
  'publisher_signed_up',
  'application_submitted',
  'dispute_opened',
  'campaign_created',
  'fraud_velocity',
] as const;
export const AdminNotificationEvent = z.enum(adminNotificationEvents);
export type AdminNotificationEvent = z.infer<typeof AdminNotificationEvent>;

/** The sentence each e-mail choice shows ("E-mail me when…"). */
export const adminNotificationEventLabels: Record<AdminNotificationEvent, string> = {
  publisher_signed_up: 'a publisher signs up',
  application_submitted: 'an application or compliance submission arrives (or is resubmitted)',
  dispute_opened: 'a publisher opens a lead dispute or replies on one',
  campaign_created: 'a buyer creates a campaign',
  fraud_velocity: "a publisher's hourly calls jump above their usual volume (fraud)",
};

/**
 * Every kind of notification. Admins': the events above (a dispute reply is its own kind and
 * follows the dispute choice). Publishers' and buyers': the changes that already e-mail them.
 */
export const notificationKinds = [
  ...adminNotificationEvents,
  'dispute_reply',
  'publisher_approved',
  'publisher_blocked',
  'application_approved',
  'application_rejected',
  'dispute_answered',
  'dispute_accepted',
  'dispute_declined',
  'mfa_reset',
  'email_changed',
  'campaign_approved',
  'campaign_rejected',
  'campaign_paused',
  'campaign_budget',
  'call_return_decided',
] as const;
export const NotificationKind = z.enum(notificationKinds);
export type NotificationKind = z.infer<typeof NotificationKind>;

/** The admin e-mail choice an admin notification kind follows (null: not an admin event). */
export function adminEventOf(kind: NotificationKind): AdminNotificationEvent | null {
  if (kind === 'dispute_reply') return 'dispute_opened';
  return (adminNotificationEvents as readonly string[]).includes(kind)
    ? (kind as AdminNotificationEvent)
    : null;
}

/** One notification as its recipient reads it. */
export const Notification = z.object({
  id: z.uuid(),
  kind: NotificationKind,
  title: z.string(),
  body: z.string(),
  /** A path inside the portal to open (e.g. `/admin/publishers/…`), or null. */
  link: z.string().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;

/** The bell's list: newest first, 10 a page by default, only unread with `unread=true`. */
export const NotificationListQuery = z.object({
  ...pageQuery(10),
  unread: flagParam('unread')
    .optional()
    .transform((v) => v === 'true'),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

export const NotificationList = pageOf(Notification);
export type NotificationList = z.infer<typeof NotificationList>;

/**
 * The most unread notifications the count reads: the bell shows "99+" beyond 99, so counting
 * further would only cost time for a user who never reads them.
 */
export const UNREAD_COUNT_CAP = 100;

/** The bell's badge: unread notifications, counted up to `UNREAD_COUNT_CAP`. */
/**
 * What waits for an admin now, whatever they read (issue 34): the bell counts it beside the
 * unread notifications, and the dashboard lists it. Each a count of a small table's rows.
 */
export const AdminWaiting = z.object({
  pending_publishers: z.number().int(),
  pending_applications: z.number().int(),
  open_disputes: z.number().int(),
});
export type AdminWaiting = z.infer<typeof AdminWaiting>;

export const UnreadCount = z.object({
  unread: z.number().int(),
  /** False when there are at least `UNREAD_COUNT_CAP` (the count stopped there). */
  exact: z.boolean(),
  /** An admin's: what waits for them (absent for publishers and buyers). */
  waiting: AdminWaiting.optional(),
});
export type UnreadCount = z.infer<typeof UnreadCount>;

export const NotificationIdParams = z.object({
  id: z.uuid({ error: 'This notification does not exist.' }),
});

/** "Mark all read": how many were unread. */
export const MarkedRead = z.object({ marked: z.number().int() });
export type MarkedRead = z.infer<typeof MarkedRead>;

/** An admin's e-mail choices: every event, true = e-mail me. */
export const NotificationPreferences = z.object({
  email: z.object(
    Object.fromEntries(adminNotificationEvents.map((e) => [e, z.boolean()])) as Record<
      AdminNotificationEvent,
      z.ZodBoolean
    >,
  ),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** PUT body: the choices to change (the others stay as they are). */
export const UpdateNotificationPreferences = z.object({
  email: z
    .object(
      Object.fromEntries(
        adminNotificationEvents.map((e) => [
          e,
          z.boolean({ error: `${e} must be true or false.` }).optional(),
        ]),
      ) as Record<AdminNotificationEvent, z.ZodOptional<z.ZodBoolean>>,
      { error: 'email must be an object of event → true/false.' },
    )
    .strict(),
});
export type UpdateNotificationPreferences = z.infer<typeof UpdateNotificationPreferences>;
