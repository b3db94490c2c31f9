import type { ActivityItem, ActivityType } from '@contract/publisher.ts';
import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconCash,
  IconCheck,
  IconFileDescription,
  IconFileText,
  IconPhoneCall,
  IconSend,
  IconX,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDateTime } from '@/lib/format.ts';

const looks: Record<ActivityType, { icon: ReactNode; color: string }> = {
  application_submitted: { icon: <IconSend size={16} />, color: 'blue' },
  application_approved: { icon: <IconCheck size={16} />, color: 'green' },
  application_rejected: { icon: <IconX size={16} />, color: 'red' },
  io_uploaded: { icon: <IconFileText size={16} />, color: 'grape' },
  lead: { icon: <IconPhoneCall size={16} />, color: 'cyan' },
  payout: { icon: <IconCash size={16} />, color: 'teal' },
  agreement: { icon: <IconFileDescription size={16} />, color: 'orange' },
};

/** The publisher's latest events (applications, decisions, IOs, leads, payouts, agreement). */
export function RecentActivity({ items }: { items: ActivityItem[] }) {
  if (items.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        No activity yet. Apply to an offer to get started; your applications, leads and payouts will
        show up here.
      </Text>
    );
  }
  return (
    <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((item) => {
        const look = looks[item.type];
        return (
          <Group
            component="li"
            key={`${item.type}-${item.at}-${item.description}`}
            wrap="nowrap"
            align="flex-start"
            gap="sm"
          >
            <ThemeIcon variant="light" color={look.color} radius="xl" size={32} aria-hidden>
              {look.icon}
            </ThemeIcon>
            <div style={{ minWidth: 0, flex: 1 }}>
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text size="sm" fw={600}>
                  {item.title}
                </Text>
                <Text size="xs" c="dimmed" component="time" dateTime={item.at}>
                  {formatDateTime(item.at)}
                </Text>
              </Group>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {item.description}
              </Text>
            </div>
          </Group>
        );
      })}
    </Stack>
  );
}
