import type { SignatureDocument } from '@contract/documents.ts';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { PagedTable } from '../paged-table.tsx';
import { useLocalList } from '../use-list-params.ts';
import { SendDocumentModal } from './send-document-modal.tsx';
import { signatureColumns } from './signature-columns.tsx';
import { useSignatureList } from './signatures-api.ts';

/**
 * The admin's publisher page → Signatures (issue 33): this publisher's agreements and IOs in
 * force, unsigned and expired ones plain to see, and "Send for signature".
 */
export function PublisherSignaturesCard({
  publisher,
}: {
  publisher: { id: string; label: string };
}) {
  const list = useLocalList();
  const query = useSignatureList({
    publisher_id: publisher.id,
    page: list.page,
    page_size: list.pageSize,
  });
  const [sending, setSending] = useState(false);
  const items = query.data?.items ?? [];
  const open = items.filter((d) => d.status !== 'signed').length;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="publisher-signatures">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="publisher-signatures">
              Signatures
            </Title>
            {items.length ? (
              <Text size="sm" c={open ? 'red.8' : 'dimmed'}>
                {open ? `${open} not signed or expired` : 'Everything sent is signed.'}
              </Text>
            ) : null}
          </div>
          <Button
            size="sm"
            variant="light"
            leftSection={<IconSend size={16} />}
            onClick={() => setSending(true)}
          >
            Send for signature
          </Button>
        </Group>
        <PagedTable<SignatureDocument>
          label="Documents sent for signature"
          columns={signatureColumns()}
          list={list}
          query={query}
          errorTitle="Error loading documents"
          emptyTitle="Nothing sent for signature yet."
        />
      </Stack>
      {sending ? (
        <SendDocumentModal publisher={publisher} onClose={() => setSending(false)} />
      ) : null}
    </Card>
  );
}
