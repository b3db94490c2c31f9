import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client.ts';
import { publishersKey } from './list-publishers.ts';

/** The agreement formats the server accepts (spec §5). */
export const AGREEMENT_ACCEPT =
  '.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export function uploadAgreement(id: string, file: File): Promise<unknown> {
  const body = new FormData();
  body.append('file', file);
  return api<unknown>(`admin/publishers/${encodeURIComponent(id)}/agreement`, {
    method: 'PUT',
    body,
  });
}

/** PUT /api/v1/admin/publishers/:id/agreement (multipart `file`: pdf, doc, docx). */
export function useUploadAgreement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string; file: File }) => uploadAgreement(vars.id, vars.file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: publishersKey }),
  });
}
