import { apiCall, fileForm } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { trackingNumberRoutes, trackingNumbersKey } from './tracking-number-routes.ts';

/**
 * POST /api/v1/admin/tracking-numbers/import: a CSV file of at most 10,000 rows (2 MB, so no
 * progress bar). All rows or none: `errors` lists the wrong lines when nothing was imported.
 */
export const useImportTrackingNumbers = () =>
  useApiMutation(
    (file: File) => apiCall(trackingNumberRoutes.import, { body: fileForm(file) }),
    trackingNumbersKey,
  );
