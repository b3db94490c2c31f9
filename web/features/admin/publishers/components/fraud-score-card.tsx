import { Anchor, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { QueryCard } from '@/components/query-card.tsx';
import { apiCall } from '@/lib/api-client.ts';
import { fraudKey, fraudRoutes } from '@/lib/fraud-routes.ts';

/** The score's colour: calm under 5, watch under 20, red from 20 flagged calls per 100. */
const scoreColor = (s: number) => (s >= 20 ? 'red' : s >= 5 ? 'orange' : undefined);

/**
 * The publisher's fraud score (issue 32) over 7 and 30 days: flagged calls per 100 calls (a
 * confirmed flag counts twice), with the counts behind it and a link to their open flags.
 */
export function FraudScoreCard({ publisherId }: { publisherId: string }) {
  const query = useQuery({
    queryKey: [...fraudKey, 'score', publisherId],
    queryFn: ({ signal }) => apiCall(fraudRoutes.publisherScore(publisherId), { signal }),
  });
  return (
    <QueryCard query={query} errorTitle="Error loading the fraud score">
      {(score) => (
        <Stack gap="xs">
          <Group justify="space-between">
            <Text fw={600}>Fraud score</Text>
            <Anchor
              component={Link}
              to={`${adminPaths.fraud}?publisher_id=${publisherId}`}
              size="sm"
            >
              Open flags
            </Anchor>
          </Group>
          <SimpleGrid cols={2}>
            {score.windows.map((w) => (
              <Stack key={w.days} gap={0}>
                <Text size="xs" c="dimmed">
                  Last {w.days} days
                </Text>
                <Text fz={22} fw={700} c={scoreColor(w.score)}>
                  {w.score}
                </Text>
                <Text size="xs" c="dimmed">
                  {w.flagged_calls} flagged of {w.calls} calls · {w.confirmed} confirmed · {w.open}{' '}
                  open
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Stack>
      )}
    </QueryCard>
  );
}
