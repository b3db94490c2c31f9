import { Badge } from '@mantine/core';
import type { OfferStatus } from '../../../../../contract/roles.ts';

/** An offer's status: Active (green) or Inactive (grey). */
export function OfferStatusBadge({ status }: { status: OfferStatus }) {
  return (
    <Badge color={status === 'active' ? 'green' : 'gray'} variant="light">
      {status === 'active' ? 'Active' : 'Inactive'}
    </Badge>
  );
}
