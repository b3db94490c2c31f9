import type { UpdatePaymentDetails } from '@contract/money.ts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiCall, apiDownload } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

const moneyKey = [...publisherKeys.all, 'money'] as const;

/** The publisher's balance (earned, pending review, paid, owed) and payment details. */
export function usePublisherMoney() {
  return useQuery({ queryKey: moneyKey, queryFn: () => apiCall(apiRoutes.publisher.money) });
}

export function usePaymentDetails() {
  return useQuery({
    queryKey: [...moneyKey, 'payment-details'],
    queryFn: () => apiCall(apiRoutes.publisher.paymentDetails),
  });
}

/** PUT the payment details; the admins are told by mail. */
export const useUpdatePaymentDetails = () =>
  useApiMutation(
    (body: UpdatePaymentDetails) => apiCall(apiRoutes.publisher.updatePaymentDetails, { body }),
    moneyKey,
  );

/** The leads one payout paid (or took back), page by page. */
export function usePayoutLeads(payoutId: string | null, page: number) {
  return useQuery({
    queryKey: [...publisherKeys.payouts, payoutId, 'leads', page],
    queryFn: () =>
      apiCall(apiRoutes.publisher.payoutLeads(payoutId!), { query: { page, page_size: 25 } }),
    enabled: payoutId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Saves a payout's statement (PDF or CSV) as a file. */
export function useDownloadStatement() {
  return useMutation({
    mutationFn: ({ id, format }: { id: string; format: 'pdf' | 'csv' }) =>
      apiDownload(
        format === 'pdf'
          ? apiRoutes.publisher.statementPdf(id)
          : apiRoutes.publisher.statementCsv(id),
        undefined as never,
        `statement.${format}`,
      ),
  });
}
