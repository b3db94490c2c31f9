import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BlockCallerModal } from '@/components/block-caller-modal.tsx';
import { Section } from '@/components/lead-detail/lead-detail-parts.tsx';
import { apiCall } from '@/lib/api-client.ts';
import { formatDateTime } from '@/lib/format.ts';
import { fraudKey, fraudRoutes, fraudRuleLabels } from '@/lib/fraud-routes.ts';

const statusColor = { open: 'orange', confirmed: 'red', cleared: 'gray' } as const;

/**
 * The lead's Fraud section (issue 32): each flag with why and its figures, its caller's block if
 * any, and "Block this caller".
 */
export function LeadFraudSection({ leadId }: { leadId: string }) {
  const query = useQuery({
    queryKey: [...fraudKey, 'lead', leadId],
    queryFn: ({ signal }) => apiCall(fraudRoutes.leadFraud(leadId), { signal }),
  });
  const [blocking, setBlocking] = useState(false);
  const data = query.data;
  return (
    <Section title="Fraud">
      {!data ? (
        <Text size="sm" c="dimmed">
          {query.isError ? 'Could not load the fraud flags.' : 'Loading…'}
        </Text>
      ) : (
        <Stack gap="sm">
          {data.flags.length === 0 ? (
            <Text size="sm" c="dimmed">
              No rule flagged this call.
            </Text>
          ) : (
            data.flags.map((f) => (
              <Stack key={f.id} gap={2}>
                <Group gap="xs">
                  <Text size="sm" fw={600}>
                    {fraudRuleLabels[f.rule]}
                  </Text>
                  <Badge size="sm" color={statusColor[f.status]}>
                    {f.status}
                  </Badge>
                  {f.action === 'hold' ? (
                    <Badge size="sm" variant="outline">
                      hold
                    </Badge>
                  ) : null}
                  <Text size="xs" c="dimmed">
                    {formatDateTime(f.created_at)}
                  </Text>
                </Group>
                <Text size="sm">{f.reason}</Text>
                {f.resolution_note ? (
                  <Text size="xs" c="dimmed">
                    Review: {f.resolution_note}
                  </Text>
                ) : null}
              </Stack>
            ))
          )}
          {data.blocked ? (
            <Text size="sm" c="red">
              This caller is blocked ({data.blocked.value}): {data.blocked.reason}
            </Text>
          ) : data.caller ? (
            <Group>
              <Button
                size="sm"
                variant="light"
                color="red"
                leftSection={<IconBan size={16} />}
                onClick={() => setBlocking(true)}
              >
                Block this caller
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
      <BlockCallerModal
        opened={blocking}
        onClose={() => setBlocking(false)}
        number={data?.caller ?? null}
      />
    </Section>
  );
}
