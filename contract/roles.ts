import { z } from 'zod';

/** Every role a user row can have. */
export const roles = ['admin', 'publisher', 'buyer'] as const;
export const Role = z.enum(roles);
export type Role = z.infer<typeof Role>;

/** Publisher statuses; `active` is legacy and displays as Approved. */
export const publisherStatuses = ['pending', 'approved', 'active', 'blocked'] as const;
export const PublisherStatus = z.enum(publisherStatuses);
export type PublisherStatus = z.infer<typeof PublisherStatus>;

/** Buyer (and admin) statuses. */
export const accountStatuses = ['active', 'blocked'] as const;
export const BuyerStatus = z.enum(accountStatuses);
export type BuyerStatus = z.infer<typeof BuyerStatus>;

/** Every status a user row can have (a publisher's; buyers and admins use two of them). */
export const userStatuses = publisherStatuses;
export type UserStatus = (typeof userStatuses)[number];

/**
 * A publisher an admin has approved: `approved`, or the legacy `active` that displays as
 * Approved. The one definition of "approved publisher": who may apply, receive payouts, be
 * blocked, appear in the payout picker and under the Approved filter.
 */
export const approvedPublisherStatuses = [
  'approved',
  'active',
] as const satisfies readonly PublisherStatus[];

/** True for a publisher an admin has approved (or a legacy active one). */
export function isApprovedPublisher(status: string): boolean {
  return (approvedPublisherStatuses as readonly string[]).includes(status);
}

/** Application statuses after submission: what an admin decides (drafts are the publisher's). */
export const submittedApplicationStatuses = ['pending', 'approved', 'rejected'] as const;
export const SubmittedApplicationStatus = z.enum(submittedApplicationStatuses, {
  error: 'status must be pending, approved or rejected.',
});
export type SubmittedApplicationStatus = z.infer<typeof SubmittedApplicationStatus>;

export const offerStatuses = ['active', 'inactive'] as const;
export const OfferStatus = z.enum(offerStatuses);
export type OfferStatus = z.infer<typeof OfferStatus>;

export const applicationStatuses = ['draft', 'pending', 'approved', 'rejected'] as const;
export const ApplicationStatus = z.enum(applicationStatuses);
export type ApplicationStatus = z.infer<typeof ApplicationStatus>;

export const leadStatuses = ['approved', 'pending', 'rejected'] as const;
export const LeadStatus = z.enum(leadStatuses);
export type LeadStatus = z.infer<typeof LeadStatus>;

export const mailStatuses = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof mailStatuses)[number];

/** A buyer's campaign (issue 31): pending until an admin approves or rejects it. */
export const campaignStatuses = ['pending', 'active', 'paused', 'ended', 'rejected'] as const;
export const CampaignStatus = z.enum(campaignStatuses);
export type CampaignStatus = z.infer<typeof CampaignStatus>;
/** Who or what paused a campaign: a person, or the budget, the end date or the daily cap. */
export const campaignPausers = [
  'buyer',
  'admin',
  'budget',
  'end_date',
  'daily_cap',
  'balance',
] as const;
/** How a buyer pays (issue 31, item 6): deposits drawn by each call, or a monthly invoice. */
export const billingModes = ['prepaid', 'postpaid'] as const;
export type BillingMode = (typeof billingModes)[number];
export type CampaignPauser = (typeof campaignPausers)[number];
/** A buyer's return of a call: waiting for the admin, accepted (credited) or declined. */
export const callReturnStatuses = ['pending', 'accepted', 'declined'] as const;
export const CallReturnStatus = z.enum(callReturnStatuses);
