import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AdminApplication, uploadTypes } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

/** The IO formats the server accepts (spec §5: pdf, jpg, jpeg, png). */
export const IO_ACCEPT = `${uploadTypes.io.map((t) => `.${t}`).join(',')},application/pdf,image/jpeg,image/png`;

/** True when the file name has one of the IO extensions. */
export function isIoFileName(name: string): boolean {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  return (uploadTypes.io as readonly string[]).includes(ext);
}

export function uploadIo(id: string, file: File): Promise<AdminApplication> {
  const body = new FormData();
  body.append('file', file);
  return api<AdminApplication>(`admin/applications/${encodeURIComponent(id)}/io`, {
    method: 'PUT',
    body,
  });
}

/** PUT /api/v1/admin/applications/:id/io (multipart `file`), only for approved applications. */
export function useUploadIo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string; file: File }) => uploadIo(vars.id, vars.file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
