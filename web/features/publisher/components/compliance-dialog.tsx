import '@mantine/dropzone/styles.css';
import { COMPLIANCE_RULES, PUBLISHER_MESSAGES, type PublisherOffer } from '@contract/publisher.ts';
import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type DropzoneProps, type FileRejection } from '@mantine/dropzone';
import { IconFileUpload, IconInfoCircle, IconMusic, IconUpload, IconX } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useSubmitCompliance } from '@/features/publisher/api/submit-compliance.ts';
import { ApiError } from '@/lib/api-client.ts';
import { failedToast, toast } from '@/lib/notify.ts';
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
 * A labelled drop area of the form (`id` names its label), its rejection message, then what
 * it holds (`children`: the chosen files).
 */
function DropArea({
  id,
  label,
  idleIcon,
  prompt,
  hint,
  error,
  children,
  ...dropzone
}: {
  id: string;
  label: string;
  idleIcon: ReactNode;
  prompt: string;
  hint: string;
  error: string | null;
  children: ReactNode;
} & Pick<DropzoneProps, 'onDrop' | 'onReject' | 'accept' | 'multiple' | 'disabled' | 'name'>) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600} id={id}>
        {label}
      </Text>
      <Dropzone {...dropzone} inputProps={{ 'aria-labelledby': id }} aria-labelledby={id} p="md">
        <Group justify="center" gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
          <Dropzone.Accept>
            <IconUpload size={32} stroke={1.5} />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={32} stroke={1.5} />
          </Dropzone.Reject>
          <Dropzone.Idle>{idleIcon}</Dropzone.Idle>
          <div>
            <Text size="sm">{prompt}</Text>
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          </div>
        </Group>
      </Dropzone>
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      {children}
    </Stack>
  );
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
          failedToast('Submission Failed')(err);
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

        <DropArea
          id="media-label"
          label="Media files"
          onDrop={(files) => {
            setMediaError(null);
            setMedia((prev) => [...prev, ...files]);
          }}
          onReject={(r) => setMediaError(rejectionText(r, 'MP3 or MP4'))}
          accept={MEDIA_ACCEPT}
          multiple
          disabled={busy}
          name={COMPLIANCE_RULES.mediaField}
          idleIcon={<IconMusic size={32} stroke={1.5} />}
          prompt="Drop call recordings here or click to choose"
          hint={`MP3 or MP4, up to ${COMPLIANCE_RULES.maxMediaFiles} files`}
          error={mediaError}
        >
          <SelectedFileList
            files={media}
            label="Selected media files"
            disabled={busy}
            onRemove={(i) => setMedia((prev) => prev.filter((_, j) => j !== i))}
          />
        </DropArea>

        <DropArea
          id="document-label"
          label="Compliance document"
          onDrop={(files) => {
            setDocumentError(null);
            if (files[0]) setDocument(files[0]);
          }}
          onReject={(r) => setDocumentError(rejectionText(r, 'PDF, DOC or DOCX'))}
          accept={DOCUMENT_ACCEPT}
          multiple={false}
          disabled={busy}
          name={COMPLIANCE_RULES.documentField}
          idleIcon={<IconFileUpload size={32} stroke={1.5} />}
          prompt="Drop the document here or click to choose"
          hint="PDF, DOC or DOCX, one file"
          error={documentError}
        >
          <SelectedFileList
            files={document ? [document] : []}
            label="Selected document"
            disabled={busy}
            onRemove={() => setDocument(null)}
          />
        </DropArea>

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
