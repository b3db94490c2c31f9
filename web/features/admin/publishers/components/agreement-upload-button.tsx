import { Button, FileButton } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { toast } from '../../../../lib/notify.ts';
import { AGREEMENT_ACCEPT, useUploadAgreement } from '../api/upload-agreement.ts';

const allowed = /\.(pdf|docx?)$/i;

/** Uploads (or replaces) a publisher's marketing agreement: pdf, doc or docx. */
export function AgreementUploadButton({
  publisher,
  size = 'xs',
}: {
  publisher: { id: string; name: string | null; email: string; has_agreement: boolean };
  size?: 'xs' | 'sm';
}) {
  const mutation = useUploadAgreement();
  const who = publisher.name || publisher.email;

  const handleFile = (file: File | null) => {
    if (!file) return;
    if (!allowed.test(file.name)) {
      toast({
        title: 'Upload Failed',
        description: 'The agreement must be a PDF, DOC or DOCX file.',
        variant: 'destructive',
      });
      return;
    }
    mutation.mutate(
      { id: publisher.id, file },
      {
        onSuccess: () =>
          toast({
            title: 'Publisher Updated',
            description: `The agreement of ${who} has been uploaded.`,
          }),
        onError: (err) =>
          toast({ title: 'Upload Failed', description: err.message, variant: 'destructive' }),
      },
    );
  };

  return (
    <FileButton onChange={handleFile} accept={AGREEMENT_ACCEPT}>
      {(props) => (
        <Button
          {...props}
          onClick={(e) => {
            e.stopPropagation();
            props.onClick();
          }}
          size={size}
          variant="default"
          leftSection={<IconUpload size={14} />}
          loading={mutation.isPending}
          aria-label={`${publisher.has_agreement ? 'Replace' : 'Upload'} agreement of ${who}`}
        >
          {publisher.has_agreement ? 'Replace agreement' : 'Upload agreement'}
        </Button>
      )}
    </FileButton>
  );
}
