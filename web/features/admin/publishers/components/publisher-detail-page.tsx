import type { AuditEntry, PublisherDetail } from '@contract/admin.ts';
import { publisherReasons } from '@contract/review-reasons.ts';
import { displayName } from '@contract/uploads.ts';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconFileText } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { BalanceCards } from '@/components/balance-cards.tsx';
import { DetailSkeleton, useDetailGate } from '@/components/detail-gate.tsx';
import { HistoryTable } from '@/components/history-table.tsx';
import { ResetTwoFactorButton } from '@/components/reset-two-factor-button.tsx';
import { ScrollTable } from '@/components/scroll-table.tsx';
import { PublisherSignaturesCard } from '@/components/signatures/publisher-signatures-card.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import { usePublisher } from '@/features/admin/publishers/api/get-publisher.ts';
import { formatDate } from '@/lib/format.ts';
import { AgreementUploadButton } from './agreement-upload-button.tsx';
import { FraudScoreCard } from './fraud-score-card.tsx';
import { PayoutHoldCard } from './payout-hold-card.tsx';
import { PostbacksCard } from './postbacks-card.tsx';
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

/** A titled card of the screen. */
function Panel({
  title,
  titleGap = 'md',
  children,
}: {
  title: string;
  titleGap?: 'md' | 'xs';
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="lg" mb={titleGap}>
        {title}
      </Title>
      {children}
    </Card>
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
  'mfa.recovery_codes_created': 'Two-factor: new recovery codes',
  'mfa.recovery_code_used': 'Two-factor: recovery code used',
  'payment_details.update': 'Payment details changed',
  'tax_form.upload': 'Tax form uploaded',
  'tax_form.status': 'Tax form status set',
  'payout_hold.review': 'Payouts put under review',
  'payout_hold.review_lifted': 'Payout review lifted',
  'payout_hold.release': 'Hold released for the next run',
  'adjustment.create': 'Adjustment',
  'publisher.script_version': 'Offer script changed (to acknowledge)',
  'publisher.script_acknowledged': 'Offer script acknowledged',
  'document.sent': 'Document sent for signature',
  'document.viewed': 'Document opened',
  'document.signed': 'Document signed',
  'document.reminded': 'Signature reminder sent',
  'document.superseded': 'Document replaced by a new version',
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

function Applications({ items }: { items: PublisherDetail['applications'] }) {
  return (
    <ScrollTable
      count={items.length}
      empty="This publisher has not applied to any offer yet."
      minWidth={520}
      heads={['Offer', 'Status', 'Applied', 'IO']}
      striped
      highlightOnHover
    >
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
    </ScrollTable>
  );
}

/** /admin/publishers/:id: profile, status actions, agreement, applications and history. */
export function PublisherDetailPage() {
  const { id = '' } = useParams();
  const query = usePublisher(id);
  const gate = useDetailGate(query, {
    back: <BackLink />,
    skeleton: <DetailSkeleton label="Loading" cardHeight={90} below={[220, 180]} />,
    errorTitle: 'Error loading publishers',
    notFoundTitle: 'Publisher not found',
    notFoundText: 'This publisher does not exist or has been removed.',
  });
  if (gate || !query.data) return gate;

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
      <FraudScoreCard publisherId={p.id} />

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Panel title="Profile">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Field label="Full legal name">{p.name}</Field>
            <Field label="Business legal name">{p.business_legal_name}</Field>
            <Field label="Email">{p.email}</Field>
            <Field label="Phone">{p.phone_number}</Field>
            <Field label="WhatsApp">{p.whatsapp_number}</Field>
            <Field label="Microsoft Teams ID">{p.ms_teams_id}</Field>
            <Field label="Address">{p.address}</Field>
          </SimpleGrid>
        </Panel>
        <Panel title="Agreement">
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
        </Panel>
      </SimpleGrid>

      <Panel title="Two-factor sign-in" titleGap="xs">
        <Group justify="space-between" align="center" gap="md">
          <Text size="sm" c={two_factor_apps ? undefined : 'dimmed'}>
            {two_factor_apps === 0
              ? 'Off: this publisher signs in with the password alone.'
              : `On: ${two_factor_apps === 1 ? 'one authenticator app' : `${two_factor_apps} authenticator apps`}.`}
          </Text>
          <ResetTwoFactorButton user={p} apps={two_factor_apps} />
        </Group>
      </Panel>

      <PublisherSignaturesCard publisher={{ id: p.id, label: p.name || p.email }} />

      <PostbacksCard publisherId={p.id} />

      <Panel title="Applications">
        <Applications items={applications} />
      </Panel>

      <Panel title="History">
        <HistoryTable
          items={audit}
          actionLabels={actionLabels}
          by={(e) => e.actor_email}
          change={describeChange}
        />
      </Panel>
    </Stack>
  );
}
