import type { CampaignStatus } from '@contract/roles.ts';
import { Badge, Stack, Text } from '@mantine/core';

const colors: Record<CampaignStatus, string> = {
  pending: 'yellow',
  active: 'green',
  paused: 'orange',
  ended: 'gray',
  rejected: 'red',
};

/** A campaign's status as a badge, with the reason it is paused or rejected beneath (issue 31). */
export function CampaignStatusCell({
  status,
  reason,
}: {
  status: CampaignStatus;
  reason: string | null;
}) {
  return (
    <Stack gap={2} maw={260}>
      <Badge color={colors[status]} variant="light">
        {status}
      </Badge>
      {reason ? (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {reason}
        </Text>
      ) : null}
    </Stack>
  );
}
