import type {
  AcknowledgeScriptBody,
  PendingScripts,
  PublisherOfferScript,
} from '@contract/scripts.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import type { Endpoint } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

/** Offer scripts (issue 33); typed here, beside the hooks (api-routes.ts is in /login's bundle). */
const scriptsKey = [...publisherKeys.all, 'scripts'] as const;
const path = (offerId: string) => `publisher/offers/${encodeURIComponent(offerId)}/script`;
const pending: Endpoint<PendingScripts> = { method: 'GET', path: 'publisher/scripts/pending' };
const script = (offerId: string): Endpoint<PublisherOfferScript> => ({
  method: 'GET',
  path: path(offerId),
});
const acknowledge = (
  offerId: string,
): Endpoint<PublisherOfferScript, undefined, AcknowledgeScriptBody> => ({
  method: 'POST',
  path: `${path(offerId)}/acknowledge`,
});

/** The approved offers whose current script this publisher has not acknowledged. */
export function usePendingScripts() {
  return useQuery({
    queryKey: [...scriptsKey, 'pending'],
    queryFn: ({ signal }) => apiCall(pending, { signal }),
  });
}

/** An offer's current script and what changed since the last version acknowledged. */
export function useOfferScript(offerId: string | null) {
  return useQuery({
    queryKey: [...scriptsKey, offerId],
    queryFn: ({ signal }) => apiCall(script(offerId ?? ''), { signal }),
    enabled: offerId !== null,
  });
}

/** Acknowledges the version read; refreshes the pending list and the script. */
export const useAcknowledgeScript = () =>
  useApiMutation(
    ({ offerId, version }: { offerId: string; version: number }) =>
      apiCall(acknowledge(offerId), { body: { version } }),
    scriptsKey,
  );
