import type { AuditEntry, PublisherDetail } from '@contract/admin.ts';
import { publisherReasons } from '@contract/review-reasons.ts';
import { displayName } from '@contract/uploads.ts';
import {
  Anchor,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconFileText } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { BalanceCards } from '@/components/balance-cards.tsx';
import { QueryErrorState } from '@/components/query-error-state.tsx';
import { ResetTwoFactorButton } from '@/components/reset-two-factor-button.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { usePublisher } from '@/features/admin/publishers/api/get-publisher.ts';
import { ApiError } from '@/lib/api-client.ts';
import { formatDate, formatDateTime } from '@/lib/format.ts';
import { AgreementUploadButton } from './agreement-upload-button.tsx';
import { PayoutHoldCard } from './payout-hold-card.tsx';
import { PublisherStatusActions } from './publisher-status-actions.tsx';

function BackLink() {
  return (
    <Anchor component={Link} to={adminPaths.publishers} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        All publishers
      </Group>
    </Anchor>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </Stack>
  );
}

const actionLabels: Record<string, string> = {
  'publisher.approve': 'Approved',
  'publisher.reject': 'Rejected',
  'publisher.block': 'Blocked',
  'publisher.unblock': 'Unblocked',
  'publisher.agreement': 'Agreement uploaded',
  'mfa.enroll': 'Two-factor: app added',
  'mfa.challenge': 'Two-factor: code asked',
  'mfa.verify': 'Two-factor: code accepted',
  'mfa.verify_failed': 'Two-factor: code refused',
  'mfa.unenroll': 'Two-factor: app removed',
  'mfa.reset': 'Two-factor reset',
  'payment_details.update': 'Payment details changed',
  'tax_form.upload': 'Tax form uploaded',
  'tax_form.status': 'Tax form status set',
  'payout_hold.review': 'Payouts put under review',
  'payout_hold.review_lifted': 'Payout review lifted',
  'payout_hold.release': 'Hold released for the next run',
  'adjustment.create': 'Adjustment',
};

/** "status: pending → approved" for the fields an audit entry changed. */
function describeChange(entry: AuditEntry): string {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const show = (v: unknown) =>
    v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return keys
    .filter((k) => show(before[k]) !== show(after[k]))
    .map((k) => {
      // Storage keys are long and meaningless to a person; the file name is enough.
      const trim = (v: unknown) =>
        k.endsWith('_url') && typeof v === 'string'
          ? displayName(v)
          : k === 'reason' && typeof v === 'string'
            ? (publisherReasons[v as keyof typeof publisherReasons] ?? v)
            : show(v);
      return `${k.replaceAll('_', ' ')}: ${trim(before[k])} → ${trim(after[k])}`;
    })
    .join('; ');
}

function DetailSkeleton() {
  return (
    <Stack gap="lg" role="status" aria-busy="true" aria-label="Loading">
      <Skeleton height={16} width={120} />
      <Skeleton height={32} width="40%" />
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Skeleton height={90} />
        <Skeleton height={90} />
        <Skeleton height={90} />
      </SimpleGrid>
      <Skeleton height={220} />
      <Skeleton height={180} />
    </Stack>
  );
}

