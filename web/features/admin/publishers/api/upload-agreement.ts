import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';
import { publishersKey } from './list-publishers.ts';

/** The agreement formats the server accepts (spec §5). */
export const AGREEMENT_ACCEPT =
  '.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export function uploadAgreement(id: string, file: File): Promise<unknown> {
  const body = new FormData();
  body.append('file', file);
  return apiUpload(apiRoutes.admin.uploadAgreement(id), body);
}

/** PUT /api/v1/admin/publishers/:id/agreement (multipart `file`: pdf, doc, docx). */
export function useUploadAgreement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string; file: File }) => uploadAgreement(vars.id, vars.file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: publishersKey }),
  });
}
