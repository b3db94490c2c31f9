import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload, fileForm } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publicSettingsKey } from '@/lib/public-settings.ts';
import { adminSettingsKey } from './get-admin-settings.ts';

/** The logo formats the server accepts (spec §5). */
export const LOGO_ACCEPT = 'image/png,image/jpeg,image/svg+xml,.png,.jpg,.jpeg,.svg';

export function uploadLogo(file: File): Promise<unknown> {
  return apiUpload(apiRoutes.admin.uploadLogo, fileForm(file));
}

/**
 * PUT /api/v1/admin/settings/logo (multipart `file`). Refreshes the admin settings and the
 * public branding, so the new logo shows in the sidebar without a reload.
 */
export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadLogo,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminSettingsKey }),
        queryClient.invalidateQueries({ queryKey: publicSettingsKey }),
      ]),
  });
}
