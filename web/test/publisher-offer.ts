import { noOfferRules } from '@contract/offer-rules.ts';
import type { PublisherOffer } from '@contract/publisher.ts';

/** An offer as the publisher's list answers it: not applied to, no rules, no numbers. */
export function publisherOffer(
  offer: Pick<PublisherOffer, 'id' | 'title' | 'vertical' | 'payout'>,
): PublisherOffer {
  return {
    ...offer,
    your_payout: null,
    script_instructions: null,
    rules: noOfferRules,
    created_at: '2026-11-01T10:00:00Z',
    application_id: null,
    application_reason: null,
    tracking_numbers: [],
    application_status: null,
  };
}
