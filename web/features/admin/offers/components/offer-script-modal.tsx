import type { AdminOffer } from '@contract/admin.ts';
import { type AdminOfferScript, scriptAckModeLabels } from '@contract/scripts.ts';
import { Accordion, Badge, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { QueryCard } from '@/components/query-card.tsx';
import { ScriptDiffView } from '@/components/scripts/script-diff-view.tsx';
import { ScrollTable } from '@/components/scroll-table.tsx';
import { useOfferScript } from '@/features/admin/offers/api/offer-script.ts';
import { formatDateTime } from '@/lib/format.ts';

/** Each approved publisher and the latest version they acknowledged. */
function Acknowledgers({ data }: { data: AdminOfferScript }) {
  return (
    <ScrollTable
      count={data.publishers.length}
      empty="No publisher is approved for this offer yet."
      minWidth={420}
      heads={['Publisher', 'Acknowledged', 'When']}
      aria-label="Acknowledgements by publisher"
      data-testid="script-acknowledgers"
    >
      {data.publishers.map((p) => (
        <Table.Tr key={p.publisher_id}>
          <Table.Td>
            <Text size="sm">{p.name ?? p.email}</Text>
            {p.name ? (
              <Text size="xs" c="dimmed">
                {p.email}
              </Text>
            ) : null}
          </Table.Td>
          <Table.Td>
            {p.acknowledged_version === null ? (
              <Badge color="red" variant="light">
                Not yet
              </Badge>
            ) : (
              <Badge color={p.current ? 'green' : 'yellow'} variant="light">
                Version {p.acknowledged_version}
                {p.current ? ' (current)' : ''}
              </Badge>
            )}
          </Table.Td>
          <Table.Td>
            <Text size="sm">{formatDateTime(p.acknowledged_at)}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </ScrollTable>
  );
}

/** Every version, newest first: who saved it when, and its diff against the one before. */
function Versions({ data }: { data: AdminOfferScript }) {
  if (data.versions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This offer has no script yet. Saving script instructions makes version 1.
      </Text>
    );
  }
  const acksOf = (version: number) => data.acknowledgements.filter((a) => a.version === version);
  return (
    <Accordion
      variant="separated"
      defaultValue={String(data.versions[0]?.version)}
      data-testid="script-versions"
    >
      {data.versions.map((v) => (
        <Accordion.Item key={v.version} value={String(v.version)}>
          <Accordion.Control>
            <Group gap="xs" wrap="wrap">
              <Text fw={600}>Version {v.version}</Text>
              {v.version === data.current_version ? <Badge variant="light">Current</Badge> : null}
              <Text size="sm" c="dimmed">
                {formatDateTime(v.created_at)} · {v.created_by_email ?? 'before versions were kept'}{' '}
                · +{v.added} −{v.removed}
              </Text>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              <ScriptDiffView diff={v.diff} label={`Changes in version ${v.version}`} />
              <Text size="sm" fw={500}>
                Acknowledged by
              </Text>
              {acksOf(v.version).length === 0 ? (
                <Text size="sm" c="dimmed">
                  Nobody yet.
                </Text>
              ) : (
                <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                  {acksOf(v.version).map((a) => (
                    <Text component="li" size="sm" key={`${a.publisher_id}-${a.version}`}>
                      {a.email} · {formatDateTime(a.acknowledged_at)}
                    </Text>
                  ))}
                </Stack>
              )}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

/** The offer's script versions and acknowledgements (issue 33), from the offers list. */
export function OfferScriptModal({
  offer,
  onClose,
}: {
  offer: AdminOffer | null;
  onClose: () => void;
}) {
  const query = useOfferScript(offer?.id ?? null);
  return (
    <Modal
      opened={offer !== null}
      onClose={onClose}
      title={`Script versions: ${offer?.title ?? ''}`}
      size="xl"
    >
      <QueryCard query={query} errorTitle="Could not load the script versions">
        {(data) => (
          <Stack gap="md">
            <Text size="sm">
              Late publishers (more than {data.ack_days} day(s) after a new version):{' '}
              {scriptAckModeLabels[data.ack_mode].toLowerCase()}. Change it in Edit offer.
            </Text>
            <Title order={3} size="h5">
              Publishers
            </Title>
            <Acknowledgers data={data} />
            <Title order={3} size="h5">
              Versions
            </Title>
            <Versions data={data} />
          </Stack>
        )}
      </QueryCard>
    </Modal>
  );
}