function Applications({ items }: { items: PublisherDetail['applications'] }) {
  if (!items.length) {
    return (
      <Text size="sm" c="dimmed">
        This publisher has not applied to any offer yet.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Offer</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Applied</Table.Th>
            <Table.Th>IO</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((a) => (
            <Table.Tr key={a.id}>
              <Table.Td>{a.offer_title}</Table.Td>
              <Table.Td>
                <StatusBadge status={a.status} subject="application" />
              </Table.Td>
              <Table.Td>{formatDate(a.created_at)}</Table.Td>
              <Table.Td>
                {a.io ? (
                  <Anchor href={a.io.url} target="_blank" rel="noopener" size="sm">
                    {a.io.name}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    {a.status === 'approved' ? 'No IO yet' : '—'}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function History({ items }: { items: AuditEntry[] }) {
  if (!items.length) {
    return (
      <Text size="sm" c="dimmed">
        No changes recorded yet.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>Change</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.created_at)}</Table.Td>
              <Table.Td>{actionLabels[e.action] ?? e.action}</Table.Td>
              <Table.Td>{e.actor_email ?? 'system'}</Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {describeChange(e)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /admin/publishers/:id: profile, status actions, agreement, applications and history. */
export function PublisherDetailPage() {
  const { id = '' } = useParams();
  const query = usePublisher(id);
  const notFound = query.error instanceof ApiError && [400, 404].includes(query.error.status);
  useErrorToast(notFound ? null : query.error, 'Error loading publishers');

  if (query.isPending) return <DetailSkeleton />;
  if (notFound) {
    return (
      <Stack gap="md">
        <BackLink />
        <Title order={1}>Publisher not found</Title>
        <Text c="dimmed">This publisher does not exist or has been removed.</Text>
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Stack gap="md">
        <BackLink />
        <QueryErrorState
          title="Error loading publishers"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </Stack>
    );
  }

  const { publisher: p, agreement, applications, totals, audit, two_factor_apps } = query.data;
  return (
    <Stack gap="lg">
      <BackLink />
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1} fz={{ base: 24, sm: 28 }}>
              {p.name || p.email}
            </Title>
            <StatusBadge status={p.status} subject="publisher" />
          </Group>
          <Text c="dimmed" size="sm">
            {p.email} · signed up {formatDate(p.created_at)}
          </Text>
        </Stack>
        <Group gap="sm">
          <PublisherStatusActions publisher={p} size="sm" />
        </Group>
      </Group>

      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Calls
        </Text>
        <Text fw={700}>{totals.leads.toLocaleString()}</Text>
      </Group>
      <BalanceCards balance={totals} audience="admin" />
      <PayoutHoldCard publisherId={p.id} />

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg">
          <Title order={2} fz="lg" mb="md">
            Profile
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Field label="Full legal name">{p.name}</Field>
            <Field label="Business legal name">{p.business_legal_name}</Field>
            <Field label="Email">{p.email}</Field>
            <Field label="Phone">{p.phone_number}</Field>
            <Field label="WhatsApp">{p.whatsapp_number}</Field>
            <Field label="Microsoft Teams ID">{p.ms_teams_id}</Field>
            <Field label="Address">{p.address}</Field>
          </SimpleGrid>
        </Card>
        <Card withBorder padding="lg">
          <Title order={2} fz="lg" mb="md">
            Agreement
          </Title>
          <Stack gap="md" align="flex-start">
            {agreement ? (
              <Button
                component="a"
                href={agreement.url}
                target="_blank"
                rel="noopener"
                variant="light"
                leftSection={<IconFileText size={16} />}
              >
                Open {agreement.name}
              </Button>
            ) : (
              <Text size="sm" c="dimmed">
                No agreement uploaded yet.
              </Text>
            )}
            <AgreementUploadButton publisher={p} size="sm" />
            <Text size="xs" c="dimmed">
              PDF, DOC or DOCX.
            </Text>
          </Stack>
        </Card>
      </SimpleGrid>

      <Card withBorder padding="lg">
        <Title order={2} fz="lg" mb="xs">
          Two-factor sign-in
        </Title>
        <Group justify="space-between" align="center" gap="md">
          <Text size="sm" c={two_factor_apps ? undefined : 'dimmed'}>
            {two_factor_apps === 0
              ? 'Off: this publisher signs in with the password alone.'
              : `On: ${two_factor_apps === 1 ? 'one authenticator app' : `${two_factor_apps} authenticator apps`}.`}
          </Text>
          <ResetTwoFactorButton user={p} apps={two_factor_apps} />
        </Group>
      </Card>

      <Card withBorder padding="lg">
        <Title order={2} fz="lg" mb="md">
          Applications
        </Title>
        <Applications items={applications} />
      </Card>

      <Card withBorder padding="lg">
        <Title order={2} fz="lg" mb="md">
          History
        </Title>
        <History items={audit} />
      </Card>
    </Stack>
  );
}
