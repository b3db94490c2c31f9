import {
  Button,
  Group,
  Pagination,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { showFailure } from '@/components/forms/show-failure.ts';
import { OfferSelect, PublisherSelect } from '@/components/search-select.tsx';
import {
  useAttachExternalId,
  useDetachExternalId,
  useExternalIds,
} from '@/features/admin/integrations/api/external-ids.ts';
import { ApiError } from '@/lib/api-client.ts';
import { toast } from '@/lib/notify.ts';
import { IntegrationDialog, type IntegrationDialogProps } from './integration-dialog.tsx';

type Kind = 'publisher' | 'offer';

/** Each kind's words and its picker of ours. */
const kinds = {
  publisher: {
    name: 'Publisher',
    theirs: "Tracker's publisher id",
    ours: 'Our publisher',
    search: 'Search publishers',
    missing: 'Please select a publisher.',
    Select: PublisherSelect,
  },
  offer: {
    name: 'Offer',
    theirs: "Tracker's campaign id",
    ours: 'Our offer',
    search: 'Search offers',
    missing: 'Please select an offer.',
    Select: OfferSelect,
  },
} as const;

/**
 * The tracker's ids for our publishers and offers on one integration: a call naming
 * publisher "RB-17" goes to the publisher RB-17 is attached to. Mounted only while open, so
 * each opening starts empty.
 */
export function ExternalIdsModal({ integration, onClose }: IntegrationDialogProps) {
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<Kind>('publisher');
  const [externalId, setExternalId] = useState('');
  const [targetId, setTargetId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const list = useExternalIds(integration.id, page);
  const attach = useAttachExternalId();
  const detach = useDetachExternalId();

  async function handleAttach(event: React.FormEvent) {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!externalId.trim()) next.external_id = 'External id is required.';
    if (!targetId) next.target_id = kinds[kind].missing;
    setErrors(next);
    if (Object.keys(next).length || !targetId) return;
    try {
      const m = await attach.mutateAsync({
        integrationId: integration.id,
        body: { kind, external_id: externalId.trim(), target_id: targetId },
      });
      toast({ title: 'Id Attached', description: `${m.external_id} → ${m.target_label}` });
      setExternalId('');
      setTargetId(null);
    } catch (err) {
      if (err instanceof ApiError && err.details) {
        setErrors(Object.fromEntries(Object.entries(err.details).map(([k, v]) => [k, v[0] ?? ''])));
      }
      showFailure('Failed to attach id', err);
    }
  }

  const TargetSelect = kinds[kind].Select;
  const items = list.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / 10));

  return (
    <IntegrationDialog
      opened
      onClose={onClose}
      title={`Tracker ids · ${integration.name}`}
      size="lg"
      fullScreen={false}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Attach the tracker's publisher ids and campaign ids to ours. Calls may also send our own
          publisher and offer ids directly.
        </Text>
        <form onSubmit={handleAttach} noValidate>
          <Stack gap="sm">
            <SegmentedControl
              value={kind}
              onChange={(v) => {
                setKind(v as Kind);
                setTargetId(null);
              }}
              data={[
                { value: 'publisher', label: 'Publisher' },
                { value: 'offer', label: 'Offer (campaign)' },
              ]}
            />
            <Group align="flex-start" grow wrap="wrap">
              <TextInput
                label={kinds[kind].theirs}
                placeholder="e.g. RB-PUB-17"
                value={externalId}
                error={errors.external_id}
                onChange={(e) => setExternalId(e.currentTarget.value)}
              />
              <TargetSelect
                label={kinds[kind].ours}
                placeholder={kinds[kind].search}
                value={targetId}
                error={errors.target_id}
                onChange={(v) => setTargetId(v)}
              />
            </Group>
            <Group justify="flex-end">
              <Button type="submit" loading={attach.isPending}>
                Attach
              </Button>
            </Group>
          </Stack>
        </form>
        {list.isPending ? (
          <Skeleton height={80} />
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="md">
            No tracker ids attached yet.
          </Text>
        ) : (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Tracker id</Table.Th>
                <Table.Th>Ours</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>{kinds[m.kind].name}</Table.Td>
                  <Table.Td ff="monospace">{m.external_id}</Table.Td>
                  <Table.Td>{m.target_label}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${m.external_id}`}
                      loading={detach.isPending && detach.variables?.mappingId === m.id}
                      onClick={() =>
                        detach
                          .mutateAsync({ integrationId: integration.id, mappingId: m.id })
                          .catch((err: unknown) => showFailure('Failed to remove id', err))
                      }
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} size="sm" /> : null}
      </Stack>
    </IntegrationDialog>
  );
}
