import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useSend } from '@/lib/api-queries.ts';
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
  useSend(apiRoutes.admin.setPayoutReview(id), ['admin']);

/** Releases the holds for the next run, with a note. */
export const useReleasePayoutHold = (id: string) =>
  useSend(apiRoutes.admin.releasePayoutHold(id), ['admin']);

/** The admin's decision on the tax form. */
export const useSetTaxFormStatus = (id: string) =>
  useSend(apiRoutes.admin.setTaxFormStatus(id), ['admin']);
