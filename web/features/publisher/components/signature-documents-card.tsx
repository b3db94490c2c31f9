import type { SignatureDocument } from '@contract/documents.ts';
import { Button, Group, Text } from '@mantine/core';
import { IconSignature } from '@tabler/icons-react';
import { Link } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import { useMySignatures } from '@/components/signatures/signatures-api.ts';
import { StatusBadge } from '@/components/status-badge.tsx';
import { formatDate } from '@/lib/format.ts';
import { TitledCard } from './titled-card.tsx';

const kindName = (d: SignatureDocument) => (d.kind === 'io' ? 'Insertion order' : 'Agreement');

/** One document to sign or signed: its name, status and the way to it. */
function Row({ d }: { d: SignatureDocument }) {
  const when = d.signed_at
    ? `signed ${formatDate(d.signed_at)}${d.expires_at ? `, sign again by ${formatDate(d.expires_at)}` : ''}`
    : `sent ${formatDate(d.sent_at)}`;
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <div style={{ minWidth: 0, flex: '1 1 240px' }}>
        <Group gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {d.title}
          </Text>
          <StatusBadge status={d.status} />
        </Group>
        <Text size="sm" c="dimmed">
          {kindName(d)}, version {d.version}
          {d.offer_title ? ` · ${d.offer_title}` : ''} · {when}
        </Text>
      </div>
      <Button
        component={Link}
        to={publisherPaths.document(d.id)}
        variant={d.can_sign ? 'filled' : 'light'}
        leftSection={d.can_sign ? <IconSignature size={16} /> : undefined}
      >
        {d.can_sign ? 'Read and sign' : 'Open'}
      </Button>
    </Group>
  );
}

/** My Documents → Documents to sign (issue 33): what the network sent for the publisher's signature. */
export function SignatureDocumentsCard() {
  const query = useMySignatures();
  const items = query.data?.items ?? [];
  if (!items.length) return null;
  return (
    <TitledCard id="to-sign" title="Documents to sign">
      {items.map((d) => (
        <Row key={d.id} d={d} />
      ))}
    </TitledCard>
  );
}
