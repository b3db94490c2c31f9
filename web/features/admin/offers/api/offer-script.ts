import type { AdminOfferScript } from '@contract/scripts.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import type { Endpoint } from '@/lib/api-routes.ts';
import { offersKey } from './list-offers.ts';

/** GET /api/v1/admin/offers/:id/script (typed here: api-routes.ts is in the /login bundle). */
const offerScript = (id: string): Endpoint<AdminOfferScript> => ({
  method: 'GET',
  path: `admin/offers/${encodeURIComponent(id)}/script`,
});

/** The offer's script versions and who acknowledged which (issue 33). */
export function useOfferScript(id: string | null) {
  return useQuery({
    queryKey: [...offersKey, id, 'script'],
    queryFn: ({ signal }) => apiCall(offerScript(id ?? ''), { signal }),
    enabled: id !== null,
  });
}
