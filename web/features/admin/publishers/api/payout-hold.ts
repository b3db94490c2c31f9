import type { ReleasePayoutHold, SetPayoutReview, SetTaxFormStatus } from '@contract/money.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publisherKey } from './get-publisher.ts';

const holdKey = (id: string) => [...publisherKey(id), 'payout-hold'] as const;
const taxKey = (id: string) => [...publisherKey(id), 'tax-form'] as const;

/** What holds this publisher's payouts now, and a pending release. */
export const usePayoutHold = (id: string) =>
  useQuery({ queryKey: holdKey(id), queryFn: () => apiCall(apiRoutes.admin.payoutHold(id)) });

/** The publisher's tax form: status and the uploaded PDF. */
export const useAdminTaxForm = (id: string) =>
  useQuery({ queryKey: taxKey(id), queryFn: () => apiCall(apiRoutes.admin.taxForm(id)) });

/** Puts the payouts under review (with a note) or lifts it; refreshes the run previews too. */
export const useSetPayoutReview = (id: string) =>
  useApiMutation(
    (body: SetPayoutReview) => apiCall(apiRoutes.admin.setPayoutReview(id), { body }),
    ['admin'],
  );

/** Releases the holds for the next run, with a note. */
export const useReleasePayoutHold = (id: string) =>
  useApiMutation(
    (body: ReleasePayoutHold) => apiCall(apiRoutes.admin.releasePayoutHold(id), { body }),
    ['admin'],
  );

/** The admin's decision on the tax form. */
export const useSetTaxFormStatus = (id: string) =>
  useApiMutation(
    (body: SetTaxFormStatus) => apiCall(apiRoutes.admin.setTaxFormStatus(id), { body }),
    ['admin'],
  );
