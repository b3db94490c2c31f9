import { IconHourglass } from '@tabler/icons-react';
import { NoticeAlert } from './notice-alert.tsx';

/** Tells a pending publisher that an admin has yet to approve the account. */
export function PendingApprovalNotice() {
  return (
    <NoticeAlert title="Your account is pending approval" icon={<IconHourglass size={20} />}>
      An administrator will review your account shortly. Until it is approved you can look around,
      but you cannot apply to offers. Please check back later.
    </NoticeAlert>
  );
}
