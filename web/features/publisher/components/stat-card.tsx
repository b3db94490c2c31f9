import { Card, Group, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

type StatCardProps = {
  label: string;
  value: string | undefined;
  icon: ReactNode;
  color: string;
  loading?: boolean;
};

/** One of the overview's four numbers; a skeleton stands in while it loads. */
export function StatCard({ label, value, icon, color, loading }: StatCardProps) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          {loading ? (
            <Skeleton height={30} width={110} mt={6} />
          ) : (
            <Text fz={28} fw={700} lh={1.3} mt={2} data-testid="stat-value">
              {value}
            </Text>
          )}
        </div>
        <ThemeIcon variant="light" color={color} size={44} radius="md" aria-hidden>
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
