/** Every route of the publisher area, defined once (the area's router and the screens read it). */
export const publisherPaths = {
  overview: '/dashboard',
  offers: '/dashboard/offers',
  leads: '/dashboard/leads',
  payouts: '/dashboard/payouts',
  documents: '/dashboard/documents',
  ios: '/dashboard/ios',
} as const;
