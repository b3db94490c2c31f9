import { Badge } from '@mantine/core';
import type { OfferStatus } from '../../../../../contract/roles.ts';

/** An offer's status: Active (green) or Inactive (grey). */
export function OfferStatusBadge({ status }: { status: OfferStatus }) {
  return (
    // Dot badges keep the label in the text colour: light badges' tinted text misses AA contrast.
    <Badge color={status === 'active' ? 'green' : 'gray'} variant="dot">
      {status === 'active' ? 'Active' : 'Inactive'}
    </Badge>
  );
}
