import { useQuery } from '@tanstack/react-query';
import type { PublisherDocuments } from '../../../../contract/publisher.ts';
import { api } from '../../../lib/api-client.ts';
import { publisherKeys } from './keys.ts';

export function getDocuments(): Promise<PublisherDocuments> {
  return api<PublisherDocuments>('publisher/documents');
}

/** The publisher's own agreement as a signed URL (or null when the admin has not uploaded one). */
export function useDocuments() {
  return useQuery({ queryKey: publisherKeys.documents(), queryFn: getDocuments });
}
