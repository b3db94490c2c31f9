import type { VerifyResult } from '@contract/documents.ts';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconShieldX } from '@tabler/icons-react';
import { useState } from 'react';
import { fileForm } from '@/lib/api-client.ts';
import { formatDateTime } from '@/lib/format.ts';
import { PdfFileInput } from './pdf-file-input.tsx';
import { useVerifyDocument } from './signatures-api.ts';

/** "Check a signed PDF": whether a copy is unchanged and sealed by this portal. */
export function VerifyDocumentModal({ onClose }: { onClose: () => void }) {
  const verify = useVerifyDocument();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<VerifyResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const check = () => {
    if (!file) {
      setError('Please choose the PDF to check.');
      return;
    }
    setError(null);
    verify.mutate(fileForm(file), {
      onSuccess: setResult,
      onError: (err) => setError(err.message),
    });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title="Check a signed PDF"
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="md">
        <Text size="sm">
          Upload a signed PDF someone sent you: the portal says whether it is a copy it sealed,
          unchanged since signing.
        </Text>
        <PdfFileInput
          label="Signed PDF"
          value={file}
          onChange={(f) => {
            setFile(f);
            setResult(null);
          }}
          error={error}
        />
        {result ? (
          <Alert
            color={result.valid ? 'green' : 'red'}
            icon={result.valid ? <IconCircleCheck /> : <IconShieldX />}
            title={result.valid ? 'Valid' : 'Not valid'}
            role="status"
          >
            <Text size="sm">{result.message}</Text>
            {result.signed_at ? (
              <Text size="sm">Signed {formatDateTime(result.signed_at)}.</Text>
            ) : null}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={check} loading={verify.isPending}>
            Check
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
