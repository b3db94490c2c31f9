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
    // Dark text on the light tint keeps AA contrast for every colour (yellow included).
    <Badge
      color={colors[status] ?? 'gray'}
      c={`${colors[status] ?? 'gray'}.9`}
      variant="light"
      data-status={status}
    >
      {status}
    </Badge>
  );
}
