import { Button, Group, Paper, Text } from '@mantine/core';
import { IconPhoneIncoming } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLiveStream } from '@/lib/live-stream.ts';

/**
 * Shared: "3 new calls" above a list (the admin's dashboard and leads lists) instead of rows
 * moving under the pointer: it counts the calls the live stream says were created since the
 * list was shown; "Show" refreshes the screen's queries (the list, its totals) and starts the
 * count again.
 */
export function NewCallsBar() {
  const queryClient = useQueryClient();
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  useLiveStream((m) => {
    if (m.event !== 'leads') return;
    const created = m.data.leads.filter((l) => l.kind === 'created');
    if (created.length === 0) return;
    setIds((prev) => new Set([...prev, ...created.map((l) => l.id)]));
  });
  if (ids.size === 0) return null;
  const n = ids.size;
  return (
    <Paper withBorder p="xs" radius="md" bg="blue.0" role="status" data-testid="new-calls-bar">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconPhoneIncoming size={18} aria-hidden />
          <Text size="sm" fw={500}>
            {n === 1 ? '1 new call' : `${n} new calls`}
          </Text>
        </Group>
        <Button
          size="xs"
          variant="light"
          onClick={() => {
            setIds(new Set());
            void queryClient.invalidateQueries({ type: 'active' });
          }}
        >
          Show
        </Button>
      </Group>
    </Paper>
  );
}
