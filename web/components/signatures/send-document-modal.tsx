import type { DocumentKind } from '@contract/documents.ts';
import { SegmentedControl, Select, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormModal } from '@/components/form-modal.tsx';
import { PublisherSelect } from '@/components/search-select.tsx';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { toast } from '@/lib/notify.ts';
import { PdfFileInput } from './pdf-file-input.tsx';
import { useSendDocument } from './signatures-api.ts';

/** The publisher's approved applications, the ones an IO can be for. */
function useApprovedApplications(publisherId: string | null) {
  return useQuery({
    queryKey: ['admin', 'publishers', publisherId, 'for-io'],
    enabled: Boolean(publisherId),
    queryFn: ({ signal }) => apiCall(apiRoutes.admin.publisher(publisherId!), { signal }),
    select: (d) =>
      d.applications
        .filter((a) => a.status === 'approved')
        .map((a) => ({ value: a.id, label: a.offer_title })),
  });
}

type Errors = Partial<Record<'publisher_id' | 'application_id' | 'file', string>>;

/**
 * "Send for signature": a PDF sent to a publisher as their agreement or an IO (for one of their
 * approved applications). One of the same kind already sent becomes the previous version.
 */
export function SendDocumentModal({
  onClose,
  publisher,
}: {
  onClose: () => void;
  /** Set on the publisher's page: the publisher is not chosen. */
  publisher?: { id: string; label: string };
}) {
  const send = useSendDocument();
  const [publisherId, setPublisherId] = useState<string | null>(publisher?.id ?? null);
  const [kind, setKind] = useState<DocumentKind>('agreement');
  const [applicationId, setApplicationId] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState<'file' | 'template'>('file');
  const [errors, setErrors] = useState<Errors>({});
  const applications = useApprovedApplications(kind === 'io' ? publisherId : null);

  const submit = (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    const found: Errors = {};
    if (!publisherId) found.publisher_id = 'Please select a publisher.';
    if (kind === 'io' && !applicationId)
      found.application_id = 'Choose the application this IO is for.';
    if (source === 'template') {
      // The server fills the Settings template in.
    } else if (!file) found.file = 'Please choose a PDF.';
    else if (!/\.pdf$/i.test(file.name)) found.file = 'The document must be a PDF.';
    setErrors(found);
    if (Object.keys(found).length) return;
    const form = new FormData();
    form.append('publisher_id', publisherId!);
    form.append('kind', kind);
    if (kind === 'io' && applicationId) form.append('application_id', applicationId);
    if (title.trim()) form.append('title', title.trim());
    if (source === 'template') form.append('template', kind);
    else form.append('file', file!, file!.name);
    send.mutate(form, {
      onSuccess: () => {
        toast({ title: 'Document Sent', description: 'The publisher was e-mailed to sign it.' });
        onClose();
      },
      onError: (err) => setErrors({ file: err.message }),
    });
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title="Send for signature"
      dirty={Boolean(file || title)}
      pending={send.isPending}
      submitLabel="Send"
      onSubmit={submit}
    >
      {publisher ? (
        <TextInput label="Publisher" value={publisher.label} readOnly />
      ) : (
        <PublisherSelect
          label="Publisher"
          placeholder="Search by name or e-mail"
          value={publisherId}
          onChange={(v) => setPublisherId(v)}
          error={errors.publisher_id}
          required
        />
      )}
      <Select
        label="Kind"
        data={[
          { value: 'agreement', label: 'Agreement' },
          { value: 'io', label: 'Insertion order (IO)' },
        ]}
        value={kind}
        onChange={(v) => setKind((v as DocumentKind) ?? 'agreement')}
        allowDeselect={false}
      />
      {kind === 'io' ? (
        <Select
          label="Application"
          placeholder={publisherId ? 'An approved application' : 'Choose the publisher first'}
          data={applications.data ?? []}
          value={applicationId}
          onChange={setApplicationId}
          error={errors.application_id}
          nothingFoundMessage="No approved application"
          required
        />
      ) : null}
      <TextInput
        label="Title"
        description={
          source === 'template'
            ? 'Shown to the publisher; the template’s first line when empty.'
            : 'Shown to the publisher; the file name when empty.'
        }
        value={title}
        maxLength={200}
        onChange={(e) => setTitle(e.currentTarget.value)}
      />
      <SegmentedControl
        aria-label="Document source"
        value={source}
        onChange={(v) => setSource(v as 'file' | 'template')}
        data={[
          { value: 'file', label: 'Upload a PDF' },
          { value: 'template', label: 'Send from template' },
        ]}
      />
      {source === 'template' ? (
        <Text size="sm" c="dimmed" role="note">
          The {kind === 'io' ? 'IO' : 'agreement'} template of Settings (Signatures → Templates) is
          made into a PDF with the publisher’s
          {kind === 'io' ? ' and the offer’s' : ''} fields filled in.
          {errors.file ? (
            <Text span c="red" display="block">
              {errors.file}
            </Text>
          ) : null}
        </Text>
      ) : (
        <PdfFileInput label="PDF" value={file} onChange={setFile} error={errors.file} required />
      )}
    </FormModal>
  );
}
