import { z } from 'zod';
import { optionalText } from './admin-common.ts';

// Why a reviewer rejects an application (its compliance submission) or rejects/blocks a
// publisher (issue 16 item 2): a choice, plus the reviewer's own words. The publisher reads both
// on the application and in the e-mail.

/**
 * Reasons for rejecting an application (its compliance submission), with what the publisher
 * reads. Approving an application takes no reason.
 */
export const applicationReasons = {
  recordings_incomplete: 'The call recordings are missing, cut short or hard to hear',
  script_not_followed: 'The calls do not follow the offer’s script',
  document_invalid: 'The compliance document is missing, unreadable or not signed',
  traffic_not_allowed: 'The traffic source is not allowed on this offer',
  other: 'Another reason (see the note)',
} as const;

/** Reasons for rejecting a sign-up (a pending publisher): about the account, not its traffic. */
export const publisherRejectReasons = {
  details_unverifiable: 'The business details could not be verified',
  incomplete_profile: 'The profile is incomplete',
  duplicate_account: 'The business already has an account with the network',
  other: 'Another reason (see the note)',
} as const;

/** Reasons for blocking an approved publisher: about what they did. */
export const publisherBlockReasons = {
  policy_violation: 'The network’s policies were not followed',
  fraud_suspected: 'Suspected fraudulent or low-quality traffic',
  buyer_complaints: 'Repeated complaints from buyers or callers',
  other: 'Another reason (see the note)',
} as const;

/**
 * Every publisher reason with its label (either action), for reading decisions already stored;
 * a new decision picks from its action's list.
 */
export const publisherReasons = { ...publisherRejectReasons, ...publisherBlockReasons } as const;

export type ApplicationReason = keyof typeof applicationReasons;
export type PublisherReason = keyof typeof publisherReasons;

const keys = <T extends Record<string, string>>(o: T) =>
  Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

/** One of `applicationReasons`; anything else is refused naming them. */
export const ApplicationReasonCode = z.enum(keys(applicationReasons), {
  error: (iss) =>
    reasonNotAllowed({
      action: 'reject an application',
      allowed: applicationReasons,
      reason: String(iss.input),
    }),
});
/**
 * One of `publisherReasons`; which action takes which is checked by the server, which knows
 * whether the decision rejects a sign-up or blocks an account.
 */
export const PublisherReasonCode = z.enum(keys(publisherReasons), {
  error: (iss) =>
    `"${String(iss.input)}" is not a publisher reason. To reject a sign-up: ${Object.keys(publisherRejectReasons).join(', ')}; to block a publisher: ${Object.keys(publisherBlockReasons).join(', ')}.`,
});

/** The reviewer's note: optional, except with the reason `other`. */
export const ReviewNote = optionalText(1000, 'Keep the note under 1,000 characters.');

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

/**
 * The sentence refusing a reason that does not belong to an action (issue 27 item 4), naming
 * the codes that do, each with its label: `allowed` null means the action takes no reason.
 */
export function reasonNotAllowed(opts: {
  /** What the admin does, after "to": "reject a lead", "block a publisher". */
  action: string;
  allowed: Record<string, string> | null;
  reason: string;
  /** Labels of every known code, to say what the refused one means. */
  labels?: Record<string, string>;
}): string {
  const { action, allowed, reason } = opts;
  if (!allowed) return `No reason is given to ${action}: leave the reason out.`;
  const label = opts.labels?.[reason] ?? allowed[reason];
  const given = label ? `"${reason}" (${label})` : `"${reason}"`;
  const choices = Object.entries(allowed)
    .map(([code, text]) => `${code} (${text})`)
    .join(', ');
  return `${given} is not a reason to ${action}. Choose one of: ${choices}.`;
}

/** The check every decision with a reason shares: `other` needs a note. */
export function otherNeedsNote(v: { reason?: string | undefined; note?: string | undefined }) {
  return v.reason !== 'other' || Boolean(v.note?.trim());
}
export const otherNeedsNoteIssue = {
  error: 'Write a note when the reason is "Another reason".',
  path: ['note'],
};
