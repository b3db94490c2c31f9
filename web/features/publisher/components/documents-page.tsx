import type { SignedFile } from '@contract/publisher.ts';
import { Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconDownload,
  IconExternalLink,
  IconFileDescription,
  IconFileOff,
} from '@tabler/icons-react';
import { QueryError } from '@/components/lists/query-error.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { useDocuments } from '@/features/publisher/api/get-documents.ts';
import { toast } from '@/lib/notify.ts';
import { usePublicSettings } from '@/lib/public-settings.ts';
import { SignatureDocumentsCard } from './signature-documents-card.tsx';
import { downloadFile, isExpired, viewFile } from './signed-file.ts';

const ERROR_TITLE = 'Error fetching document';

/** /dashboard/documents: 'My Documents', the publisher's own marketing agreement. */
export function DocumentsPage() {
  const documents = useDocuments();
  const { data: settings } = usePublicSettings();
  useErrorToast(documents.error, ERROR_TITLE);
  const agreement = documents.data?.agreement ?? null;

  async function withFreshUrl(use: (file: SignedFile) => void) {
    let file = agreement;
    if (!file || isExpired(file)) {
      // The link outlived its hour (or was never loaded): ask for a fresh one first.
      const fresh = await documents.refetch();
      if (fresh.error || !fresh.data?.agreement) {
        toast({
          title: ERROR_TITLE,
          description: fresh.error?.message ?? 'Your agreement is no longer available.',
          variant: 'destructive',
        });
        return;
      }
      file = fresh.data.agreement;
    }
    use(file);
  }

  return (
    <Stack gap="lg">
      <Title order={1}>My Documents</Title>
      <SignatureDocumentsCard />
      {documents.isError && !documents.data ? (
        <QueryError title={ERROR_TITLE} query={documents} />
      ) : documents.isPending ? (
        <Skeleton height={120} radius="md" role="status" aria-label="Loading documents" />
      ) : agreement ? (
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="agreement">
          <Group justify="space-between" wrap="wrap" gap="md">
            <Group wrap="nowrap" gap="md" style={{ minWidth: 0, flex: '1 1 260px' }}>
              <ThemeIcon variant="light" size={48} radius="md" aria-hidden>
                <IconFileDescription size={26} />
              </ThemeIcon>
              <div style={{ minWidth: 0 }}>
                <Title order={2} size="h4" id="agreement">
                  Marketing Agreement
                </Title>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {agreement.file_name}
                </Text>
              </div>
            </Group>
            <Group gap="sm">
              <Button
                variant="light"
                leftSection={<IconExternalLink size={16} />}
                onClick={() => void withFreshUrl(viewFile)}
              >
                View
              </Button>
              <Button
                leftSection={<IconDownload size={16} />}
                onClick={() => void withFreshUrl(downloadFile)}
              >
                Download
              </Button>
            </Group>
          </Group>
        </Card>
      ) : (
        <Card withBorder radius="md" padding="xl">
          <Group wrap="nowrap" align="flex-start" gap="md">
            <ThemeIcon variant="light" color="gray" size={48} radius="md" aria-hidden>
              <IconFileOff size={26} />
            </ThemeIcon>
            <div>
              <Text fw={600}>No documents yet.</Text>
              <Text size="sm" c="dimmed" mt={4}>
                Your marketing agreement will appear here once the network uploads it.
                {settings?.support_email ? ` Questions? Write to ${settings.support_email}.` : ''}
              </Text>
            </div>
          </Group>
        </Card>
      )}
    </Stack>
  );
}
