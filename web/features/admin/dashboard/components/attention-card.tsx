import type { AdminStats } from '@contract/dashboard.ts';
import { REFUSED_CALLS_CAP } from '@contract/dashboard-limits.ts';
import { Anchor, Badge, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { attentionItems } from '@/components/attention-items.ts';

/**
 * "What needs your attention today" (issue 34): pending publishers and applications, open
 * disputes, calls refused in the last 24 hours and held payouts, each a link to its filtered
 * list. Nothing waiting says so in one line.
 */
type Waiting = Pick<
  AdminStats,
  | 'pending_publishers'
  | 'pending_applications'
  | 'open_disputes'
  | 'refused_calls_24h'
  | 'held_payouts'
>;

export function AttentionCard({ stats, loading }: { stats?: Waiting; loading: boolean }) {
  const items = stats ? attentionItems(stats, REFUSED_CALLS_CAP) : [];
  const waiting = items.filter((i) => i.count > 0);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="attention-title">
      <Title order={2} fz="lg" mb="sm" id="attention-title">
        What needs your attention today
      </Title>
      {loading && !stats ? (
        <Stack gap="xs" role="status" aria-label="Loading what needs attention">
          <Skeleton height={14} width="50%" />
          <Skeleton height={14} width="40%" />
        </Stack>
      ) : waiting.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing waits for you: no pending sign-ups or applications, no open disputes, no refused
          calls in the last 24 hours and no held payouts.
        </Text>
      ) : (
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {waiting.map((i) => (
            <li key={i.key}>
              <Group gap="xs" wrap="nowrap">
                <Badge variant="light" color={i.key === 'refused' ? 'red' : 'yellow'} miw={36}>
                  {i.count >= REFUSED_CALLS_CAP && i.key === 'refused'
                    ? `${REFUSED_CALLS_CAP}+`
                    : i.count.toLocaleString('en-US')}
                </Badge>
                <Anchor component={Link} to={i.to} size="sm">
                  {i.text}
                </Anchor>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Card>
  );
}
