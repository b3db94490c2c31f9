/**
 * Where a notification leads, as paths inside the portal (the web's routes, web/app/routes.ts:
 * the server cannot import them, so the few a notification needs are spelled here once).
 */
const id = (v: string) => encodeURIComponent(v);

export const appLinks = {
  adminPublisher: (publisherId: string) => `/admin/publishers/${id(publisherId)}`,
  /** The pending applications to this offer, searched by the publisher's e-mail. */
  adminApplication: (offerId: string, publisherEmail: string) =>
    `/admin/applications?status=pending&offer_id=${id(offerId)}&q=${id(publisherEmail)}`,
  adminLead: (leadId: string) => `/admin/leads/${id(leadId)}`,
  adminCampaigns: (search: string) => `/admin/campaigns?q=${id(search)}`,
  publisherOverview: '/dashboard',
  publisherOffers: '/dashboard/offers',
  publisherLead: (leadId: string) => `/dashboard/leads/${id(leadId)}`,
  twoFactor: '/account/two-factor',
} as const;
