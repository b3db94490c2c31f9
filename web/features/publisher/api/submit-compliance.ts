import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiErrorBody } from '../../../../contract/errors.ts';
import { COMPLIANCE_RULES, type ComplianceSubmission } from '../../../../contract/publisher.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { authClient } from '../../../lib/auth.tsx';
import { publisherKeys } from './keys.ts';

export type ComplianceUpload = {
  applicationId: string;
  media: File[];
  document: File;
  /** 0–100 while the request body is being sent. */
  onProgress?: (percent: number) => void;
};

function toApiError(xhr: XMLHttpRequest): ApiError {
  let body: ApiErrorBody | null = null;
  try {
    body = JSON.parse(xhr.responseText) as ApiErrorBody;
  } catch {
    /* not JSON */
  }
  const e = body?.error;
  return new ApiError(
    xhr.status,
    e?.code ?? 'http_error',
    e?.message ?? `The server answered ${xhr.status}.`,
    e?.details,
  );
}

/**
 * Sends the compliance files with XMLHttpRequest rather than fetch: only XHR reports upload
 * progress, which a publisher sending a large recording needs to see.
 */
export async function submitCompliance(upload: ComplianceUpload): Promise<ComplianceSubmission> {
  const { data } = await authClient.getSession();
  const token = data.session?.access_token;
  const form = new FormData();
  for (const file of upload.media) form.append(COMPLIANCE_RULES.mediaField, file, file.name);
  form.append(COMPLIANCE_RULES.documentField, upload.document, upload.document.name);

  return new Promise<ComplianceSubmission>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(
      'POST',
      `/api/v1/publisher/applications/${encodeURIComponent(upload.applicationId)}/compliance`,
    );
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        upload.onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as ComplianceSubmission);
        } catch {
          reject(new ApiError(xhr.status, 'bad_response', 'The server sent an unreadable answer.'));
        }
      } else {
        reject(toApiError(xhr));
      }
    };
    xhr.onerror = () =>
      reject(
        new ApiError(0, 'network_error', 'Could not reach the server. Check your connection.'),
      );
    xhr.send(form);
  });
}

/** Submits the compliance files; on success the offers and the overview cards are refreshed. */
export function useSubmitCompliance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitCompliance,
    onSettled: () => queryClient.invalidateQueries({ queryKey: publisherKeys.all }),
  });
}
