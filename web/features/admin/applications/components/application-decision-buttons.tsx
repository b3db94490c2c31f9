import { Group } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { StatusActionButton } from '@/components/status-action-button.tsx';
import { useDecideApplication } from '@/features/admin/applications/api/decide-application.ts';
import { toast } from '@/lib/notify.ts';

type DecisionTarget = {
  id: string;
  offer_title: string;
  publisher_name: string | null;
  publisher_email: string;
};

/**
 * Approve / Reject for a pending application (used by the applications list and the compliance
 * review). Reject asks for confirmation first; a decision cannot be undone.
 */
export function ApplicationDecisionButtons({
  application,
  size = 'xs',
  onDecided,
}: {
  application: DecisionTarget;
  size?: 'xs' | 'sm';
  onDecided?: (status: 'approved' | 'rejected') => void;
}) {
  const mutation = useDecideApplication();
  const [confirmingReject, setConfirmingReject] = useState(false);
  const who = application.publisher_name || application.publisher_email;
  const what = `the application of ${who} to "${application.offer_title}"`;

  const decide = (status: 'approved' | 'rejected') => {
    mutation.mutate(
      { id: application.id, status },
      {
        onSuccess: () => {
          setConfirmingReject(false);
          toast({
            title: 'Application Updated',
            description: `${what[0]?.toUpperCase()}${what.slice(1)} has been ${status}.`,
          });
          onDecided?.(status);
        },
        onError: (err) => {
          setConfirmingReject(false);
          toast({ title: 'Update failed', description: err.message, variant: 'destructive' });
        },
      },
    );
  };

  const pending = mutation.isPending;
  return (
    <Group
      gap={6}
      wrap="nowrap"
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => e.stopPropagation()}
    >
      <StatusActionButton
        action="approve"
        size={size}
        onClick={() => decide('approved')}
        loading={pending && mutation.variables?.status === 'approved'}
        disabled={pending}
        aria-label={`Approve application of ${who} to ${application.offer_title}`}
      />
      <StatusActionButton
        action="reject"
        size={size}
        onClick={() => setConfirmingReject(true)}
        disabled={pending}
        aria-label={`Reject application of ${who} to ${application.offer_title}`}
      />
      <ConfirmDialog
        opened={confirmingReject}
        title="Reject this application?"
        confirmLabel="Reject"
        pending={pending}
        onCancel={() => setConfirmingReject(false)}
        onConfirm={() => decide('rejected')}
      >
        {`${what[0]?.toUpperCase()}${what.slice(1)} will be rejected and the publisher will be told by e-mail. This cannot be undone.`}
      </ConfirmDialog>
    </Group>
  );
}
