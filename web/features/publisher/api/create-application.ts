import type { PublisherApplication } from '@contract/publisher.ts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

export function createApplication(offerId: string): Promise<PublisherApplication> {
  return apiCall(apiRoutes.publisher.createApplication, { body: { offer_id: offerId } });
}

/** Apply Now: starts a draft application that the compliance dialog then submits. */
export function useCreateApplication() {
  return useMutation({ mutationFn: createApplication });
}
