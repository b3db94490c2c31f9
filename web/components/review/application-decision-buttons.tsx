import { applicationReasons } from '@contract/review-reasons.ts';
import { Divider, Group } from '@mantine/core';
import { useState } from 'react';
import { ReasonDialog, type ReviewReason } from '@/components/reason-dialog.tsx';
import { StatusActionButton } from '@/components/status-action-button.tsx';
import { useDecideApplication } from '@/features/admin/applications/api/decide-application.ts';
import { failedToast, toast } from '@/lib/notify.ts';

type DecisionTarget = {
  id: string;
  offer_title: string;
  publisher_name: string | null;
  publisher_email: string;
};

/**
 * Approve / Reject for a pending application (used by the applications list and the compliance
 * review). Reject asks for the reason first (issue 16); a decision cannot be undone.
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

  const decide = (status: 'approved' | 'rejected', why?: ReviewReason) => {
    mutation.mutate(
      {
        id: application.id,
        status,
        ...(why ? { reason: why.reason as keyof typeof applicationReasons, note: why.note } : {}),
      },
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
          failedToast('Update failed')(err);
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
      <ReasonDialog
        opened={confirmingReject}
        title="Reject this application?"
        reasons={applicationReasons}
        confirmLabel="Reject"
        pending={pending}
        onCancel={() => setConfirmingReject(false)}
        onConfirm={(why) => decide('rejected', why)}
      >
        {`${what[0]?.toUpperCase()}${what.slice(1)} will be rejected. The publisher reads your reason on the application and in an e-mail, and may submit new files.`}
      </ReasonDialog>
    </Group>
  );
}

/** The last row of a review dialog (application, compliance): a divider, then Approve / Reject. */
export function ReviewDecisionRow(props: {
  application: DecisionTarget;
  onDecided?: (status: 'approved' | 'rejected') => void;
}) {
  return (
    <>
      <Divider />
      <Group justify="flex-end">
        <ApplicationDecisionButtons size="sm" {...props} />
      </Group>
    </>
  );
}
