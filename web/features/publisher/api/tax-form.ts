import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

const taxFormKey = [...publisherKeys.all, 'money', 'tax-form'] as const;

/** The publisher's tax form: its status (set by the network) and the uploaded PDF. */
export const useTaxForm = () =>
  useQuery({ queryKey: taxFormKey, queryFn: () => apiCall(apiRoutes.publisher.taxForm) });

/** Uploads a W-9/W-8 PDF: the form becomes "Submitted" until the network reviews it. */
export const useUploadTaxForm = () =>
  useApiMutation(
    (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return apiCall(apiRoutes.publisher.uploadTaxForm, { body });
    },
    [...publisherKeys.all, 'money'],
  );
