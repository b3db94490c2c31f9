import { useMutation } from '@tanstack/react-query';
import type { PublisherApplication } from '../../../../contract/publisher.ts';
import { api } from '../../../lib/api-client.ts';

export function createApplication(offerId: string): Promise<PublisherApplication> {
  return api<PublisherApplication>('publisher/applications', {
    method: 'POST',
    body: { offer_id: offerId },
  });
}

/** Apply Now: starts a draft application that the compliance dialog then submits. */
export function useCreateApplication() {
  return useMutation({ mutationFn: createApplication });
}
