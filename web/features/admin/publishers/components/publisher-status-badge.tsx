import { Badge } from '@mantine/core';
import type { PublisherStatus } from '../../../../../contract/roles.ts';

const look: Record<PublisherStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  // Legacy status: shown as Approved (spec §4).
  active: { label: 'Approved', color: 'green' },
  blocked: { label: 'Blocked', color: 'red' },
};

/** A publisher's status; the legacy `active` reads Approved. */
export function PublisherStatusBadge({ status }: { status: PublisherStatus }) {
  const { label, color } = look[status];
  return (
    // Shade 9 text keeps the light badge at WCAG AA contrast.
    <Badge color={color} variant="light" c={`${color}.9`}>
      {label}
    </Badge>
  );
}
