import { z } from 'zod';

// Why a reviewer rejects an application (its compliance submission) or rejects/blocks a
// publisher (issue 16 item 2): a choice, plus the reviewer's own words. The publisher reads both
// on the application and in the e-mail.

/** Reasons for rejecting an application, with what the publisher reads. */
export const applicationReasons = {
  recordings_incomplete: 'The call recordings are missing, cut short or hard to hear',
  script_not_followed: 'The calls do not follow the offer’s script',
  document_invalid: 'The compliance document is missing, unreadable or not signed',
  traffic_not_allowed: 'The traffic source is not allowed on this offer',
  other: 'Another reason (see the note)',
} as const;

/** Reasons for rejecting or blocking a publisher account. */
export const publisherReasons = {
  details_unverifiable: 'The business details could not be verified',
  incomplete_profile: 'The profile is incomplete',
  policy_violation: 'The network’s policies were not followed',
  fraud_suspected: 'Suspected fraudulent or low-quality traffic',
  other: 'Another reason (see the note)',
} as const;

export type ApplicationReason = keyof typeof applicationReasons;
export type PublisherReason = keyof typeof publisherReasons;

const keys = <T extends Record<string, string>>(o: T) =>
  Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

export const ApplicationReasonCode = z.enum(keys(applicationReasons), {
  error: 'Choose one of the listed reasons.',
});
export const PublisherReasonCode = z.enum(keys(publisherReasons), {
  error: 'Choose one of the listed reasons.',
});

/** The reviewer's note: optional, except with the reason `other`. */
export const ReviewNote = z
  .string()
  .trim()
  .max(1000, { error: 'Keep the note under 1,000 characters.' })
  .optional();

/** One sentence for the publisher: the reason, and the note when there is one. */
export function describeReason(
  labels: Record<string, string>,
  reason: string | null | undefined,
  note: string | null | undefined,
): string | null {
  if (!reason) return null;
  const label = reason === 'other' ? null : (labels[reason] ?? reason);
  const text = note?.trim();
  if (label && text) return `${label}. ${text}`;
  return label ? `${label}.` : (text ?? null);
}

/** The check every decision with a reason shares: `other` needs a note. */
export function otherNeedsNote(v: { reason?: string | undefined; note?: string | undefined }) {
  return v.reason !== 'other' || Boolean(v.note?.trim());
}
export const otherNeedsNoteIssue = {
  error: 'Write a note when the reason is "Another reason".',
  path: ['note'],
};
