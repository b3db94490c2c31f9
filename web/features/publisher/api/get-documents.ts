import type { PublisherDocuments } from '@contract/publisher.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

export function getDocuments(): Promise<PublisherDocuments> {
  return apiCall(apiRoutes.publisher.documents);
}

/** The publisher's own agreement as a signed URL (or null when the admin has not uploaded one). */
export function useDocuments() {
  return useQuery({ queryKey: publisherKeys.documents, queryFn: getDocuments });
}
