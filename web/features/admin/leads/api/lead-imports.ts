import type { CheckLeadImport, LeadImport } from '@contract/lead-actions.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, apiUpload, fileForm } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

const importKey = (id: string) => ['admin', 'lead-imports', id] as const;

/** While a check or import runs, the screen asks again this often (ms). */
const POLL_MS = 700;

/** GET /api/v1/admin/lead-imports/:id, polled while its check or import runs. */
export function useLeadImport(id: string | null) {
  return useQuery({
    queryKey: importKey(id ?? ''),
    queryFn: ({ signal }) => apiCall(apiRoutes.admin.leadImport(id!), { signal }),
    enabled: Boolean(id),
    refetchInterval: (q) => {
      const s = (q.state.data as LeadImport | undefined)?.status;
      return s === 'checking' || s === 'importing' ? POLL_MS : false;
    },
  });
}

/** POST /api/v1/admin/lead-imports: the CSV file (multipart `file`), with upload progress. */
export function useUploadLeadImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (p: number) => void }) =>
      apiUpload(apiRoutes.admin.uploadLeadImport, fileForm(file), onProgress),
    onSuccess: (data) => queryClient.setQueryData(importKey(data.id), data),
  });
}

/** POST …/check (the dry run) and POST …/import: each answers the import, then it is polled. */
export function useStartLeadImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, check }: { id: string; check?: CheckLeadImport }) =>
      check
        ? apiCall(apiRoutes.admin.checkLeadImport(id), { body: check })
        : apiCall(apiRoutes.admin.runLeadImport(id)),
    onSuccess: (data) => {
      queryClient.setQueryData(importKey(data.id), data);
      if (data.status === 'importing')
        void queryClient.invalidateQueries({ queryKey: ['admin', 'leads'] });
    },
  });
}
