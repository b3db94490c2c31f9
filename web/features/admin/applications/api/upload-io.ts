import { uploadTypes } from '@contract/admin.ts';
import { hasUploadType, uploadRules } from '@contract/uploads.ts';
import { apiUpload, fileForm } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** The IO formats the server accepts (spec §5: pdf, jpg, jpeg, png). */
export const IO_ACCEPT = `${uploadTypes.io.map((t) => `.${t}`).join(',')},application/pdf,image/jpeg,image/png`;

/** True when the file name has one of the IO extensions (the upload's one rule). */
export const isIoFileName = (name: string) => hasUploadType(uploadRules.io.file, name);

/** PUT /api/v1/admin/applications/:id/io (multipart `file`), only for approved applications. */
export const useUploadIo = () =>
  useApiMutation(
    ({ id, file }: { id: string; file: File }) =>
      apiUpload(apiRoutes.admin.uploadIo(id), fileForm(file)),
    ['admin'],
  );
