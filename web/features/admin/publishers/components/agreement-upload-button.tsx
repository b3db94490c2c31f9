import { FileUploadButton } from '@/components/file-upload-button.tsx';
import {
  AGREEMENT_ACCEPT,
  useUploadAgreement,
} from '@/features/admin/publishers/api/upload-agreement.ts';

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

  return (
    <FileUploadButton
      label={publisher.has_agreement ? 'Replace agreement' : 'Upload agreement'}
      ariaLabel={`${publisher.has_agreement ? 'Replace' : 'Upload'} agreement of ${who}`}
      accept={AGREEMENT_ACCEPT}
      isAllowed={(name) => allowed.test(name)}
      wrongType={{
        title: 'Upload Failed',
        description: 'The agreement must be a PDF, DOC or DOCX file.',
      }}
      size={size}
      upload={mutation}
      vars={(file) => ({ id: publisher.id, file })}
      done={{
        title: 'Publisher Updated',
        description: `The agreement of ${who} has been uploaded.`,
      }}
      failTitle="Upload Failed"
    />
  );
}
