/** The buyer area's client routes, defined once (the area lives under /buyer-dashboard). */
export const buyerPaths = {
  dashboard: '/buyer-dashboard',
  campaigns: '/buyer-dashboard/campaigns',
} as const;

/** Child path of the campaigns tab, relative to the buyer area. */
export const campaignsSegment = 'campaigns';
