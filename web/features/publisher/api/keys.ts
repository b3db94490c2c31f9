/** Query keys of the publisher area; invalidating `publisherKeys.all` refreshes every screen. */
export const publisherKeys = {
  all: ['publisher'] as const,
  overview: ['publisher', 'overview'] as const,
  offers: ['publisher', 'offers'] as const,
  leads: ['publisher', 'leads'] as const,
  payouts: ['publisher', 'payouts'] as const,
  documents: ['publisher', 'documents'] as const,
  ios: ['publisher', 'ios'] as const,
};
