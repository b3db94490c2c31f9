import { Card, Group, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type StatCardProps = {
  label: string;
  value: string | undefined;
  loading?: boolean;
  /** An icon on the right, tinted in `color`. */
  icon?: ReactNode;
  color?: string;
  /** The card is a link to this screen (e.g. the list behind the number). */
  to?: string;
  /** A line under the number (the days it covers). */
  note?: string | undefined;
  /** The rule behind the number, in a sentence under it (what it counts). */
  rule?: string | undefined;
};

/**
 * Shared: one dashboard number (admin dashboard, publisher overview) with its label; a skeleton
 * stands in while it loads. A card without `to` is a region named by its label.
 */
export function StatCard({ label, value, loading, icon, color, to, note, rule }: StatCardProps) {
  const body = (
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
        {note ? (
          <Text size="xs" c="dimmed" data-testid="stat-note">
            {note}
          </Text>
        ) : null}
        {rule ? (
          <Text size="xs" c="dimmed" mt={4} maw={260}>
            {rule}
          </Text>
        ) : null}
      </div>
      {icon ? (
        <ThemeIcon variant="light" color={color} size={44} radius="md" aria-hidden>
          {icon}
        </ThemeIcon>
      ) : null}
    </Group>
  );
  return to ? (
    <Card withBorder padding="lg" radius="md" component={Link} to={to}>
      {body}
    </Card>
  ) : (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={label}>
      {body}
    </Card>
  );
}
