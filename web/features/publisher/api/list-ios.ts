import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

export type IosQuery = EndpointQuery<typeof apiRoutes.publisher.ios>;

/** IOs of the publisher's own approved applications, each with a signed download URL; searched and sorted on the server. */
export function useIos(query: IosQuery) {
  return useListQuery(publisherKeys.ios, apiRoutes.publisher.ios, query);
}
