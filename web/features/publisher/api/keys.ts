/** Query keys of the publisher area; invalidating `publisherKeys.all` refreshes every screen. */
export const publisherKeys = {
  all: ['publisher'] as const,
  overview: () => ['publisher', 'overview'] as const,
  offers: () => ['publisher', 'offers'] as const,
  offerList: (params: object) => ['publisher', 'offers', params] as const,
  leads: (params: object) => ['publisher', 'leads', params] as const,
  payouts: (params: object) => ['publisher', 'payouts', params] as const,
  documents: () => ['publisher', 'documents'] as const,
  ios: (params: object) => ['publisher', 'ios', params] as const,
};
