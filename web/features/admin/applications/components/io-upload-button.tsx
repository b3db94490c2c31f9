import type { AdminApplication } from '@contract/admin.ts';
import { Anchor, Group } from '@mantine/core';
import { FileUploadButton } from '@/components/file-upload-button.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import {
  IO_ACCEPT,
  isIoFileName,
  useUploadIo,
} from '@/features/admin/applications/api/upload-io.ts';

/**
 * The IO cell of an approved application: an Upload IO button (pdf, jpg, jpeg, png) until one
 * is uploaded, then 'IO Uploaded' with a link to open it.
 */
export function IoCell({ application }: { application: AdminApplication }) {
  const mutation = useUploadIo();
  const who = application.publisher_name || application.publisher_email;

  if (application.status !== 'approved') return null;
  if (application.io) {
    return (
      <Group gap={6} wrap="nowrap">
        <StatusBadge status="uploaded" subject="io">
          IO Uploaded
        </StatusBadge>
        <Anchor
          href={application.io.url}
          target="_blank"
          rel="noopener noreferrer"
          size="xs"
          onClick={(e) => e.stopPropagation()}
          aria-label={`Open the IO of ${who} for ${application.offer_title}`}
        >
          Open
        </Anchor>
      </Group>
    );
  }

  return (
    <FileUploadButton
      label="Upload IO"
      ariaLabel={`Upload IO for ${who} on ${application.offer_title}`}
      accept={IO_ACCEPT}
      isAllowed={isIoFileName}
      wrongType={{
        title: 'IO Upload Failed',
        description: 'The IO must be a PDF, JPG, JPEG or PNG file.',
      }}
      upload={mutation}
      vars={(file) => ({ id: application.id, file })}
      done={{
        title: 'IO Uploaded Successfully',
        description: `The IO of ${who} for "${application.offer_title}" is ready for download.`,
      }}
      failTitle="IO Upload Failed"
    />
  );
}
