import '@mantine/dropzone/styles.css';
import { COMPLIANCE_RULES, PUBLISHER_MESSAGES, type PublisherOffer } from '@contract/publisher.ts';
import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconFileUpload, IconInfoCircle, IconMusic, IconUpload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useSubmitCompliance } from '@/features/publisher/api/submit-compliance.ts';
import { ApiError } from '@/lib/api-client.ts';
import { toast } from '@/lib/notify.ts';
import { checkComplianceFiles, DOCUMENT_ACCEPT, MEDIA_ACCEPT } from './file-rules.ts';
import { SelectedFileList } from './selected-file-list.tsx';

/** `resubmit`: new files for a rejected application (nothing to delete when it closes). */
export type ComplianceDraft = { applicationId: string; offer: PublisherOffer; resubmit?: boolean };

type ComplianceDialogProps = {
  draft: ComplianceDraft | null;
  /** Closed without a submission: the caller deletes the draft. */
  onCancel: (draft: ComplianceDraft) => void;
  /** The submission went through (or the server says it already had one): nothing to delete. */
  onDone: () => void;
};

function rejectionText(rejections: FileRejection[], accepted: string): string {
  const names = rejections.map((r) => r.file.name).join(', ');
  return `${names}: only ${accepted} files are accepted.`;
}

/**
 * The compliance form behind Apply Now: call recordings and a signed document, checked here
 * with the spec's messages before a byte is sent, then uploaded with visible progress.
 */
export function ComplianceDialog({ draft, onCancel, onDone }: ComplianceDialogProps) {
  const [media, setMedia] = useState<File[]>([]);
  const [document, setDocument] = useState<File | null>(null);
  const [mediaError, setMediaError] = useState<string | null>(null);
  const [documentError, setDocumentError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const submit = useSubmitCompliance();
  const busy = submit.isPending;

  function reset() {
    setMedia([]);
    setDocument(null);
    setMediaError(null);
    setDocumentError(null);
    setProgress(null);
    submit.reset();
  }

  function handleClose() {
    if (busy || !draft) return;
    const current = draft;
    reset();
    onCancel(current);
  }

  function handleSubmit() {
    if (!draft) return;
    const check = checkComplianceFiles(media, document);
    if (!check.ok) {
      toast({ title: check.title, description: check.description, variant: 'destructive' });
      return;
    }
    setProgress(0);
    submit.mutate(
      { applicationId: draft.applicationId, media, document: document!, onProgress: setProgress },
      {
        onSuccess: () => {
          toast({ title: 'Applied. Thank you.' });
          reset();
          onDone();
        },
        onError: (err) => {
          setProgress(null);
          if (err instanceof ApiError && err.code === 'already_applied') {
            toast({
              title: PUBLISHER_MESSAGES.alreadyAppliedTitle,
              description: PUBLISHER_MESSAGES.alreadyApplied,
              variant: 'destructive',
            });
            const current = draft;
            reset();
            onCancel(current);
            return;
          }
          toast({
            title: 'Submission Failed',
            description: err.message || 'Something went wrong',
            variant: 'destructive',
          });
          // The draft is gone (swept, or deleted elsewhere): this dialog can no longer succeed.
          if (err instanceof ApiError && err.status === 404) {
            reset();
            onDone();
          }
        },
      },
    );
  }

  return (
    <Modal
      opened={draft !== null}
      onClose={handleClose}
      title={
        draft
          ? `${draft.resubmit ? 'Submit new files for' : 'Apply to'} ${draft.offer.title}`
          : 'Apply'
      }
      size="lg"
      centered
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': 'Close without applying' }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Upload your compliance files: 1 to {COMPLIANCE_RULES.maxMediaFiles} call recordings (MP3
          or MP4) and one document (PDF, DOC or DOCX).
        </Text>

        <Stack gap={6}>
          <Text size="sm" fw={600} id="media-label">
            Media files
          </Text>
          <Dropzone
            onDrop={(files) => {
              setMediaError(null);
              setMedia((prev) => [...prev, ...files]);
            }}
            onReject={(r) => setMediaError(rejectionText(r, 'MP3 or MP4'))}
            accept={MEDIA_ACCEPT}
            multiple
            disabled={busy}
            name={COMPLIANCE_RULES.mediaField}
            inputProps={{ 'aria-labelledby': 'media-label' }}
            aria-labelledby="media-label"
            p="md"
          >
            <Group justify="center" gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={32} stroke={1.5} />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={32} stroke={1.5} />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconMusic size={32} stroke={1.5} />
              </Dropzone.Idle>
              <div>
                <Text size="sm">Drop call recordings here or click to choose</Text>
                <Text size="xs" c="dimmed">
                  MP3 or MP4, up to {COMPLIANCE_RULES.maxMediaFiles} files
                </Text>
              </div>
            </Group>
          </Dropzone>
          {mediaError ? (
            <Text size="xs" c="red" role="alert">
              {mediaError}
            </Text>
          ) : null}
          <SelectedFileList
            files={media}
            label="Selected media files"
            disabled={busy}
            onRemove={(i) => setMedia((prev) => prev.filter((_, j) => j !== i))}
          />
        </Stack>

        <Stack gap={6}>
          <Text size="sm" fw={600} id="document-label">
            Compliance document
          </Text>
          <Dropzone
            onDrop={(files) => {
              setDocumentError(null);
              if (files[0]) setDocument(files[0]);
            }}
            onReject={(r) => setDocumentError(rejectionText(r, 'PDF, DOC or DOCX'))}
            accept={DOCUMENT_ACCEPT}
            multiple={false}
            disabled={busy}
            name={COMPLIANCE_RULES.documentField}
            inputProps={{ 'aria-labelledby': 'document-label' }}
            aria-labelledby="document-label"
            p="md"
          >
            <Group justify="center" gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={32} stroke={1.5} />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={32} stroke={1.5} />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconFileUpload size={32} stroke={1.5} />
              </Dropzone.Idle>
              <div>
                <Text size="sm">Drop the document here or click to choose</Text>
                <Text size="xs" c="dimmed">
                  PDF, DOC or DOCX, one file
                </Text>
              </div>
            </Group>
          </Dropzone>
          {documentError ? (
            <Text size="xs" c="red" role="alert">
              {documentError}
            </Text>
          ) : null}
          <SelectedFileList
            files={document ? [document] : []}
            label="Selected document"
            disabled={busy}
            onRemove={() => setDocument(null)}
          />
        </Stack>

        {progress !== null ? (
          <Stack gap={4}>
            <Text size="sm" id="upload-progress-label">
              {progress < 100 ? `Uploading… ${progress}%` : 'Upload complete, saving…'}
            </Text>
            <Progress
              value={progress}
              animated={progress < 100}
              aria-labelledby="upload-progress-label"
            />
          </Stack>
        ) : (
          <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} p="xs">
            <Text size="xs">Closing this dialog without submitting cancels the application.</Text>
          </Alert>
        )}

        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={handleClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={handleSubmit} loading={busy}>
            Submit Application
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
