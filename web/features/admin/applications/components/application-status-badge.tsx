import { Badge } from '@mantine/core';
import type { ApplicationStatus } from '../../../../../contract/roles.ts';

const look: Record<ApplicationStatus, { label: string; color: string }> = {
  draft: { label: 'Draft', color: 'gray' },
  pending: { label: 'Pending', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  rejected: { label: 'Rejected', color: 'red' },
};

/** An application's status as a coloured badge. */
export function ApplicationStatusBadge({ status }: { status: ApplicationStatus }) {
  const { label, color } = look[status];
  return (
    // Dot badges keep the label in the text colour: light badges' tinted text misses AA contrast.
    <Badge color={color} variant="dot">
      {label}
    </Badge>
  );
}
