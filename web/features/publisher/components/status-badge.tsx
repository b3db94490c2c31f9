import { Badge } from '@mantine/core';

const colors: Record<string, string> = {
  approved: 'green',
  pending: 'yellow',
  rejected: 'red',
  draft: 'gray',
};

/** An application's or a lead's status (approved / pending / rejected) as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={colors[status] ?? 'gray'} variant="light" data-status={status}>
      {status}
    </Badge>
  );
}
