import { TAX_FORM_LABELS } from '@contract/money.ts';
import { Anchor, Badge, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { FileUploadButton } from '@/components/file-upload-button.tsx';
import { useTaxForm, useUploadTaxForm } from '@/features/publisher/api/tax-form.ts';
import { formatDate } from '@/lib/format.ts';

const COLOR = { not_submitted: 'red', submitted: 'yellow', approved: 'teal' } as const;

/**
 * The publisher's tax form (issue 27): they upload their W-9 (US) or W-8 (elsewhere) as a PDF;
 * the network reviews it and sets the status. Payouts may wait until it is approved.
 */
export function TaxFormCard() {
  const form = useTaxForm();
  const upload = useUploadTaxForm();
  const f = form.data;
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label="Tax form">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} maw={560}>
          <Group gap="xs">
            <Text fw={600}>Tax form</Text>
            {f ? (
              <Badge color={COLOR[f.status]} variant="light">
                {TAX_FORM_LABELS[f.status]}
              </Badge>
            ) : (
              <Skeleton h={18} w={90} />
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {f?.status === 'approved'
              ? `Approved by the network${f.reviewed_at ? ` on ${formatDate(f.reviewed_at)}` : ''}.`
              : f?.status === 'submitted'
                ? 'Received: the network reviews it and sets the status. Payouts may wait until it is approved.'
                : 'Upload your W-9 (US) or W-8 (outside the US) as a PDF. Payouts may wait until the network approves it.'}
          </Text>
          {f?.file ? (
            <Text size="sm">
              <Anchor href={f.file.url} target="_blank" rel="noopener">
                {f.file.name}
              </Anchor>
              {f.uploaded_at ? ` · uploaded ${formatDate(f.uploaded_at)}` : ''}
            </Text>
          ) : null}
        </Stack>
        <FileUploadButton
          label={f?.file ? 'Upload a new form' : 'Upload tax form'}
          ariaLabel="Upload your tax form (PDF)"
          accept=".pdf,application/pdf"
          isAllowed={(name) => name.toLowerCase().endsWith('.pdf')}
          wrongType={{ title: 'Not a PDF', description: 'Upload the tax form as a PDF file.' }}
          size="sm"
          upload={upload}
          vars={(file) => file}
          done={{ title: 'Tax form uploaded', description: 'The network will review it.' }}
          failTitle="Upload failed"
        />
      </Group>
    </Card>
  );
}
