import type {
  BuyerBilling,
  BuyerInvoice,
  DepositBody,
  GenerateInvoiceBody,
  SetBillingModeBody,
} from '@contract/buyer-billing.ts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client.ts';
import { useGet, useSendTo } from '@/lib/api-queries.ts';
import { get, post, put } from '@/lib/api-routes.ts';

/**
 * A buyer's billing (issue 31, item 6): the buyer's own (/api/v1/buyer/billing) and the admin's
 * view of one buyer. Defined here rather than in web/lib/api-routes.ts (the /login bundle has
 * no room left), as the API keys' are.
 */
const enc = encodeURIComponent;
export const billingRoutes = {
  mine: get<BuyerBilling>('buyer/billing'),
  ofBuyer: (buyerId: string) => get<BuyerBilling>(`admin/buyers/${enc(buyerId)}/billing`),
  setMode: (buyerId: string) =>
    put<BuyerBilling, unknown, SetBillingModeBody>(`admin/buyers/${enc(buyerId)}/billing`),
  deposit: (buyerId: string) =>
    post<BuyerBilling, unknown, DepositBody>(`admin/buyers/${enc(buyerId)}/deposits`),
  generate: (buyerId: string) =>
    post<BuyerInvoice, unknown, GenerateInvoiceBody>(`admin/buyers/${enc(buyerId)}/invoices`),
  file: (area: 'buyer' | 'admin', invoiceId: string, format: 'pdf' | 'csv') =>
    get<Blob>(`${area}/invoices/${enc(invoiceId)}.${format}`),
} as const;

export const billingKey = ['billing'] as const;

/** GET /api/v1/buyer/billing: the signed-in buyer's mode, balance, deposits and invoices. */
export const useMyBilling = () => useGet([...billingKey, 'mine'], billingRoutes.mine);

/** GET /api/v1/admin/buyers/:id/billing. */
export const useBuyerBilling = (buyerId: string) =>
  useGet([...billingKey, buyerId], billingRoutes.ofBuyer(buyerId));

/** PUT /api/v1/admin/buyers/:id/billing {mode}: `mutate({ id, mode })`. */
export const useSetBillingMode = () => useSendTo(billingRoutes.setMode, billingKey);
/** POST /api/v1/admin/buyers/:id/deposits {amount, note?}: `mutate({ id, amount, note })`. */
export const useRecordDeposit = () => useSendTo(billingRoutes.deposit, billingKey);
/** POST /api/v1/admin/buyers/:id/invoices {month}: `mutate({ id, month })`. */
export const useGenerateInvoice = () => useSendTo(billingRoutes.generate, billingKey);

/** Saves an invoice (PDF or CSV) as a file. */
export const useDownloadInvoice = (area: 'buyer' | 'admin') =>
  useMutation({
    mutationFn: ({ id, format }: { id: string; format: 'pdf' | 'csv' }) =>
      apiDownload(billingRoutes.file(area, id, format), undefined as never, `invoice.${format}`),
  });
