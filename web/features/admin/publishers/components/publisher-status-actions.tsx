import type { AdminPublisher } from '@contract/admin.ts';
import {
  publisherBlockReasons,
  type publisherReasons,
  publisherRejectReasons,
} from '@contract/review-reasons.ts';
import { isApprovedPublisher } from '@contract/roles.ts';
import { Group } from '@mantine/core';
import { useState } from 'react';
import { ReasonDialog, type ReviewReason } from '@/components/reason-dialog.tsx';
import { StatusActionButton } from '@/components/status-action-button.tsx';
import { useUpdatePublisherStatus } from '@/features/admin/publishers/api/update-publisher-status.ts';
import { failedToast, toast } from '@/lib/notify.ts';

type Action = 'approve' | 'reject' | 'block' | 'unblock';

const target: Record<Action, 'approved' | 'blocked'> = {
  approve: 'approved',
  reject: 'blocked',
  block: 'blocked',
  unblock: 'approved',
};

const done: Record<Action, string> = {
  approve: 'has been approved',
  reject: 'has been rejected',
  block: 'has been blocked',
  unblock: 'has been unblocked',
};

/** The spec's transitions only: Approve/Reject when pending, Block when approved, Unblock when blocked. */
export function actionsFor(status: AdminPublisher['status']): Action[] {
  if (status === 'pending') return ['approve', 'reject'];
  if (isApprovedPublisher(status)) return ['block'];
  return ['unblock'];
}

/** Status buttons for one publisher; Reject and Block ask for the reason first (issue 16). */
export function PublisherStatusActions({
  publisher,
  size = 'xs',
}: {
  publisher: Pick<AdminPublisher, 'id' | 'name' | 'email' | 'status'>;
  size?: 'xs' | 'sm';
}) {
  const mutation = useUpdatePublisherStatus();
  const [confirming, setConfirming] = useState<'reject' | 'block' | null>(null);
  const who = publisher.name || publisher.email;

  const run = (action: Action, why?: ReviewReason) => {
    mutation.mutate(
      {
        id: publisher.id,
        status: target[action],
        ...(why ? { reason: why.reason as keyof typeof publisherReasons, note: why.note } : {}),
      },
      {
        onSuccess: () => {
          setConfirming(null);
          toast({ title: 'Publisher Updated', description: `${who} ${done[action]}.` });
        },
        onError: (err) => {
          setConfirming(null);
          failedToast('Update failed')(err);
        },
      },
    );
  };

  const pending = mutation.isPending;
  const stop = (e: React.MouseEvent) => e.stopPropagation();

  return (
    <Group gap={6} wrap="nowrap" onClick={stop} onKeyDown={(e) => e.stopPropagation()}>
      {actionsFor(publisher.status).map((action) => (
        <StatusActionButton
          key={action}
          action={action}
          size={size}
          // Reject and Block ask first; Approve and Unblock are undone by the other.
          onClick={() =>
            action === 'reject' || action === 'block' ? setConfirming(action) : run(action)
          }
          disabled={pending}
          aria-label={`${action[0]?.toUpperCase()}${action.slice(1)} ${who}`}
        />
      ))}
      <ReasonDialog
        opened={confirming !== null}
        title={confirming === 'reject' ? 'Reject this publisher?' : 'Block this publisher?'}
        // Rejecting a sign-up and blocking an account have their own reasons (issue 27).
        reasons={confirming === 'reject' ? publisherRejectReasons : publisherBlockReasons}
        confirmLabel={confirming === 'reject' ? 'Reject' : 'Block'}
        pending={pending}
        onCancel={() => setConfirming(null)}
        onConfirm={(why) => confirming && run(confirming, why)}
      >
        {confirming === 'reject'
          ? `${who} will not be able to sign in and gets an e-mail with your reason. You can unblock the account later.`
          : `${who} will be signed out at once, cannot sign in until you unblock the account, and gets an e-mail with your reason.`}
      </ReasonDialog>
    </Group>
  );
}
