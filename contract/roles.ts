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

export const userStatuses = ['pending', 'approved', 'active', 'blocked'] as const;
export type UserStatus = (typeof userStatuses)[number];

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
