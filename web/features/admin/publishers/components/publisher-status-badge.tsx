import type { PublisherStatus } from '../../../../../contract/roles.ts';
import { StatusBadge, type StatusColor } from '../../../../components/status-badge.tsx';

const look: Record<PublisherStatus, { label: string; color: StatusColor }> = {
  pending: { label: 'Pending', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  // Legacy status: shown as Approved (spec §4).
  active: { label: 'Approved', color: 'green' },
  blocked: { label: 'Blocked', color: 'red' },
};

/** A publisher's status; the legacy `active` reads Approved. */
export function PublisherStatusBadge({ status }: { status: PublisherStatus }) {
  const { label, color } = look[status];
  return <StatusBadge color={color}>{label}</StatusBadge>;
}
