import { Badge } from '@mantine/core';

// Tint and a dark text colour per status: Mantine's own light-variant text (shade 6) falls
// below WCAG AA (4.5:1) for small bold badge text; these stay above 7:1.
const looks: Record<string, { color: string; text: string }> = {
  approved: { color: 'green', text: '#1b5e20' },
  pending: { color: 'yellow', text: '#7a4b00' },
  rejected: { color: 'red', text: '#a51111' },
  draft: { color: 'gray', text: '#343a40' },
};

/** An application's or a lead's status (approved / pending / rejected) as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  const look = looks[status] ?? { color: 'gray', text: '#343a40' };
  return (
    <Badge color={look.color} c={look.text} variant="light" data-status={status}>
      {status}
    </Badge>
  );
}
