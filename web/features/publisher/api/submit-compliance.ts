import { COMPLIANCE_RULES, type ComplianceSubmission } from '@contract/publisher.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

export type ComplianceUpload = {
  applicationId: string;
  media: File[];
  document: File;
  /** 0–100 while the request body is being sent. */
  onProgress?: (percent: number) => void;
};

/** Sends the compliance files with upload progress (a recording can be large). */
export function submitCompliance(upload: ComplianceUpload): Promise<ComplianceSubmission> {
  const form = new FormData();
  for (const file of upload.media) form.append(COMPLIANCE_RULES.mediaField, file, file.name);
  form.append(COMPLIANCE_RULES.documentField, upload.document, upload.document.name);
  return apiUpload(
    apiRoutes.publisher.submitCompliance(upload.applicationId),
    form,
    upload.onProgress,
  );
}

/** Submits the compliance files; on success the offers and the overview cards are refreshed. */
export function useSubmitCompliance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitCompliance,
    onSettled: () => queryClient.invalidateQueries({ queryKey: publisherKeys.all }),
  });
}
