import { apiUpload, fileForm } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publishersKey } from './list-publishers.ts';

/** The agreement formats the server accepts (spec §5). */
export const AGREEMENT_ACCEPT =
  '.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** PUT /api/v1/admin/publishers/:id/agreement (multipart `file`: pdf, doc, docx). */
export const useUploadAgreement = () =>
  useApiMutation(
    ({ id, file }: { id: string; file: File }) =>
      apiUpload(apiRoutes.admin.uploadAgreement(id), fileForm(file)),
    publishersKey,
  );
