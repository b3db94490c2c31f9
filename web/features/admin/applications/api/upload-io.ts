import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadTypes } from '../../../../../contract/admin.ts';
import { hasUploadType, uploadRules } from '../../../../../contract/uploads.ts';
import { apiUpload } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';

/** The IO formats the server accepts (spec §5: pdf, jpg, jpeg, png). */
export const IO_ACCEPT = `${uploadTypes.io.map((t) => `.${t}`).join(',')},application/pdf,image/jpeg,image/png`;

/** True when the file name has one of the IO extensions (the upload's one rule). */
export const isIoFileName = (name: string) => hasUploadType(uploadRules.io.file, name);

export function uploadIo(id: string, file: File) {
  const body = new FormData();
  body.append('file', file);
  return apiUpload(apiRoutes.admin.uploadIo(id), body);
}

/** PUT /api/v1/admin/applications/:id/io (multipart `file`), only for approved applications. */
export function useUploadIo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string; file: File }) => uploadIo(vars.id, vars.file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
