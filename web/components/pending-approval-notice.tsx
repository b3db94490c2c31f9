import { Alert } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';

/** Tells a pending publisher that an admin has yet to approve the account. */
export function PendingApprovalNotice() {
  return (
    <Alert
      variant="light"
      color="yellow"
      title="Your account is pending approval"
      icon={<IconHourglass size={20} />}
      role="status"
      styles={{ title: { color: 'var(--mantine-color-black)' } }}
    >
      An administrator will review your account shortly. Until it is approved you can look around,
      but you cannot apply to offers. Please check back later.
    </Alert>
  );
}
